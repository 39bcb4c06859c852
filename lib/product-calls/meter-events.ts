import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidField } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import { currentSubscriptions, rateProductCall } from "@/lib/billing/rate-request";
import { holdSpend, paidByCredits, settleSpend } from "@/lib/billing/spend-guard";
import { draftCovering, rateLate } from "@/lib/billing/late-usage";
import { recordMeterRollup } from "@/lib/usage/recorder";
import type { MeterEventCreate } from "@/lib/schemas/product-calls";
import { providerProduct } from "./provider-product";

// POST /v1/meter-events: a provider that serves its API itself reports what a subscriber used (Stripe's meter
// events). The event is rated by the subscription's price and lands on the consumer's invoice like a gateway
// call. One event per product and `identifier`: a repeat (a retry after a timeout, say) answers the event
// already recorded and counts nothing twice. Only the subscription's open period can be reported to; an
// invoice already finalised is never changed.

const FUTURE_SKEW_MS = 5 * 60_000;

const noSubscription = (field: string) =>
  new ApiError({
    status: 404,
    type: "not_found_error",
    code: "RESOURCE_NOT_FOUND",
    field,
    message: "No current subscription to this product matches.",
    suggestion: "Name a subscription to one of your products (GET /v1/customers lists them), or a subscriber's key.",
  });

type UsageRow = Awaited<ReturnType<typeof db.usageEvent.findFirstOrThrow>>;

export function serializeMeterEvent(e: UsageRow, currency: string | null) {
  return {
    id: e.id,
    object: "meter_event" as const,
    product: e.productId ?? "",
    subscription: e.subscriptionId ?? "",
    quantity: e.quantity,
    timestamp: e.timestamp.toISOString(),
    identifier: e.identifier ?? "",
    cost: e.cost === null ? null : { amount: String(e.cost), currency: currency ?? "" },
  };
}

async function subscriptionFor(provider: AuthContext, productId: string, input: MeterEventCreate) {
  if (input.subscription) {
    const sub = await db.subscription.findFirst({ where: { id: input.subscription, productId, providerId: provider.businessId } });
    if (!sub) throw noSubscription("subscription");
    return sub;
  }
  let consumer: AuthContext;
  try {
    consumer = await verifyApiKey(input.key!);
  } catch {
    throw invalidField("key", "The key is not a valid, active API key.");
  }
  const sub = await db.subscription.findFirst({
    where: { projectId: consumer.projectId, environment: consumer.environment, productId, status: { in: ["active", "past_due"] } },
  });
  if (!sub) throw noSubscription("key");
  return sub;
}

export async function createMeterEvent(provider: AuthContext, input: MeterEventCreate) {
  const product = await providerProduct(provider, input.product);
  const identifier = input.identifier ?? newId("usage");
  const existing = await db.usageEvent.findUnique({ where: { productId_identifier: { productId: product.id, identifier } } });
  if (existing) return serializeMeterEvent(existing, null);
  const sub = await subscriptionFor(provider, product.id, input);
  if (sub.status === "canceled")
    throw invalidField(input.subscription ? "subscription" : "key", "The subscription is canceled: its periods are closed.");
  const t = now();
  const at = input.timestamp ? new Date(input.timestamp) : t;
  // A closed period whose invoice is still a draft (its grace) takes late usage, rated against that period.
  const late = at < sub.currentPeriodStart ? await draftCovering(sub.id, at) : null;
  if ((at < sub.currentPeriodStart && !late) || at >= sub.currentPeriodEnd || at.getTime() > t.getTime() + FUTURE_SKEW_MS)
    throw invalidField(
      "timestamp",
      `The timestamp is outside the subscription's open period (${sub.currentPeriodStart.toISOString()} to ${sub.currentPeriodEnd.toISOString()}) and any period still in its grace.`,
      "Report usage while its period is open or its invoice a draft (INVOICE_GRACE_HOURS); a finalised invoice is never changed.",
    );
  const cached = await currentSubscriptions(sub.projectId, sub.environment);
  const entry = cached.byProduct.get(product.id);
  const current = entry && entry.subscriptionId === sub.id && !late ? entry : null;
  // Prepaid credits and the spend cap are checked before the event is taken (402 with nothing recorded).
  const hold = current ? await holdSpend(current, input.quantity) : null;
  const cost = late
    ? await rateLate(late, input.quantity)
    : current
      ? await rateProductCall(current, { at, statusCode: 200, bytes: 0, computeMs: 0, quantity: input.quantity })
      : null;
  const consumerAuth = { businessId: sub.businessId, projectId: sub.projectId, environment: sub.environment } as const;
  let row: UsageRow;
  try {
    row = await db.usageEvent.create({
      data: {
        id: newId("usage"),
        timestamp: at,
        ...consumerAuth,
        apiKey: provider.principal.id,
        method: "METER",
        endpoint: `/products/${product.id}/meter-events`,
        path: `/products/${product.slug ?? product.id}/meter-events`,
        statusCode: 200,
        latency: 0,
        requestSize: 0,
        responseSize: 0,
        computeTime: 0,
        cost: cost ? Number(cost.decimal) : null,
        billable: sub.environment === "production",
        productId: product.id,
        subscriptionId: sub.id,
        providerId: product.businessId,
        quantity: input.quantity,
        identifier,
        paidByCredits: paidByCredits(hold),
      },
    });
    await settleSpend(hold, cost?.nanos ?? null);
  } catch (e) {
    await settleSpend(hold, null);
    // The same identifier reported twice at once: the unique index keeps one; answer it.
    if ((e as { code?: string }).code === "P2002") {
      const first = await db.usageEvent.findUnique({ where: { productId_identifier: { productId: product.id, identifier } } });
      if (first) return serializeMeterEvent(first, null);
    }
    throw e;
  }
  recordMeterRollup({
    at,
    auth: {
      ...consumerAuth,
      principal: { kind: "api_key", id: provider.principal.id },
      scopes: [],
      plan: "free",
      rateLimit: null,
      restrictions: null,
    } as unknown as AuthContext,
    method: "METER",
    endpoint: row.endpoint,
    path: row.path,
    statusCode: 200,
    errorType: null,
    latencyMs: 0,
    computeMs: 0,
    requestBytes: 0,
    responseBytes: 0,
    ip: null,
    userAgent: null,
    cost: row.cost,
  });
  return serializeMeterEvent(row, cost?.currency ?? null);
}
