import { Markdown } from "@/components/docs/markdown";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { guideSource } from "@/lib/docs/guide-source";

export const metadata = { title: "Webhooks · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function WebhooksGuide() {
  const source = (await guideSource("webhooks")) ?? "# Webhooks\n\nThe receiver guide is not installed.";
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href="/docs/webhooks.md" />
      <Markdown source={source} />
    </main>
  );
}
