import { ApiError, notFound } from "@/lib/http/errors";
import { entitlementFor, type Entitlement } from "@/lib/billing/entitlement";
import { consumePlanLimits, type PlanLimitsResult } from "@/lib/product-calls/plan-limits";
import { gatewayProduct, type GatewayProduct } from "@/lib/gateway/gateway-product";
import { verifyCredential } from "@/lib/auth/verify-credential";
import { extractCredential } from "@/lib/auth/credentials";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import { andThen } from "@/lib/limits/store";
import { assertTokenForProduct } from "@/lib/oauth/resource-binding";
import { holdSpend, quantitiesWithinBudget, settleSpend } from "@/lib/billing/spend-guard";
import type { RequestContext } from "../request-context";
import { markDegraded } from "./rate-limit";

// The gateway's own steps (lib/server/gateway-front-door.ts runs them between the shared ones): the credential
// (Authorization: Bearer or X-API-Key), the product by slug, the caller's entitlement to it and the plan's limits.

// Each step answers at once when its cache knows the answer (the usual case): only a miss makes a promise.

/**
 * Gateway step: the credential, from `Authorization: Bearer sk_…` or `X-API-Key: sk_…`. An access token bound to a
 * product's MCP server (RFC 8707) calls that product only.
 */
export function authenticateGatewayCall(ctx: RequestContext): void | Promise<void> {
  listenForKeyChanges();
  const apiKeyHeader = ctx.request.headers.get("x-api-key");
  const credential =
    apiKeyHeader && ctx.request.headers.get("authorization") === null
      ? apiKeyHeader.trim()
      : extractCredential(ctx.request.headers, new URLSearchParams());
  return andThen(verifyCredential(credential), (auth) => {
    assertTokenForProduct(auth, ctx.rawParams.slug);
    ctx.auth = auth;
  });
}

/** Gateway step: the public API product the slug names; anything else is a 404 like an unknown product. */
export function resolveGatewayProduct(ctx: RequestContext): void | Promise<void> {
  const slug = ctx.rawParams.slug;
  const found = gatewayProduct(slug);
  return andThen(found, (product) => setProduct(ctx, slug, product));
}

function setProduct(ctx: RequestContext, slug: string, product: GatewayProduct | null): void {
  if (!product) throw notFound("product", slug);
  ctx.gatewayProduct = product;
}

/** Gateway step: an active subscription of the key's project to this product, and a key allowed to call it. */
export function checkEntitlement(ctx: RequestContext): void | Promise<void> {
  const product = ctx.gatewayProduct!;
  const found = entitlementFor(ctx.auth!, product.id, ctx.at.getTime());
  return andThen(found, (ent) => applyEntitlement(ctx, ent));
}

function applyEntitlement(ctx: RequestContext, ent: Entitlement): void {
  ctx.subscription = ent.subscription;
  if (ent.allowed) return;
  if (ent.code === "QUOTA_EXCEEDED") throw quotaExceeded(ent.subscription!.monthlyQuota!, ent.subscription!.periodEnd, ctx.at.getTime());
  throw new ApiError({
    status: ent.status,
    type: "authorization_error",
    code: ent.code,
    message: ent.message,
    suggestion:
      ent.code === "PRODUCT_NOT_SUBSCRIBED"
        ? "Subscribe to the product in the catalogue (/catalog), then call it again."
        : ent.unpaid
          ? `Pay the invoice with another card at ${ctx.request.baseUrl}${ent.unpaid.payUrl} (or PATCH the subscription's paymentMethod).`
          : undefined,
    extra: ent.unpaid ? { ...ent.unpaid, payUrl: `${ctx.request.baseUrl}${ent.unpaid.payUrl}` } : undefined,
  });
}

function planHeaders(limits: PlanLimitsResult, atMs: number): Record<string, string> {
  const headers: Record<string, string> = {};
  const rl = limits.ratelimit;
  if (rl) {
    const t = Math.max(0, rl.reset - Math.floor(atMs / 1000));
    headers["X-RateLimit-Limit"] = String(rl.limit);
    headers["X-RateLimit-Remaining"] = String(rl.remaining);
    headers["X-RateLimit-Reset"] = String(rl.reset);
    headers["X-RateLimit-Window"] = String(rl.windowSeconds);
    headers["RateLimit-Policy"] = `"plan";q=${rl.limit};w=${rl.windowSeconds}`;
    headers.RateLimit = `"plan";r=${rl.remaining};t=${t}`;
  }
  return headers;
}

const quotaExceeded = (limit: number, periodEnd: number, atMs: number) => {
  const retryAfter = Math.max(1, Math.ceil((periodEnd - atMs) / 1000));
  return new ApiError({
    status: 429,
    type: "rate_limit_error",
    code: "QUOTA_EXCEEDED",
    message: `The plan's ${limit} calls for this period are used up.`,
    suggestion: "Change to a larger plan, or wait until the period renews.",
    extra: { retryAfter, limit, period: "month", resets: new Date(periodEnd).toISOString() },
    headers: { "Retry-After": String(retryAfter) },
  });
};

/** Gateway step: the plan's rate limit and monthly quota (exact across processes with Redis). */
export function checkPlanLimits(ctx: RequestContext): void | Promise<void> {
  return andThen(consumePlanLimits(ctx.subscription!, ctx.at.getTime()), (limits) => applyPlanLimits(ctx, limits));
}

function applyPlanLimits(ctx: RequestContext, limits: PlanLimitsResult): void {
  const sub = ctx.subscription!;
  const at = ctx.at.getTime();
  Object.assign(ctx.headers, planHeaders(limits, at));
  markDegraded(ctx);
  if (limits.allowed) return;
  if (limits.code === "QUOTA_EXCEEDED") throw quotaExceeded(sub.monthlyQuota!, sub.periodEnd, at);
  const rl = limits.ratelimit!;
  throw new ApiError({
    status: 429,
    type: "rate_limit_error",
    code: "RATE_LIMIT_EXCEEDED",
    message: `The plan allows ${rl.limit} calls per ${rl.windowSeconds} seconds.`,
    suggestion: `Retry after ${limits.retryAfter} seconds.`,
    extra: { retryAfter: limits.retryAfter, limit: rl.limit, window: rl.windowSeconds, policy: "plan" },
    headers: { "Retry-After": String(limits.retryAfter) },
  });
}

/** Gateway step: what the call may cost, reserved against prepaid credits and the spend cap (402 when they cannot
 * cover it, before anything runs). Settled with the call's rated cost (settleCallSpend). */
export function holdCallSpend(ctx: RequestContext): void | Promise<void> {
  return andThen(holdSpend(ctx.subscription!), (hold) => {
    ctx.spendHold = hold;
  });
}

/** The call's final cost against its reservation (null: not rated, the reservation is given back). Off the answer's
 * path: with Redis it is a round trip nobody waits for. */
export function settleCallSpend(ctx: RequestContext, nanos: bigint | null): void {
  const settled = settleSpend(ctx.spendHold, nanos);
  if (settled instanceof Promise) settled.catch((e) => console.error("[billing] settling a call's spend failed", e));
}

/** An answer measured only once whole (JSON on /gw, any answer on /mcp) may have measured more than the call may
 * spend (its reservation and the balance or cap left): it bills its budget, so credits never go below zero. */
export function measuredWithinBudget(ctx: RequestContext, quantities: Record<string, number> | null): Record<string, number> | null {
  const budget = ctx.spendHold?.budget ?? null;
  if (!quantities || budget === null) return quantities;
  const within = quantitiesWithinBudget(ctx.subscription!, quantities, budget);
  if (within.clamped)
    console.warn(
      `[${ctx.requestId}] the answer measured ${JSON.stringify(quantities)}, more than the call may spend; billed ${JSON.stringify(within.quantities)}`,
    );
  return within.quantities;
}

/** Outbound: a call that ended before it was rated (refused after its hold, the client gone) gives its hold back. */
export function releaseCallSpend(ctx: RequestContext): void {
  if (ctx.spendHold && !ctx.spendHold.settled) settleCallSpend(ctx, null);
}

export type { GatewayProduct };
