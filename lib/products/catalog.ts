import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { listCollection } from "@/lib/http/list-collection";
import { columnWhere, type CollectionQuery, type CollectionSpec } from "@/lib/http/collection-query";
import type { Feature as FeatureRow, Price as PriceRow, Product as ProductRow } from "@/generated/prisma-sqlite";
import { PRODUCT_TYPES } from "@/lib/schemas/product";
import { searchable } from "./product-collection";
import { serializeFeature, serializePrice, type StoredApiBlock } from "./serialize";

// The catalogue: every business's public, active products, as a developer of another account sees them (and the
// public page /catalog shows them to anyone). What a consumer needs to choose (features, active prices with the
// limits each plan buys, the provider's name) and nothing of the provider's set-up: no upstream address, no
// secret header, no inactive price.

type CatalogRow = ProductRow & { business: { id: string; name: string }; features: FeatureRow[]; prices: PriceRow[] };

const stringOf = (column: string) => ({ type: "string" as const, where: columnWhere(column) });

export const CATALOG_COLLECTION: CollectionSpec = {
  filters: {
    id: stringOf("id"),
    name: stringOf("name"),
    slug: stringOf("slug"),
    type: { type: "enum", values: PRODUCT_TYPES },
    provider: stringOf("businessId"),
    createdAt: { type: "date" },
    publishedAt: { type: "date" },
  },
  sortable: ["createdAt", "publishedAt", "name", "id"],
  fields: ["name", "type", "slug", "description", "provider", "features", "prices", "industries", "productCategories", "api", "createdAt"],
  search: (terms) => ({ AND: terms.map((t) => ({ searchText: { contains: searchable(t) } })) }),
};

const LISTED = { visibility: "public", isActive: true };
const INCLUDE = {
  business: { select: { id: true, name: true } },
  features: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] },
  prices: { where: { isActive: true }, orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] },
};

export function serializeCatalogProduct(p: CatalogRow) {
  const api = p.api as StoredApiBlock | null;
  return {
    id: p.id,
    object: "catalog_product" as const,
    name: p.name,
    type: p.type,
    slug: p.slug,
    description: p.description,
    provider: { id: p.business.id, name: p.business.name },
    industries: (p.industries as string[] | null) ?? [],
    productCategories: (p.productCategories as string[] | null) ?? [],
    features: p.features.map(serializeFeature),
    prices: p.prices.map(serializePrice),
    // What a consumer may know of the API: where its reference is, not where its calls go.
    api: api ? { openapiUrl: api.openapiUrl, hasOpenapiDocument: api.openapiDocument !== null } : null,
    publishedAt: p.publishedAt?.toISOString() ?? null,
    createdAt: p.createdAt.toISOString(),
  };
}

export function listCatalogProducts(query: CollectionQuery) {
  return listCollection<CatalogRow>({
    spec: CATALOG_COLLECTION,
    query,
    baseWhere: LISTED,
    from: {
      findMany: (args: object) => db.product.findMany({ ...args, include: INCLUDE }),
      count: (args: object) => db.product.count(args),
    },
    serialize: serializeCatalogProduct,
  });
}

/**
 * One catalogue product by id or slug: public and active, or one of the caller's own in its environment (a
 * provider previews its product as consumers will see it). Another business's private or inactive product is a 404, like an unknown one.
 */
export async function getCatalogProduct(idOrSlug: string, v: { businessId: string; environment?: string } | null = null) {
  const where = isIdOf("product", idOrSlug) ? { id: idOrSlug } : /^[a-z0-9-]{3,63}$/.test(idOrSlug) ? { slug: idOrSlug } : null;
  const row = where ? ((await db.product.findFirst({ where, include: INCLUDE })) as CatalogRow | null) : null;
  // The portal's preview names the business only; the API's caller also its environment.
  const own =
    v !== null && row !== null && row.businessId === v.businessId && (v.environment === undefined || row.environment === v.environment);
  if (!row || (!own && (row.visibility !== "public" || !row.isActive))) throw notFound("product", idOrSlug);
  return serializeCatalogProduct(row);
}
