import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { ApiError, invalidField } from "@/lib/http/errors";
import { checkUrlTarget } from "@/lib/webhooks/url-safety";
import type { Prisma, Product as ProductRow } from "@/generated/prisma-sqlite";
import type { ProductCreate } from "@/lib/schemas/product";
import { newGatewaySecret, sealGatewaySecret } from "@/lib/gateway/gateway-secret";
import { sealSecretHeaders } from "./api-secret-headers";
import { storedOpenApiDocument, type StoredApiBlock } from "./serialize";
import { MAX_DOCUMENT_BYTES, checkMcpSettings, fetchOpenApiDocument, fetchedCopy, openApiProblem } from "./openapi-document";

// What publishing a product takes: the rules of `visibility`, `slug` and the `api` block of a product write.
// A public product is in every account's catalogue, so it must be active and have an active price to subscribe
// to; its slug (the gateway's /gw/{slug}/ and its portal's /p/{slug}) is unique across the deployment.

const DEFAULT_TIMEOUT_MS = 30_000;

type Input = Pick<ProductCreate, "visibility" | "slug" | "api">;

function slugOf(name: string): string {
  const base = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return base.length >= 3 ? base : `api-${base || "product"}`;
}

/** A free slug made from the name: `weather-api`, then `weather-api-2`, … */
async function freeSlug(name: string, productId: string): Promise<string> {
  const base = slugOf(name);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    const taken = await db.product.findUnique({ where: { slug: candidate }, select: { id: true } });
    if (!taken || taken.id === productId) return candidate;
  }
  return `${base}-${productId.slice(-8).toLowerCase()}`;
}

async function checkUpstream(field: string, url: string | null | undefined): Promise<void> {
  if (!url) return;
  const problem = await checkUrlTarget(url, "Upstream URLs");
  if (problem) throw invalidField(field, problem.message);
}

/**
 * The columns a create or update sets for visibility, slug and api. `current` is the stored row on an update;
 * `effective` is the product as it will be (type, name, isActive), for the rules that depend on it.
 */
export async function publishingColumns(
  productId: string,
  input: Input,
  current: ProductRow | null,
  effective: { name: string; type: string; isActive: boolean },
): Promise<{ data: Prisma.ProductUncheckedUpdateInput; gatewaySecret: string | null }> {
  const data: Prisma.ProductUncheckedUpdateInput = {};
  let gatewaySecret: string | null = null;
  if (input.api !== undefined && input.api !== null) {
    if (effective.type !== "API")
      throw invalidField("api", "Only a product of type 'API' has an 'api' block.", "Set type to 'API' or omit 'api'.");
    await checkUpstream("api.upstreamUrl", input.api.upstreamUrl);
    await checkUpstream("api.sandboxUpstreamUrl", input.api.sandboxUpstreamUrl);
    const block: StoredApiBlock = {
      upstreamUrl: input.api.upstreamUrl,
      sandboxUpstreamUrl: input.api.sandboxUpstreamUrl ?? null,
      timeoutMs: input.api.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      openapiUrl: input.api.openapiUrl ?? null,
      openapiDocument: input.api.openapiDocument ?? null,
    };
    if (JSON.stringify(block.openapiDocument ?? null).length > MAX_DOCUMENT_BYTES)
      throw invalidField("api.openapiDocument", "The OpenAPI document is larger than 1 MB; serve it and give openapiUrl instead.");
    if (block.openapiDocument) {
      const reason = openApiProblem(block.openapiDocument);
      if (reason) throw invalidField("api.openapiDocument", reason);
    } else if (block.openapiUrl) {
      // Fetched now, once: the tools and the reference read this copy, never the provider's host on a call.
      Object.assign(block, fetchedCopy(await fetchOpenApiDocument(block.openapiUrl)));
    }
    // Settings not given are kept, as secret headers are; given ones must fit the document.
    const currentApi = current?.api as StoredApiBlock | null | undefined;
    const mcp = input.api.mcp ?? currentApi?.mcp;
    if (input.api.mcp) checkMcpSettings(input.api.mcp, storedOpenApiDocument(block));
    if (mcp) block.mcp = mcp;
    data.api = block as unknown as Prisma.InputJsonValue;
    if (input.api.secretHeaders !== undefined) data.apiSecretHeaders = sealSecretHeaders(productId, input.api.secretHeaders);
  } else if (input.api === null) {
    data.api = null as unknown as Prisma.InputJsonValue;
    data.apiSecretHeaders = null;
  }
  if (input.slug !== undefined) {
    const taken = await db.product.findUnique({ where: { slug: input.slug }, select: { id: true } });
    if (taken && taken.id !== productId) throw slugTaken(input.slug);
    data.slug = input.slug;
  }
  const visibility = input.visibility ?? current?.visibility ?? "private";
  if (input.visibility !== undefined) data.visibility = input.visibility;
  if (visibility === "public") {
    if (!effective.isActive)
      throw invalidField(
        "visibility",
        "An inactive product cannot be public.",
        "Activate the product (POST /v1/products/{id}/activate) first.",
      );
    const activePrice = current ? await db.price.findFirst({ where: { productId, isActive: true }, select: { id: true } }) : null;
    if (!activePrice)
      throw invalidField(
        "visibility",
        "A public product needs at least one active price for subscribers to choose.",
        "Create a price (POST /v1/products/{id}/prices), then set visibility to 'public'.",
      );
    if (!current?.slug && input.slug === undefined) data.slug = await freeSlug(effective.name, productId);
    if (!current?.publishedAt) data.publishedAt = now();
    // The gateway's signing secret, made on first publishing and shown in that answer only.
    if (!current?.gatewaySecret) {
      gatewaySecret = newGatewaySecret();
      data.gatewaySecret = sealGatewaySecret(productId, gatewaySecret);
    }
  }
  return { data, gatewaySecret };
}

export const slugTaken = (slug: string) =>
  new ApiError({
    status: 409,
    type: "conflict_error",
    code: "ALREADY_EXISTS",
    field: "slug",
    message: `The slug '${slug}' is taken by another product.`,
    suggestion: "Choose another slug.",
  });
