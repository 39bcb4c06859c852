import type { Feature as FeatureRow, Price as PriceRow, Product as ProductRow } from "@/generated/prisma-sqlite";
import type { McpSettings } from "@/lib/mcp/openapi-tools";
import { secretHeaderNames } from "./api-secret-headers";

// Rows → the wire shapes of lib/schemas. One place, so the API and the portal print the same thing.

/** The stored `api` block of an API product (the secret headers are sealed in their own column). */
export interface StoredApiBlock {
  upstreamUrl: string;
  sandboxUpstreamUrl: string | null;
  timeoutMs: number;
  openapiUrl: string | null;
  openapiDocument: Record<string, unknown> | null;
  /** The document at openapiUrl as fetched when it was set or refreshed: the MCP tools are made from it. */
  openapiFetched?: Record<string, unknown> | null;
  openapiFetchedAt?: string | null;
  mcp?: McpSettings;
}

/** The document the product's tools and reference come from: uploaded, else the stored copy of openapiUrl's. */
export const storedOpenApiDocument = (api: StoredApiBlock | null | undefined) => api?.openapiDocument ?? api?.openapiFetched ?? null;

/** What reads show of the api block: the secret headers' names, never their values. */
function publicApiBlock(api: StoredApiBlock | null, sealedHeaders: string | null, slug: string | null, visibility: string) {
  if (!api) return null;
  const mcp = api.mcp ?? {};
  return {
    upstreamUrl: api.upstreamUrl,
    sandboxUpstreamUrl: api.sandboxUpstreamUrl ?? api.upstreamUrl,
    timeoutMs: api.timeoutMs,
    openapiUrl: api.openapiUrl,
    hasOpenapiDocument: api.openapiDocument !== null,
    secretHeaderNames: sealedHeaders ? secretHeaderNames(sealedHeaders) : [],
    openapiFetchedAt: api.openapiFetchedAt ?? null,
    mcp: { ...mcp, enabled: mcp.enabled !== false, path: slug && visibility === "public" ? `/mcp/${slug}` : null },
  };
}

/** The stored columns the wire shape reads besides its dates (a list page selects these and no others). */
export const WIRE_COLUMNS = [
  "id",
  "name",
  "type",
  "businessId",
  "description",
  "isActive",
  "environment",
  "industries",
  "productCategories",
  "interfaces",
  "visibility",
  "slug",
  "api",
  "apiSecretHeaders",
] as const satisfies readonly (keyof ProductRow)[];
type WireColumn = (typeof WIRE_COLUMNS)[number];

/**
 * What the wire shape is made from: a stored row, or a list page's lighter one (lib/products/find-product-row.ts),
 * which carries only these columns and its dates already as ISO text (a Date built and printed again per date
 * was a fifth of a list page's CPU).
 */
export type SerializableProduct = Pick<ProductRow, WireColumn> & {
  publishedAt: Date | string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  business?: { id: string; name: string } | null;
};

const wireDate = (d: Date | string) => (typeof d === "string" ? d : d.toISOString());

export function serializeProduct(p: SerializableProduct) {
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    business: p.business ? { id: p.business.id, name: p.business.name } : p.businessId,
    description: p.description,
    isActive: p.isActive,
    environment: p.environment,
    industries: (p.industries as string[] | null) ?? [],
    productCategories: (p.productCategories as string[] | null) ?? [],
    interfaces: (p.interfaces as Record<string, boolean> | null) ?? {},
    visibility: p.visibility as "private" | "public",
    slug: p.slug,
    api: publicApiBlock(p.api as StoredApiBlock | null, p.apiSecretHeaders, p.slug, p.visibility),
    publishedAt: p.publishedAt === null ? null : wireDate(p.publishedAt),
    createdAt: wireDate(p.createdAt),
    updatedAt: wireDate(p.updatedAt),
  };
}

export function serializeFeature(f: FeatureRow) {
  return {
    id: f.id,
    productId: f.productId,
    name: f.name,
    description: f.description,
    key: f.key,
    value: (f.value as boolean | number | string | null) ?? null,
    environment: f.environment,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

export function serializePrice(p: PriceRow) {
  return {
    id: p.id,
    productId: p.productId,
    name: p.name,
    type: p.type,
    currency: p.currency,
    amount: p.amount,
    interval: p.interval,
    includedQuantity: p.includedQuantity,
    minVolume: p.minVolume,
    description: p.description,
    tiers: (p.tiers as { upTo: number | null; amount: number; description?: string }[] | null) ?? null,
    tiersMode: (p.tiersMode as "graduated" | "volume" | null) ?? null,
    baseSubscription: (p.baseSubscription as { amount: number; interval: "month" | "year"; includedQuota: number } | null) ?? null,
    overageRate: p.overageRate,
    metrics: (p.metrics as { name: string; amount: number; unit: string; includedQuantity?: number }[] | null) ?? null,
    rateLimit: (p.rateLimit as { limit: number; windowSeconds: number } | null) ?? null,
    monthlyQuota: p.monthlyQuota,
    billFailedCalls: p.billFailedCalls,
    billing: p.billing as "postpaid" | "prepaid",
    maxCostPerCall: p.maxCostPerCall,
    onLimiterOutage: p.onLimiterOutage as "open" | "closed",
    isActive: p.isActive,
    environment: p.environment,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
