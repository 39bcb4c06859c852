import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidField } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import { currentSubscriptions, rateProductCall } from "@/lib/billing/rate-request";
import { payPath } from "@/lib/billing/entitlement";
import { holdSpend, paidByCredits, settleSpend } from "@/lib/billing/spend-guard";
import { draftCovering, rateLate } from "@/lib/billing/late-usage";
import { recordMeterRollup } from "@/lib/usage/recorder";
import { withEvents } from "@/lib/events/emit-event";
import type { Prisma } from "@/generated/prisma-sqlite";
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

/** What a meter event (or a correction of one) records in a usage event's request fields: no request of its own. */
export const METER_CALL = { method: "METER", statusCode: 200, latency: 0, requestSize: 0, responseSize: 0, computeTime: 0 } as const;

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

/** The event a product's identifier names, when it was reported before. */
export async function meterEventByIdentifier(productId: string, identifier: string): Promise<UsageRow | null> {
  const key = await db.meterEventIdentifier.findUnique({ where: { productId_identifier: { productId, identifier } } });
  return key ? db.usageEvent.findFirst({ where: { id: key.eventId, timestamp: key.timestamp } }) : null;
}

/**
 * A new meter event and its identifier's row, in the caller's transaction. The identifier's key is what refuses a
 * second event with it (P2002): UsageEvent itself cannot, being partitioned by day on PostgreSQL.
 */
export async function writeMeterEvent(tx: Prisma.TransactionClient, data: Prisma.UsageEventUncheckedCreateInput): Promise<UsageRow> {
  const timestamp = new Date(data.timestamp);
  await tx.meterEventIdentifier.create({ data: { productId: data.productId!, identifier: data.identifier!, eventId: data.id, timestamp } });
  return tx.usageEvent.create({ data: { ...data, timestamp } });
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
    where: { projectId: consumer.projectId, environment: consumer.environment, productId, status: { in: CURRENT_SUBSCRIPTION_STATUSES } },
  });
  if (!sub) throw noSubscription("key");
  return sub;
}

/** 402 SUBSCRIPTION_UNPAID for the provider metering a subscription whose consumer has not paid its invoice. */
async function unpaidError(subscriptionId: string) {
  const inv = await db.invoice.findFirst({ where: { subscriptionId, status: "open" }, orderBy: { periodStart: "asc" } });
  return new ApiError({
    status: 402,
    type: "authorization_error",
    code: "SUBSCRIPTION_UNPAID",
    message: `The subscription is unpaid: every charge of invoice ${inv?.number ?? "(none)"} failed, so its usage is refused until the consumer pays it.`,
    suggestion: "The consumer pays it from the subscription's page in the portal, or by giving the subscription another card.",
    extra: inv
      ? { invoice: inv.id, amountDue: inv.total - inv.amountPaid, currency: inv.currency, payUrl: payPath(subscriptionId) }
      : undefined,
  });
}

/** A meter event checked, held against the budget and rated, ready to be written; or the one already recorded. */
export type PreparedMeterEvent =
  | { kind: "recorded"; row: UsageRow }
  | { kind: "new"; data: Prisma.UsageEventUncheckedCreateInput; hold: SpendHold | null; cost: RatedCost | null; consumer: ConsumerScope };

type SpendHold = Awaited<ReturnType<typeof holdSpend>>;
type RatedCost = Awaited<ReturnType<typeof rateLate>>;
type ConsumerScope = { businessId: string; projectId: string; environment: string };

/** Everything before the write: refusals (400, 404, 402) and the hold on credits or the cap, which `settleMeterEvent`
 * settles once the write has committed or failed. */
export async function prepareMeterEvent(provider: AuthContext, input: MeterEventCreate): Promise<PreparedMeterEvent> {
  const product = await providerProduct(provider, input.product);
  const identifier = input.identifier ?? newId("usage");
  const existing = await meterEventByIdentifier(product.id, identifier);
  if (existing) return { kind: "recorded", row: existing };
  const sub = await subscriptionFor(provider, product.id, input);
  if (sub.status === "canceled")
    throw invalidField(input.subscription ? "subscription" : "key", "The subscription is canceled: its periods are closed.");
  if (sub.status === "unpaid") throw await unpaidError(sub.id);
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
  let cost: RatedCost | null;
  try {
    cost = late
      ? await rateLate(late, input.quantity)
      : current
        ? await rateProductCall(current, { at, statusCode: 200, bytes: 0, computeMs: 0, quantity: input.quantity })
        : null;
  } catch (e) {
    await settleSpend(hold, null);
    throw e;
  }
  const consumer = { businessId: sub.businessId, projectId: sub.projectId, environment: sub.environment };
  const data = {
    id: newId("usage"),
    timestamp: at,
    ...consumer,
    apiKey: provider.principal.id,
    ...METER_CALL,
    endpoint: `/products/${product.id}/meter-events`,
    path: `/products/${product.slug ?? product.id}/meter-events`,
    cost: cost ? Number(cost.decimal) : null,
    billable: sub.environment === "production",
    productId: product.id,
    subscriptionId: sub.id,
    providerId: product.businessId,
    quantity: input.quantity,
    identifier,
    paidByCredits: paidByCredits(hold),
  };
  return { kind: "new", data, hold, cost, consumer };
}

/** The answer for a prepared event once written (or found written). */
export function preparedView(prepared: PreparedMeterEvent, row: UsageRow) {
  return serializeMeterEvent(row, prepared.kind === "new" ? (prepared.cost?.currency ?? null) : null);
}

/** After the write: the hold settled by what was written (or released), and the rollup counted. */
export async function settleMeterEvent(prepared: PreparedMeterEvent, row: UsageRow | null) {
  if (prepared.kind !== "new") return;
  await settleSpend(prepared.hold, row ? (prepared.cost?.nanos ?? null) : null);
  if (!row) return;
  recordMeterRollup({
    at: row.timestamp,
    auth: {
      ...prepared.consumer,
      principal: { kind: "api_key", id: row.apiKey },
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
}

const isUniqueRace = (e: unknown) => (e as { code?: string }).code === "P2002";

export async function createMeterEvent(provider: AuthContext, input: MeterEventCreate) {
  const prepared = await prepareMeterEvent(provider, input);
  if (prepared.kind === "recorded") return preparedView(prepared, prepared.row);
  let row: UsageRow;
  try {
    // The transaction declares the request's answer: a retry after a crash replays this event, never a second one.
    row = await withEvents((tx) => writeMeterEvent(tx, prepared.data), { answer: (r) => preparedView(prepared, r) });
  } catch (e) {
    await settleMeterEvent(prepared, null);
    // The same identifier reported twice at once: the identifier's key keeps one; answer it.
    if (isUniqueRace(e)) {
      const first = await meterEventByIdentifier(prepared.data.productId!, prepared.data.identifier!);
      if (first) return serializeMeterEvent(first, null);
    }
    throw e;
  }
  await settleMeterEvent(prepared, row);
  return preparedView(prepared, row);
}
