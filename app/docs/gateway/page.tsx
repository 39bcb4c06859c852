import { readFile } from "node:fs/promises";
import path from "node:path";
import { Markdown } from "@/components/docs/markdown";

export const metadata = { title: "Gateway · Developer Platform" };
export const dynamic = "force-dynamic";

export default async function GatewayGuide() {
  const source = await readFile(path.join(process.cwd(), "docs", "gateway.md"), "utf8").catch(
    () => "# Gateway\n\nThe gateway guide is not installed.",
  );
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <Markdown source={source} />
    </main>
  );
}
