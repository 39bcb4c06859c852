import { Markdown } from "@/components/docs/markdown";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { guideSource } from "@/lib/docs/guide-source";

export const metadata = { title: "Gateway · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function GatewayGuide() {
  const source = (await guideSource("gateway")) ?? "# Gateway\n\nThe gateway guide is not installed.";
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href="/docs/gateway.md" />
      <Markdown source={source} />
    </main>
  );
}
