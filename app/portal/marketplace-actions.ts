"use server";
// The portal's marketplace writes: a provider's products, plans and publishing; a consumer's subscriptions and
// the keys limited to one product. Each form is read with lib/portal/marketplace-forms.ts, then validated with the
// API's own schema and run through the same domain function as the API, as the signed-in user (runAction).
import { headers } from "next/headers";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/zod-errors";
import { ProductCreate, ProductMcpSettings } from "@/lib/schemas/product";
import { PriceCreate } from "@/lib/schemas/price";
import { SubscriptionCreate } from "@/lib/schemas/billing";
import { createProduct, refreshOpenApiDocument, updateProduct } from "@/lib/products/write-product";
import { createPrice } from "@/lib/products/prices";
import { cancelSubscription, createSubscription, getSubscriptionOrThrow } from "@/lib/billing/subscriptions";
import { createProductKey, issueProductTryItKey } from "@/lib/keys/product-keys";
import { currentSubscriptionTo } from "@/lib/billing/current-subscription";
import { getCatalogProduct } from "@/lib/products/catalog";
import { getProductOrThrow } from "@/lib/products/get-product-or-throw";
import { apiUpdateWithMcp, mcpSettingsFromForm, type McpForm } from "@/lib/products/mcp-settings";
import type { StoredApiBlock } from "@/lib/products/serialize";
import { clientIp } from "@/lib/auth/client-ip";
import { runAction } from "@/lib/portal/run-action";
import type { PortalContext } from "@/lib/portal/portal-context";
import { PriceForm, ProductForm, SubscribeForm } from "@/lib/portal/marketplace-forms";
import { MeteredPriceForm } from "@/lib/portal/metered-price-form";

/** A form's own message for its first problem, on the field it is about (never zod's wording of the schema). */
function parseForm<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = formatPath(issue.path) || undefined;
  const message = issue.code === "custom" || issue.message.length < 120 ? issue.message : "Check this field.";
  throw new ApiError({ status: 400, type: "validation_error", code: "INVALID_FIELD", field, message });
}

async function caller(ctx: PortalContext) {
  const h = await headers();
  return { auth: ctx.auth, ip: clientIp(h), userAgent: h.get("user-agent"), actorType: "user" as const };
}

export async function createProductAction(input: unknown) {
  return runAction(
    "products:write",
    async (ctx) => {
      const product = await createProduct(ctx.auth, ProductCreate.parse(parseForm(ProductForm, input)));
      return { id: product.id };
    },
    ["/portal/products"],
  );
}

export async function createPriceAction(productId: string, input: unknown) {
  return runAction(
    "prices:write",
    async (ctx) => {
      // billing (postpaid, the default, or prepaid) is the API's own field, beside what PriceForm reads.
      const { billing, ...form } = (input ?? {}) as { billing?: unknown; kind?: unknown };
      const prepaid = parseForm(z.enum(["postpaid", "prepaid", ""], "Choose postpaid or prepaid."), billing ?? "") === "prepaid";
      // A metered plan (issue 40) has its own form: metrics, each reported or measured from the answer.
      const plan = form.kind === "metered" ? parseForm(MeteredPriceForm, form) : parseForm(PriceForm, form);
      const price = await createPrice(
        ctx.auth,
        String(productId),
        PriceCreate.parse({ ...plan, ...(prepaid ? { billing: "prepaid" } : {}) }),
      );
      return { id: price.id };
    },
    [`/portal/products/${productId}`, "/catalog"],
  );
}

/** Publish (public) or unpublish (private); the API says in words why it refuses, e.g. no active price yet. */
export async function setVisibilityAction(productId: string, visibility: "public" | "private") {
  return runAction(
    "products:write",
    async (ctx) => {
      const product = await updateProduct(ctx.auth, String(productId), { visibility: visibility === "public" ? "public" : "private" });
      return { visibility: product.visibility, slug: product.slug };
    },
    ["/portal/products", `/portal/products/${productId}`, "/catalog"],
  );
}

/**
 * Subscribes the current project to a plan with a card (a test card in test mode), in the environment the portal
 * shows, or in the one the form chose (a product portal's subscribe page offers test, the default, or live).
 */
export async function subscribeAction(input: unknown) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const { environment, ...form } = (input ?? {}) as { environment?: unknown };
      const env =
        environment === undefined ? ctx.auth.environment : parseForm(z.enum(["test", "production"], "Choose test or live."), environment);
      const sub = await createSubscription({ ...ctx.auth, environment: env }, SubscriptionCreate.parse(parseForm(SubscribeForm, form)));
      return { id: sub.id, environment: env };
    },
    ["/portal/subscriptions"],
  );
}

export async function cancelSubscriptionAction(id: string, atPeriodEnd: boolean) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const sub = await cancelSubscription(ctx.auth, String(id), atPeriodEnd === true);
      return { status: sub.status, cancelAtPeriodEnd: sub.cancelAtPeriodEnd };
    },
    ["/portal/subscriptions", `/portal/subscriptions/${id}`],
  );
}

/**
 * A key that may call only the subscription's product (scope `call:<productId>`), shown once; `expiresInDays` as
 * typed (empty: never expires), as a product portal's keys page offers it.
 */
export async function createProductKeyAction(subscriptionId: string, name: unknown, expiresInDays?: unknown) {
  return runAction(
    "api_keys:write",
    async (ctx) => {
      const sub = await getSubscriptionOrThrow(ctx.auth, String(subscriptionId));
      const keyName = parseForm(z.string().trim().min(1, "Name the key.").max(100, "Use at most 100 characters."), name);
      const days = typeof expiresInDays === "string" && expiresInDays.trim() !== "" ? Number(expiresInDays) : expiresInDays;
      const key = await createProductKey(await caller(ctx), sub.productId, {
        name: keyName,
        ...(days === undefined || days === "" || days === null ? {} : { expiresInDays: days }),
      });
      return { id: key.id, name: key.name, key: key.key };
    },
    ["/portal/keys", `/portal/subscriptions/${subscriptionId}`],
  );
}

/**
 * The try-it key of a product's docs (/p/{slug}/docs): a one-hour TEST key limited to the product, for a visitor
 * whose project subscribes to it in test mode, whatever environment the portal shows (never a live key).
 */
export async function issueProductTryItKeyAction(productId: string) {
  return runAction("api_keys:write", async (ctx) => {
    const test = { ...ctx.auth, environment: "test" as const };
    const product = await getCatalogProduct(String(productId), { businessId: ctx.business.id });
    if (!(await currentSubscriptionTo(test, product.id)))
      throw new ApiError({
        status: 403,
        type: "authorization_error",
        code: "PRODUCT_NOT_SUBSCRIBED",
        message: `Subscribe to ${product.name} in test mode to try its API from here.`,
      });
    const key = await issueProductTryItKey(await caller(ctx), product.id, product.name);
    return { key: key.key, expiresAt: key.expiresAt };
  });
}

const McpFormInput = z.object({
  enabled: z.boolean(),
  operations: z
    .array(
      z.object({ operationId: z.string().max(200), tool: z.boolean(), rename: z.string().max(200), description: z.string().max(4000) }),
    )
    .max(500),
});

/**
 * The MCP server card's choices (on/off, which operations are tools, renames) saved as the product's api.mcp through
 * updateProduct with the whole stored api block, as PATCH /v1/products/{id} would: a wrong name or a clash is a
 * refusal naming its field (api.mcp.tools.{operationId}.name).
 */
export async function saveMcpSettingsAction(productId: string, input: McpForm) {
  return runAction(
    "products:write",
    async (ctx) => {
      const current = await getProductOrThrow(ctx.auth, String(productId));
      const api = current.api as StoredApiBlock | null;
      if (!api)
        throw new ApiError({
          status: 400,
          type: "validation_error",
          code: "INVALID_FIELD",
          field: "api",
          message: "Only an API product has an MCP server.",
        });
      const settings = ProductMcpSettings.safeParse(mcpSettingsFromForm(McpFormInput.parse(input)));
      if (!settings.success) {
        const issue = settings.error.issues[0];
        throw new ApiError({
          status: 400,
          type: "validation_error",
          code: "INVALID_FIELD",
          field: `api.mcp.${formatPath(issue.path)}`,
          message: `${formatPath(issue.path.slice(-1))} ${issue.message}`,
        });
      }
      const product = await updateProduct(ctx.auth, current.id, { api: apiUpdateWithMcp(api, settings.data) });
      return { mcp: product.api?.mcp ?? null };
    },
    [`/portal/products/${productId}`],
  );
}

/** "Refresh OpenAPI document": POST /v1/products/{id}/openapi/refresh's domain function (fetches openapiUrl again). */
export async function refreshOpenApiAction(productId: string) {
  return runAction(
    "products:write",
    async (ctx) => {
      const product = await refreshOpenApiDocument(ctx.auth, String(productId));
      return { openapiFetchedAt: product.api?.openapiFetchedAt ?? null };
    },
    [`/portal/products/${productId}`],
  );
}
