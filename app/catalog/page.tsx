import Link from "next/link";
import { ApiError } from "@/lib/http/errors";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { CATALOG_COLLECTION, listCatalogProducts, type serializeCatalogProduct } from "@/lib/products/catalog";
import { PRODUCT_TYPES } from "@/lib/schemas/product";
import { getPortalContext } from "@/lib/portal/portal-context";
import { Badge, Button, Card, EmptyState, Input, Select } from "@/components/ui/primitives";
import { CatalogShell } from "@/components/marketplace/catalog-shell";
import { PricingTable } from "@/components/marketplace/pricing-table";
import type { PriceView } from "@/components/marketplace/price-text";

// GET /catalog: every business's public, active products, for anyone (the same data as GET /v1/catalog/products).

export const metadata = { title: "API catalogue · Developer Platform" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() ?? "";

export default async function CatalogPage({ searchParams }: { searchParams: Search }) {
  const params = await searchParams;
  const q = first(params.q).slice(0, 200);
  const type = (PRODUCT_TYPES as readonly string[]).includes(first(params.type)) ? first(params.type) : "";
  const query = new URLSearchParams({ limit: "50", sort: "-publishedAt" });
  if (q) query.set("q", q);
  if (type) query.set("type", type);
  const [viewer, result] = await Promise.all([
    getPortalContext(),
    listCatalogProducts(parseCollectionQuery(query, CATALOG_COLLECTION)).catch((e) => {
      if (e instanceof ApiError) return { error: e.message };
      throw e;
    }),
  ]);
  const products = ("error" in result ? [] : result.data) as ReturnType<typeof serializeCatalogProduct>[];
  return (
    <CatalogShell signedIn={viewer !== null}>
      <h1 className="text-3xl font-bold tracking-tight">API catalogue</h1>
      <p className="mt-2 max-w-2xl text-slate-600 dark:text-slate-300">
        Products published by businesses on this platform. Pick a plan, subscribe with a card, and get a key that may call it.
      </p>
      <form method="get" action="/catalog" role="search" className="mt-6 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <label htmlFor="catalog-q" className="block text-sm font-medium">
            Search
          </label>
          <Input id="catalog-q" name="q" type="search" defaultValue={q} placeholder="e.g. weather" />
        </div>
        <div>
          <label htmlFor="catalog-type" className="block text-sm font-medium">
            Type
          </label>
          <Select id="catalog-type" name="type" defaultValue={type}>
            <option value="">All types</option>
            {PRODUCT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </div>
        <Button type="submit">Search</Button>
      </form>
      {"error" in result ? (
        <p role="alert" className="mt-4 text-sm text-red-600">
          {result.error}
        </p>
      ) : null}
      <div className="mt-8 space-y-6" data-testid="catalog-results">
        {products.length === 0 ? (
          <EmptyState title={q || type ? "No product matches" : "No products yet"}>
            {q || type ? "Try another word or type." : "Published products appear here."}
          </EmptyState>
        ) : (
          products.map((p) => (
            <Card
              key={p.id}
              title={
                <Link href={`/catalog/${p.slug ?? p.id}`} className="text-lg">
                  {p.name}
                </Link>
              }
              actions={<Badge tone="info">{p.type}</Badge>}
            >
              <p className="text-sm text-slate-500 dark:text-slate-400">by {p.provider.name}</p>
              {p.description ? <p className="mt-2 text-sm">{p.description}</p> : null}
              {p.features.length ? (
                <ul className="mt-2 flex flex-wrap gap-2" aria-label={`Features of ${p.name}`}>
                  {p.features.map((f) => (
                    <li key={f.id}>
                      <Badge>{f.name}</Badge>
                    </li>
                  ))}
                </ul>
              ) : null}
              <div className="mt-3">
                <PricingTable prices={p.prices as PriceView[]} caption={`Plans of ${p.name}`} />
              </div>
            </Card>
          ))
        )}
      </div>
    </CatalogShell>
  );
}
