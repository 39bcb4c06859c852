// Small pieces of Markdown writing shared by the llms.txt files and the pages' Markdown twins: a table cell that
// cannot break its row, a table, and the response a twin or llms.txt is sent as.

/** Text made safe for one table cell: pipes escaped, line breaks folded into spaces. */
export const mdCell = (text: string | number | null | undefined) =>
  String(text ?? "")
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ")
    .trim();

/** A Markdown table; an empty body gives an empty string (no header without rows). */
export function mdTable(head: string[], rows: (string | number | null | undefined)[][]): string {
  if (rows.length === 0) return "";
  const line = (cells: (string | number | null | undefined)[]) => `| ${cells.map(mdCell).join(" | ")} |`;
  return [line(head), `|${head.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

/** Blocks joined by one blank line, empty ones left out, with one final newline. */
export const mdBlocks = (blocks: (string | null | undefined | false)[]) =>
  blocks
    .filter((b): b is string => typeof b === "string" && b.trim() !== "")
    .map((b) => b.replace(/\s+$/, ""))
    .join("\n\n") + "\n";

/** One line of text without line breaks (a description written over several lines, say). */
export const oneLine = (text: string | null | undefined) => (text ?? "").replace(/\s*\n\s*/g, " ").trim();

/** A Markdown document as a response: what every `.md` twin answers. */
export const markdownResponse = (body: string, init: { status?: number; cache?: string } = {}) =>
  new Response(body, {
    status: init.status ?? 200,
    headers: { "Content-Type": "text/markdown; charset=utf-8", "Cache-Control": init.cache ?? "public, max-age=60" },
  });

/** Plain text (llms.txt and every 404 of these routes). */
export const plainTextResponse = (body: string, init: { status?: number; cache?: string } = {}) =>
  new Response(body, {
    status: init.status ?? 200,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": init.cache ?? "public, max-age=60" },
  });
