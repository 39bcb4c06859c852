import { z } from "zod";
import { Environment, Timestamp, shortText } from "./common";

export const PRODUCT_TYPES = ["SaaS", "API", "Data", "Headless"] as const;
export const ProductType = z.enum(PRODUCT_TYPES).meta({ id: "ProductType" });

export const ProductInterfaces = z
  .strictObject({
    hasAPI: z.boolean().optional(),
    hasRPC: z.boolean().optional(),
    hasMCP: z.boolean().optional(),
    hasSDK: z.boolean().optional(),
    hasCLI: z.boolean().optional(),
  })
  .meta({ id: "ProductInterfaces" });

export const PRODUCT_VISIBILITIES = ["private", "public"] as const;

const httpUrl = z
  .string()
  .max(2048)
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "must be an http or https URL");

// Header names the gateway sets itself or that would break the proxied request.
const RESERVED_HEADER =
  /^(host|connection|content-length|transfer-encoding|upgrade|keep-alive|te|trailer|proxy-.*|x-platform-.*|x-forwarded-.*)$/i;

const operationList = z.array(z.string().min(1).max(200)).max(500);
const toolName = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be 1 to 64 letters, digits, '_', '-' or '.'");

/** The provider's MCP choices (lib/mcp/openapi-tools.ts): which operations are tools, and what they are called. */
export const ProductMcpSettings = z
  .strictObject({
    enabled: z.boolean().optional().meta({ description: "Serve the product as an MCP server at /mcp/{slug} (default true)." }),
    include: z
      .strictObject({ operations: operationList.optional(), tags: operationList.optional() })
      .optional()
      .meta({ description: "Only these operations (by operationId) and tags become tools; all when absent." }),
    exclude: z
      .strictObject({ operations: operationList.optional(), tags: operationList.optional() })
      .optional()
      .meta({ description: "Operations (by operationId) and tags never offered as tools." }),
    tools: z
      .record(z.string().min(1).max(200), z.strictObject({ name: toolName.optional(), description: z.string().max(4000).optional() }))
      .optional()
      .meta({ description: "Per operationId: the tool's name and description instead of the document's." }),
  })
  .meta({ id: "ProductMcpSettings" });

export const ProductApiInput = z
  .strictObject({
    upstreamUrl: httpUrl.meta({ description: "The live API's base URL: live keys' calls go here.", example: "https://api.example.com" }),
    sandboxUpstreamUrl: httpUrl.nullable().optional().meta({ description: "Where test keys' calls go; defaults to upstreamUrl." }),
    timeoutMs: z.number().int().min(100).max(120_000).optional().meta({ description: "Upstream response timeout (default 30,000)." }),
    openapiUrl: httpUrl.nullable().optional().meta({ description: "Where the API's OpenAPI document is served." }),
    openapiDocument: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta({ description: "An uploaded OpenAPI document (JSON), instead of openapiUrl." }),
    secretHeaders: z
      .record(
        z
          .string()
          .regex(/^[A-Za-z0-9-]{1,100}$/, "must be a header name (letters, digits, '-')")
          .refine((h) => !RESERVED_HEADER.test(h), {
            message: "is set by the gateway itself",
          }),
        z.string().max(4096),
      )
      .optional()
      .meta({ description: "Headers the gateway adds upstream (an upstream credential, say). Stored sealed, never returned." }),
    mcp: ProductMcpSettings.optional(),
  })
  .meta({ id: "ProductApiInput" });

export const ProductApi = z
  .object({
    upstreamUrl: z.string(),
    sandboxUpstreamUrl: z.string(),
    timeoutMs: z.number().int(),
    openapiUrl: z.string().nullable(),
    hasOpenapiDocument: z.boolean(),
    secretHeaderNames: z.array(z.string()).meta({ description: "Names of the secret headers; their values are never returned." }),
    openapiFetchedAt: Timestamp.nullable().meta({
      description: "When the document at openapiUrl was last fetched and stored (POST /v1/products/{id}/openapi/refresh fetches it again).",
    }),
    mcp: ProductMcpSettings.extend({ enabled: z.boolean(), path: z.string().nullable() }).meta({
      id: "ProductMcp",
      description: "The MCP server: its path on this deployment (null until the product is public) and the provider's choices.",
    }),
  })
  .meta({ id: "ProductApi" });

const Slug = z
  .string()
  .regex(
    /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/,
    "must be 3 to 63 lower-case letters, digits or '-', starting and ending with a letter or digit",
  );

const labels = z.array(z.string().trim().min(1).max(100)).max(50);

const writable = {
  name: shortText(200),
  type: ProductType,
  description: z.string().max(5000).nullable().optional(),
  isActive: z.boolean().optional(),
  industries: labels.optional(),
  productCategories: labels.optional(),
  interfaces: ProductInterfaces.optional(),
  visibility: z
    .enum(PRODUCT_VISIBILITIES)
    .optional()
    .meta({ description: "public: in every account's catalogue (needs an active product with an active price). Default private." }),
  slug: Slug.optional().meta({ description: "Deployment-wide unique; made from the name when a product is published without one." }),
  api: ProductApiInput.nullable().optional().meta({ description: "Type API only: where the gateway sends the product's calls." }),
};

export const ProductCreate = z
  .strictObject({
    ...writable,
    business: z.string().max(255).optional().meta({ description: "The owning business; defaults to the API key's business." }),
  })
  .meta({ id: "ProductCreate" });

export const ProductUpdate = z
  .strictObject({
    name: writable.name.optional(),
    type: ProductType.optional(),
    description: writable.description,
    isActive: writable.isActive,
    industries: writable.industries,
    productCategories: writable.productCategories,
    interfaces: writable.interfaces,
    visibility: writable.visibility,
    slug: writable.slug,
    api: writable.api,
  })
  .meta({ id: "ProductUpdate" });

export const BusinessRef = z.object({ id: z.string(), name: z.string() }).meta({ id: "BusinessRef" });

export const Product = z
  .object({
    id: z.string().meta({ example: "prod_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    name: z.string(),
    type: ProductType,
    business: z.union([z.string(), BusinessRef]).meta({ description: "The business id, or {id, name} with expand=business." }),
    description: z.string().nullable(),
    isActive: z.boolean(),
    environment: Environment,
    industries: z.array(z.string()),
    productCategories: z.array(z.string()),
    interfaces: ProductInterfaces,
    visibility: z.enum(PRODUCT_VISIBILITIES),
    slug: z.string().nullable(),
    api: ProductApi.nullable(),
    publishedAt: Timestamp.nullable(),
    gatewaySecret: z
      .string()
      .optional()
      .meta({ description: "The gateway's signing secret (gws_…): in the answer that first publishes the product only." }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Product" });

export type ProductCreate = z.infer<typeof ProductCreate>;
export type ProductUpdate = z.infer<typeof ProductUpdate>;
