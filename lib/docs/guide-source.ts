import { readFile } from "node:fs/promises";
import path from "node:path";
import { guideBySlug } from "./guides";

/**
 * A guide's Markdown source, docs/{slug}.md, as written; null for a slug outside the list in guides.ts (the file
 * name comes from that list, never from the URL) or a file that is not installed.
 */
export async function guideSource(slug: string): Promise<string | null> {
  const guide = guideBySlug(slug);
  if (!guide) return null;
  return readFile(path.join(process.cwd(), "docs", `${guide.slug}.md`), "utf8").catch(() => null);
}
