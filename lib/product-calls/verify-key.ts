import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import { entitlementFor } from "@/lib/billing/entitlement";
import { rateProductCall } from "@/lib/billing/rate-request";
import { recordProductUsage } from "@/lib/usage/recorder";
import { holdSpend, paidByCredits, settleSpend, type SpendHold } from "@/lib/billing/spend-guard";
import { consumePlanLimits } from "./plan-limits";
import { providerProduct } from "./provider-product";

// POST /v1/keys/verify: for a provider that serves its API itself (Unkey's verify). The provider sends the key
// its caller presented and the product; the answer says whether the call may go ahead, who the consumer is and
// what its plan leaves. A verification is a call of the product: it counts against the plan's limits, is rated
// by the subscription's price and appears in the consumer's usage.

const names = new Map<string, string>();
async function businessName(id: string): Promise<string> {
  let name = names.get(id);
  if (name === undefined) {
    name = (await db.business.findUnique({ where: { id }, select: { name: true } }))?.name ?? "";
    if (names.size > 10_000) names.clear();
    names.set(id, name);
  }
  return name;
}

export async function verifyKeyForProduct(
  provider: AuthContext,
  input: { key: string; product: string },
  request: { ip: string | null; userAgent: string | null },
) {
  const product = await providerProduct(provider, input.product);
  const at = now();
  const refused = (code: string, extra: Record<string, unknown> = {}) => ({
    valid: false,
    code,
    consumer: null,
    subscription: null,
    price: null,
    environment: null,
    ratelimit: null,
    quota: null,
    ...extra,
  });
  let consumer: AuthContext;
  try {
    consumer = await verifyApiKey(input.key);
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return refused(e.code);
    throw e;
  }
  const consumerRef = { businessId: consumer.businessId, name: await businessName(consumer.businessId) };
  const ent = await entitlementFor(consumer, product.id, at.getTime());
  const base = { consumer: consumerRef, environment: consumer.environment };
  const record = (statusCode: number, errorType: string | null, cost: number | null, subscriptionId: string | null, credits = false) =>
    recordProductUsage({
      at,
      auth: consumer,
      method: "VERIFY",
      endpoint: `/products/${product.id}`,
      path: `/products/${product.slug ?? product.id}`,
      statusCode,
      errorType,
      latencyMs: 0,
      computeMs: 0,
      requestBytes: 0,
      responseBytes: 0,
      ip: request.ip,
      userAgent: request.userAgent,
      cost,
      product: { productId: product.id, subscriptionId, providerId: product.businessId, paidByCredits: credits },
    });
  if (!ent.allowed || !ent.subscription) {
    record(ent.status, ent.code, null, ent.subscription?.subscriptionId ?? null);
    return refused(ent.code, { ...base, subscription: ent.subscription?.subscriptionId ?? null, price: ent.subscription?.priceId ?? null });
  }
  const sub = ent.subscription;
  const limits = await consumePlanLimits(sub, at.getTime());
  const plan = { subscription: sub.subscriptionId, price: sub.priceId, ratelimit: limits.ratelimit, quota: limits.quota };
  if (!limits.allowed) {
    record(429, limits.code, null, sub.subscriptionId);
    return refused(limits.code, { ...base, ...plan, retryAfter: limits.retryAfter });
  }
  let hold: SpendHold | null;
  try {
    hold = await holdSpend(sub);
  } catch (e) {
    // Credits or the spend cap cannot cover the call: refused like a limit, with the body's figures.
    if (!(e instanceof ApiError) || e.status !== 402) throw e;
    record(402, e.code, null, sub.subscriptionId);
    const balance = e.extra?.balance as string | undefined;
    return refused(e.code, { ...base, ...plan, message: e.message, ...(balance !== undefined ? { balance } : {}) });
  }
  const cost = await rateProductCall(sub, { at, statusCode: 200, bytes: 0, computeMs: 0 });
  await settleSpend(hold, cost?.nanos ?? null);
  record(200, null, cost ? Number(cost.decimal) : null, sub.subscriptionId, paidByCredits(hold));
  return {
    valid: true,
    code: "VALID",
    ...base,
    ...plan,
    cost: cost ? { amount: cost.decimal, currency: cost.currency } : null,
  };
}
