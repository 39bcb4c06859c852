import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { invalidField } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import type { ProductCreate, ProductUpdate } from "@/lib/schemas/product";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import { gatewayProductChanged } from "@/lib/gateway/gateway-product";
import { configuredBaseUrl, ensureDeveloperApp } from "@/lib/apps/default-developer-app";
import type { Prisma } from "@/generated/prisma-sqlite";
import { getProductOrThrow } from "./get-product-or-throw";
import { serializeProduct, type StoredApiBlock } from "./serialize";
import { publishingColumns, slugTaken } from "./publishing";
import { fetchOpenApiDocument, fetchedCopy } from "./openapi-document";

/** `baseUrl`: the origin the caller used, for the gateway address of the default Developer app. */
export interface ProductWriteOptions {
  baseUrl?: string | null;
}

type ProductView = ReturnType<typeof serializeProduct>;

/** The values of `after`'s fields that differ in `before`: an update event's previousAttributes. */
function changed(before: ProductView, after: ProductView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(after) as (keyof ProductView)[]) {
    if (k !== "updatedAt" && JSON.stringify(before[k]) !== JSON.stringify(after[k])) out[k] = before[k];
  }
  return out;
}

const eventOf = (auth: AuthContext, type: string, product: ProductView, previousAttributes?: Record<string, unknown>) => ({
  businessId: auth.businessId,
  environment: auth.environment,
  type,
  data: { object: "product", ...product },
  previousAttributes,
});
import { searchable } from "./product-collection";

// The transaction's result is the request's answer (an Idempotency-Key's record stores it with the commit).
const answered = { answer: <T>(done: T) => done };

const searchText = (name: string, description: string | null | undefined) => searchable(`${name}\n${description ?? ""}`);

export async function createProduct(auth: AuthContext, input: ProductCreate, options: ProductWriteOptions = {}) {
  if (input.business !== undefined && input.business !== auth.businessId) {
    throw invalidField(
      "business",
      "An API key can create products only for its own business.",
      `Omit 'business' or use '${auth.businessId}'.`,
    );
  }
  const t = now();
  const id = newId("product");
  const publishing = await publishingColumns(id, input, null, { name: input.name, type: input.type, isActive: input.isActive ?? true });
  return withEvents(async (tx) => {
    const row = await tx.product.create({
      data: {
        ...(publishing.data as object),
        id,
        ...tenantWhere(auth),
        name: input.name,
        type: input.type,
        description: input.description ?? null,
        isActive: input.isActive ?? true,
        industries: input.industries ?? [],
        productCategories: input.productCategories ?? [],
        interfaces: input.interfaces ?? {},
        searchText: searchText(input.name, input.description),
        createdAt: t,
        updatedAt: t,
      },
    });
    const product = serializeProduct(row);
    await emitEvent(eventOf(auth, "product.created", product), tx);
    if (row.visibility === "public") await ensureDeveloperApp(tx, auth, row, options.baseUrl ?? configuredBaseUrl());
    return withSecretOnce(product, publishing.gatewaySecret);
  }, answered).catch(slugRace);
}

/** Two writes choosing one slug at once: the unique index lets one in. */
function slugRace(e: unknown): never {
  const err = e as { code?: string; meta?: { target?: unknown } };
  if (err.code === "P2002" && JSON.stringify(err.meta?.target ?? "").includes("slug")) throw slugTaken("requested");
  throw e;
}

export async function updateProduct(auth: AuthContext, id: string, patch: ProductUpdate, options: ProductWriteOptions = {}) {
  const current = await getProductOrThrow(auth, id);
  const name = patch.name ?? current.name;
  const description = patch.description === undefined ? current.description : patch.description;
  const { visibility: _v, slug: _s, api: _a, ...plain } = patch;
  const publishing = await publishingColumns(current.id, patch, current, {
    name,
    type: patch.type ?? current.type,
    isActive: patch.isActive ?? current.isActive,
  });
  return withEvents(async (tx) => {
    const row = await tx.product.update({
      where: { id: current.id },
      data: { ...plain, ...(publishing.data as object), searchText: searchText(name, description), updatedAt: now() },
    });
    const before = serializeProduct(current);
    const after = serializeProduct(row);
    await emitEvent(eventOf(auth, "product.updated", after, changed(before, after)), tx);
    // Published now: the product gets its developer portal unless a Developer app already presents it.
    if (row.visibility === "public" && current.visibility !== "public")
      await ensureDeveloperApp(tx, auth, row, options.baseUrl ?? configuredBaseUrl());
    gatewayProductChanged(current.slug);
    if (after.slug !== current.slug) gatewayProductChanged(after.slug);
    return withSecretOnce(after, publishing.gatewaySecret);
  }, answered).catch(slugRace);
}

/** POST /v1/products/{id}/openapi/refresh: the document at openapiUrl fetched again and stored (the MCP tools and the
 * reference change with it); the provider's MCP choices are kept even where they no longer name an operation. */
export async function refreshOpenApiDocument(auth: AuthContext, id: string) {
  const current = await getProductOrThrow(auth, id);
  const api = current.api as StoredApiBlock | null;
  if (!api?.openapiUrl)
    throw invalidField("api.openapiUrl", "The product has no openapiUrl to fetch.", "Set api.openapiUrl (PATCH /v1/products/{id}) first.");
  const block: StoredApiBlock = { ...api, ...fetchedCopy(await fetchOpenApiDocument(api.openapiUrl)) };
  return withEvents(async (tx) => {
    const row = await tx.product.update({
      where: { id: current.id },
      data: { api: block as unknown as Prisma.InputJsonValue, updatedAt: now() },
    });
    const after = serializeProduct(row);
    await emitEvent(eventOf(auth, "product.updated", after, { api: serializeProduct(current).api }), tx);
    gatewayProductChanged(current.slug);
    return after;
  }, answered);
}

/** The answer that first publishes a product carries its gateway secret, shown this once (as a new key is). */
const withSecretOnce = <T extends object>(product: T, gatewaySecret: string | null) =>
  gatewaySecret ? { ...product, gatewaySecret } : product;

/** activate / deactivate: idempotent, a repeat changes nothing. */
export async function setProductActive(auth: AuthContext, id: string, isActive: boolean) {
  const current = await getProductOrThrow(auth, id);
  if (current.isActive === isActive) return serializeProduct(current);
  return withEvents(async (tx) => {
    const after = serializeProduct(await tx.product.update({ where: { id: current.id }, data: { isActive, updatedAt: now() } }));
    gatewayProductChanged(current.slug);
    await emitEvent(eventOf(auth, "product.updated", after, { isActive: current.isActive }), tx);
    return after;
  }, answered);
}

/** Deleting a product removes its features and prices with it (cascade). */
export async function deleteProduct(auth: AuthContext, id: string) {
  const current = await getProductOrThrow(auth, id);
  await withEvents(async (tx) => {
    await tx.product.delete({ where: { id: current.id } });
    gatewayProductChanged(current.slug);
    await emitEvent(eventOf(auth, "product.deleted", serializeProduct(current)), tx);
  });
}
