import type { ReactNode } from "react";
import { guideLinkTarget } from "@/lib/docs/guides";

// Enough Markdown for our own docs: headings, fenced code, lists (an item may run on over indented lines),
// numbered lists, tables-as-text, paragraphs, inline `code`, **bold** and [links](…). Links to another guide's
// file (`billing.md`, `docs/billing.md`) point at its served page, so the same files read well on GitHub and here.
// Our files only; nothing user-supplied is rendered here.

const LIST_ITEM = /^\s*[-*] /;
const NUMBERED_ITEM = /^\d+\. /;
// A line indented under a list item that starts nothing of its own continues that item.
const continuesItem = (line: string) => /^\s{2,}\S/.test(line) && !/^\s*(\||```)/.test(line) && !LIST_ITEM.test(line);

function listItems(lines: string[], start: number, marker: RegExp): { items: string[]; next: number } {
  const items: string[] = [];
  let i = start;
  while (i < lines.length && marker.test(lines[i])) {
    let item = lines[i].replace(marker, "");
    while (i + 1 < lines.length && continuesItem(lines[i + 1])) item += " " + lines[++i].trim();
    items.push(item);
    i++;
  }
  return { items, next: i };
}

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /(`[^`]+`|\*\*[^*]+\*\*|\[[^\]]+\]\([^)]+\))/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index! > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (t.startsWith("`"))
      out.push(
        <code key={m.index} className="rounded bg-slate-100 px-1 dark:bg-slate-800">
          {t.slice(1, -1)}
        </code>,
      );
    else if (t.startsWith("**")) out.push(<strong key={m.index}>{t.slice(2, -2)}</strong>);
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(t)!;
      out.push(
        <a key={m.index} href={guideLinkTarget(href)}>
          {label}
        </a>,
      );
    }
    last = m.index! + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = [];
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code: string[] = [];
      while (++i < lines.length && !lines[i].startsWith("```")) code.push(lines[i]);
      blocks.push(
        <pre key={i} tabIndex={0} className="my-3 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
          <code>{code.join("\n")}</code>
        </pre>,
      );
    } else if (/^#{1,4} /.test(line)) {
      const level = line.indexOf(" ");
      const text = line.slice(level + 1);
      const cls = ["", "text-3xl font-bold", "mt-8 text-xl font-semibold", "mt-6 text-lg font-semibold", "mt-4 font-semibold"][level];
      const Tag = `h${level}` as "h1";
      blocks.push(
        <Tag key={i} id={text.toLowerCase().replace(/[^a-z0-9]+/g, "-")} className={cls}>
          {inline(text)}
        </Tag>,
      );
    } else if (LIST_ITEM.test(line) || NUMBERED_ITEM.test(line)) {
      const numbered = !LIST_ITEM.test(line);
      const { items, next } = listItems(lines, i, numbered ? NUMBERED_ITEM : LIST_ITEM);
      i = next - 1;
      const List = numbered ? "ol" : "ul";
      blocks.push(
        <List key={i} className={`my-2 space-y-1 pl-6 ${numbered ? "list-decimal" : "list-disc"}`}>
          {items.map((t, j) => (
            <li key={j}>{inline(t)}</li>
          ))}
        </List>,
      );
    } else if (line.trimStart().startsWith("|")) {
      // A table may be indented under a list item; its rows are read the same way.
      const rows: string[] = [];
      for (; i < lines.length && lines[i].trimStart().startsWith("|"); i++) rows.push(lines[i].trim());
      i--;
      const cells = rows
        .filter((r) => !/^\|[\s|:-]+\|$/.test(r))
        .map((r) =>
          r
            .slice(1, -1)
            .split("|")
            .map((c) => c.trim()),
        );
      blocks.push(
        <div key={i} className="my-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <tbody>
              {cells.map((r, j) => (
                <tr key={j} className="border-b border-slate-200 dark:border-slate-800">
                  {r.map((c, k) =>
                    j === 0 ? (
                      <th key={k} className="py-1 pr-3">
                        {inline(c)}
                      </th>
                    ) : (
                      <td key={k} className="py-1 pr-3">
                        {inline(c)}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          ,
        </div>,
      );
    } else if (line.trim()) {
      const para: string[] = [line];
      while (i + 1 < lines.length && lines[i + 1].trim() && !/^(#|```|\s*[-*] |\d+\. |\s*\|)/.test(lines[i + 1])) para.push(lines[++i]);
      blocks.push(
        <p key={i} className="my-2">
          {inline(para.join(" "))}
        </p>,
      );
    }
  }
  return <div className="leading-relaxed">{blocks}</div>;
}
