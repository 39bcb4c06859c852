import { db } from "@/lib/db/client";
import { isConsoleSlug } from "./app-rules";

// Where each product's developer portal is: the slug of the oldest published Developer app presenting it (the one
// made when the product was published, unless its business made another first). The catalogue knows products, the
// portal /p/{slug} knows apps; llms.txt links the one to the other. Apps keep their products as a JSON list, so the
// match is made here rather than in SQL.

export async function portalSlugsOf(productIds: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (productIds.length === 0) return out;
  const wanted = new Set(productIds);
  const apps = await db.app.findMany({
    where: { type: "Developer", status: "published" },
    select: { slug: true, products: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  for (const app of apps) {
    if (isConsoleSlug(app.slug)) continue;
    for (const id of (app.products as string[] | null) ?? []) if (wanted.has(id) && !out.has(id)) out.set(id, app.slug);
  }
  return out;
}
