"use server";
// The portal's marketplace writes: a provider's products, plans and publishing; a consumer's subscriptions and
// the keys limited to one product. Each form is read with lib/portal/marketplace-forms.ts, then validated with the
// API's own schema and run through the same domain function as the API, as the signed-in user (runAction).
import { headers } from "next/headers";
import { z } from "zod";
import { ApiError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/zod-errors";
import { ProductCreate } from "@/lib/schemas/product";
import { PriceCreate } from "@/lib/schemas/price";
import { SubscriptionCreate } from "@/lib/schemas/billing";
import { ApiKeyCreate } from "@/lib/schemas/api-key";
import { createProduct, updateProduct } from "@/lib/products/write-product";
import { createPrice } from "@/lib/products/prices";
import { cancelSubscription, createSubscription, getSubscriptionOrThrow } from "@/lib/billing/subscriptions";
import { createKeyForCaller } from "@/lib/keys/manage-api-keys";
import { clientIp } from "@/lib/auth/client-ip";
import { runAction } from "@/lib/portal/run-action";
import type { PortalContext } from "@/lib/portal/portal-context";
import { PriceForm, ProductForm, SubscribeForm } from "@/lib/portal/marketplace-forms";

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
      const price = await createPrice(ctx.auth, String(productId), PriceCreate.parse(parseForm(PriceForm, input)));
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

/** Subscribes the current project and environment to a plan with a card (a test card in test mode). */
export async function subscribeAction(input: unknown) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const sub = await createSubscription(ctx.auth, SubscriptionCreate.parse(parseForm(SubscribeForm, input)));
      return { id: sub.id };
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

/** A key that may call only the subscription's product (scope `call:<productId>`), shown once. */
export async function createProductKeyAction(subscriptionId: string, name: unknown) {
  return runAction(
    "api_keys:write",
    async (ctx) => {
      const sub = await getSubscriptionOrThrow(ctx.auth, String(subscriptionId));
      const keyName = parseForm(z.string().trim().min(1, "Name the key.").max(100, "Use at most 100 characters."), name);
      const key = await createKeyForCaller(await caller(ctx), ApiKeyCreate.parse({ name: keyName, scopes: [`call:${sub.productId}`] }));
      return { name: key.name, key: key.key };
    },
    ["/portal/keys", `/portal/subscriptions/${subscriptionId}`],
  );
}
