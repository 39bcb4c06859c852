import { portalSlugsOf } from "@/lib/apps/portal-slugs";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { CATALOG_COLLECTION, listCatalogProducts } from "@/lib/products/catalog";
import { GUIDES } from "./guides";
import { platformLlmsTxt, type CatalogueEntry } from "./llms-txt";
import { REFERENCE_PAGES } from "./reference-markdown";

// GET /llms.txt's data: the catalogue as /catalog lists it (public, active products, newest first), each linked to
// its portal's llms.txt, read page by page up to a bound so the file stays a size an agent reads at once.

const PAGE = 100;
const MAX_PAGES = 5;

async function catalogue(base: string): Promise<{ entries: CatalogueEntry[]; more: boolean }> {
  const products: { id: string; name: string; slug: string | null; description: string | null; provider: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const params = new URLSearchParams({ limit: String(PAGE), sort: "-publishedAt" });
    if (cursor) params.set("cursor", cursor);
    const result = await listCatalogProducts(parseCollectionQuery(params, CATALOG_COLLECTION));
    for (const p of result.data as {
      id: string;
      name: string;
      slug: string | null;
      description: string | null;
      provider: { name: string };
    }[])
      products.push({ ...p, provider: p.provider.name });
    cursor = result.pagination.hasMore ? (result.pagination.nextCursor ?? null) : null;
    if (!cursor) break;
  }
  const portals = await portalSlugsOf(products.map((p) => p.id));
  const entries = products.map((p) => {
    const portal = portals.get(p.id);
    return {
      name: p.name,
      description: p.description,
      provider: p.provider,
      url: portal ? `${base}/p/${portal}/llms.txt` : `${base}/catalog/${p.slug ?? p.id}`,
    };
  });
  return { entries, more: cursor !== null };
}

export async function platformLlmsTxtFor(base: string): Promise<string> {
  const { entries, more } = await catalogue(base);
  return platformLlmsTxt({ base, guides: GUIDES, referencePages: REFERENCE_PAGES, products: entries, moreProducts: more });
}
