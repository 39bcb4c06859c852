import { readFile } from "node:fs/promises";
import path from "node:path";
import { Markdown } from "@/components/docs/markdown";

export const metadata = { title: "Webhooks · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function WebhooksGuide() {
  const source = await readFile(path.join(process.cwd(), "docs", "webhooks.md"), "utf8").catch(
    () => "# Webhooks\n\nThe receiver guide is not installed.",
  );
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <Markdown source={source} />
    </main>
  );
}
