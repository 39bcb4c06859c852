import { z } from "zod";
import { CallStatsQuery, CatalogProduct, CatalogProductParams, GatewaySecret, ProductCallStats } from "@/lib/schemas/catalog";
import { productCallStats } from "@/lib/gateway/product-stats";
import { rotateGatewaySecret } from "@/lib/gateway/rotate-gateway-secret";
import { defineRoute } from "@/lib/http/route";
import { IdParams } from "@/lib/schemas/common";
import { Product, ProductCreate, ProductUpdate } from "@/lib/schemas/product";
import { Feature, FeatureCreate, FeatureUpdate } from "@/lib/schemas/feature";
import { Price, PriceCreate, PriceUpdate } from "@/lib/schemas/price";
import { parseCollectionQuery, pickFields, type CollectionQuery } from "@/lib/http/collection-query";
import { CATALOG_COLLECTION, getCatalogProduct, listCatalogProducts } from "./catalog";
import { PRODUCT_COLLECTION } from "./product-collection";
import { listProducts } from "./list-products";
import { getProductOrThrow } from "./get-product-or-throw";
import { createProduct, updateProduct, setProductActive, deleteProduct, refreshOpenApiDocument } from "./write-product";
import { FEATURE_COLLECTION, listFeatures, createFeature, getFeatureOrThrow, updateFeature, deleteFeature } from "./features";
import { PRICE_COLLECTION, listPrices, createPrice, getPriceOrThrow, updatePrice, deletePrice } from "./prices";
import { serializeProduct, serializeFeature, serializePrice } from "./serialize";

const tag = "Products";
const GetQuery = z.strictObject({ fields: z.string().optional(), expand: z.string().optional() });

export const productRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/products",
    summary: "List products",
    tag,
    scope: "products:read",
    collection: PRODUCT_COLLECTION,
    response: { kind: "collection", schema: Product },
    handler: ({ auth, query }) => listProducts(auth, query as CollectionQuery, { asWireJson: true }),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products",
    summary: "Create a product",
    tag,
    scope: "products:write",
    body: ProductCreate,
    response: { kind: "single", status: 201, schema: Product },
    handler: ({ auth, body, baseUrl }) => createProduct(auth, body, { baseUrl }),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/products/{id}",
    summary: "Retrieve a product",
    tag,
    scope: "products:read",
    params: IdParams,
    query: GetQuery,
    response: { kind: "single", status: 200, schema: Product },
    handler: async ({ auth, params, query }) => {
      const { fields, expand } = query as z.infer<typeof GetQuery>;
      // The hot read: nothing to pick or expand.
      if (!fields && !expand) return serializeProduct(await getProductOrThrow(auth, params.id));
      // The same parser as the collection, so `fields` and `expand` mean one thing everywhere.
      const parsed = parseCollectionQuery(
        new URLSearchParams({ ...(fields ? { fields } : {}), ...(expand ? { expand } : {}) }),
        PRODUCT_COLLECTION,
      );
      const product = await getProductOrThrow(auth, params.id, { expandBusiness: parsed.expand.has("business") });
      return pickFields(serializeProduct(product), parsed.fields);
    },
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/products/{id}",
    summary: "Update a product",
    tag,
    scope: "products:write",
    params: IdParams,
    body: ProductUpdate,
    response: { kind: "single", status: 200, schema: Product },
    handler: ({ auth, params, body, baseUrl }) => updateProduct(auth, params.id, body, { baseUrl }),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/products/{id}",
    summary: "Delete a product (and its features and prices)",
    tag,
    scope: "products:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: ({ auth, params }) => deleteProduct(auth, params.id),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/activate",
    summary: "Activate a product (idempotent)",
    tag,
    scope: "products:write",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Product },
    handler: ({ auth, params }) => setProductActive(auth, params.id, true),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/openapi/refresh",
    summary: "Fetch the product's OpenAPI document from its openapiUrl again and store it (its MCP tools follow)",
    tag,
    scope: "products:write",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Product },
    handler: ({ auth, params }) => refreshOpenApiDocument(auth, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/products/{id}/call-stats",
    summary: "Your product's calls over the last day or week: errors, p50/p99 latency, top consumers, circuit state",
    tag,
    scope: "products:read",
    params: IdParams,
    query: CallStatsQuery,
    response: { kind: "single", status: 200, schema: ProductCallStats },
    handler: async ({ auth, params, query }) =>
      productCallStats(await getProductOrThrow(auth, params.id), (query as { period?: "day" | "week" }).period ?? "day"),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/gateway-secret/rotate",
    summary: "Rotate the gateway's signing secret (the old one signs beside it for 24 h); the new one is shown once",
    tag,
    scope: "products:write",
    params: IdParams,
    response: { kind: "single", status: 200, schema: GatewaySecret },
    handler: async ({ auth, params }) => rotateGatewaySecret(await getProductOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/deactivate",
    summary: "Deactivate a product (idempotent)",
    tag,
    scope: "products:write",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Product },
    handler: ({ auth, params }) => setProductActive(auth, params.id, false),
  }),

  defineRoute({
    method: "GET",
    path: "/v1/products/{id}/features",
    summary: "List a product's features",
    tag: "Features",
    scope: "features:read",
    params: IdParams,
    collection: FEATURE_COLLECTION,
    response: { kind: "collection", schema: Feature },
    handler: ({ auth, params, query }) => listFeatures(auth, params.id, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/features",
    summary: "Add a feature to a product",
    tag: "Features",
    scope: "features:write",
    params: IdParams,
    body: FeatureCreate,
    response: { kind: "single", status: 201, schema: Feature },
    handler: ({ auth, params, body }) => createFeature(auth, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/features/{id}",
    summary: "Retrieve a feature",
    tag: "Features",
    scope: "features:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Feature },
    handler: async ({ auth, params }) => serializeFeature(await getFeatureOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/features/{id}",
    summary: "Update a feature",
    tag: "Features",
    scope: "features:write",
    params: IdParams,
    body: FeatureUpdate,
    response: { kind: "single", status: 200, schema: Feature },
    handler: ({ auth, params, body }) => updateFeature(auth, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/features/{id}",
    summary: "Delete a feature",
    tag: "Features",
    scope: "features:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: ({ auth, params }) => deleteFeature(auth, params.id),
  }),

  defineRoute({
    method: "GET",
    path: "/v1/products/{id}/prices",
    summary: "List a product's prices",
    tag: "Prices",
    scope: "prices:read",
    params: IdParams,
    collection: PRICE_COLLECTION,
    response: { kind: "collection", schema: Price },
    handler: ({ auth, params, query }) => listPrices(auth, params.id, query as CollectionQuery),
  }),
  defineRoute({
    method: "POST",
    path: "/v1/products/{id}/prices",
    summary: "Add a price to a product",
    tag: "Prices",
    scope: "prices:write",
    params: IdParams,
    body: PriceCreate,
    response: { kind: "single", status: 201, schema: Price },
    handler: ({ auth, params, body }) => createPrice(auth, params.id, body),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/prices/{id}",
    summary: "Retrieve a price",
    tag: "Prices",
    scope: "prices:read",
    params: IdParams,
    response: { kind: "single", status: 200, schema: Price },
    handler: async ({ auth, params }) => serializePrice(await getPriceOrThrow(auth, params.id)),
  }),
  defineRoute({
    method: "PATCH",
    path: "/v1/prices/{id}",
    summary: "Update a price's name, description or isActive",
    tag: "Prices",
    scope: "prices:write",
    params: IdParams,
    body: PriceUpdate,
    response: { kind: "single", status: 200, schema: Price },
    handler: ({ auth, params, body }) => updatePrice(auth, params.id, body),
  }),
  defineRoute({
    method: "DELETE",
    path: "/v1/prices/{id}",
    summary: "Delete a price",
    tag: "Prices",
    scope: "prices:delete",
    params: IdParams,
    response: { kind: "empty" },
    handler: ({ auth, params }) => deletePrice(auth, params.id),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/catalog/products",
    summary: "The catalogue: every business's public, active products with their features, plans and provider",
    tag: "Catalog",
    // Any valid key: a key limited to calling one product (call:…) may still browse the catalogue.
    collection: CATALOG_COLLECTION,
    response: { kind: "collection", schema: CatalogProduct },
    handler: ({ query }) => listCatalogProducts(query as CollectionQuery),
  }),
  defineRoute({
    method: "GET",
    path: "/v1/catalog/products/{id}",
    summary: "One catalogue product, by id or slug",
    tag: "Catalog",
    params: CatalogProductParams,
    response: { kind: "single", status: 200, schema: CatalogProduct },
    handler: ({ auth, params }) => getCatalogProduct(params.id, auth),
  }),
];
