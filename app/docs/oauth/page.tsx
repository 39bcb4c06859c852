import { readFile } from "node:fs/promises";
import path from "node:path";
import { Markdown } from "@/components/docs/markdown";

export const metadata = { title: "OAuth 2.0 · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function OAuthGuide() {
  const source = await readFile(path.join(process.cwd(), "docs", "oauth.md"), "utf8").catch(
    () => "# OAuth\n\nThe OAuth guide is not installed.",
  );
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <Markdown source={source} />
    </main>
  );
}
