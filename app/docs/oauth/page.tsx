import { Markdown } from "@/components/docs/markdown";
import { MarkdownTwinLink } from "@/components/docs/markdown-twin-link";
import { guideSource } from "@/lib/docs/guide-source";

export const metadata = { title: "OAuth 2.0 · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function OAuthGuide() {
  const source = (await guideSource("oauth")) ?? "# OAuth\n\nThe OAuth guide is not installed.";
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <MarkdownTwinLink href="/docs/oauth.md" />
      <Markdown source={source} />
    </main>
  );
}
