import type { z } from "zod";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidField, notFound } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { currentCommitHook } from "@/lib/db/commit-hook";
import { emitEvent, withEvents, type Tx } from "@/lib/events/emit-event";
import { limiterStore } from "@/lib/limits/limiter";
import type { CreditEntry as CreditEntryRow, Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import type { CreditGrantCreate, CreditPurchase } from "@/lib/schemas/credits";
import { decimalToNanos, minorExponent, nanosToDecimal, toNanos } from "./money";
import { cardDeclined, paymentProvider, type StoredPaymentMethod } from "./payment-provider";
import { chargeParties } from "./payment-parties";
import { invalidateBillingCache } from "./rate-request";
import { ledgerNetNanos, usageCostNanos } from "./credit-sums";
import { allocateLots, lotBoundaries, type Debit, type Lot } from "./credit-lots";
import { creditsKeyOf } from "./credit-keys";
import { serializeSubscription, type StoredAutoRecharge } from "./subscription-serialize";

// Prepaid credits (issue 39): money a consumer holds with one provider, per subscription, in the price's currency.
// The ledger is CreditEntry rows (purchases, grants, expiries, credits applied to invoices, auto top-ups) plus the
// burns, which are the usage events of calls paid by credits: balance = Σ entries − Σ burns, in nanos, exactly.

const LOT_TYPES = new Set(["purchase", "grant", "auto_recharge", "adjustment", "refund"]);
const CURRENT = CURRENT_SUBSCRIPTION_STATUSES;

export async function priceOf(sub: SubscriptionRow) {
  const price = await db.price.findUnique({ where: { id: sub.priceId } });
  return { currency: price?.currency ?? "USD", prepaid: price?.billing === "prepaid" };
}

/** The consumer's subscription (its own business), or a 404. */
export async function consumerSubscription(auth: AuthContext, id: string): Promise<SubscriptionRow> {
  const sub = await db.subscription.findFirst({ where: { id, businessId: auth.businessId, environment: auth.environment } });
  if (!sub) throw notFound("subscription", id);
  return sub;
}

/** An amount the currency's card charges can carry: whole minor units (cents). */
function chargeableMinor(amount: number, currency: string, field: string): number {
  const nanos = toNanos(amount);
  const step = 10n ** BigInt(9 - minorExponent(currency));
  if (nanos % step !== 0n)
    throw invalidField(field, `A card is charged in whole ${minorExponent(currency) ? "cents" : "units"} of ${currency}.`);
  return Number(nanos / step);
}

const eventData = (sub: SubscriptionRow, extra: Record<string, unknown>) => ({
  object: "credit_balance_change",
  subscriptionId: sub.id,
  productId: sub.productId,
  projectId: sub.projectId,
  ...extra,
});

/** A billing event to the consumer and, when another business sells the product, to the provider. */
async function emitBothSides(sub: SubscriptionRow, type: string, data: Record<string, unknown>, tx: Tx) {
  const event = { businessId: sub.businessId, environment: sub.environment, type, data };
  await emitEvent(event, tx);
  if (sub.providerId && sub.providerId !== sub.businessId) await emitEvent({ ...event, businessId: sub.providerId }, tx);
}

type CreditSummary = Awaited<ReturnType<typeof creditSummary>>;

/** The summary once a new lot is added: its amount joins the balance and the granted total, all of it remaining
 * (no earlier burn can be charged to a lot made after it). */
export function summaryWithLot(before: CreditSummary, lot: CreditEntryRow): CreditSummary {
  const plus = (a: string) => nanosToDecimal(decimalToNanos(a) + lot.amountNanos);
  const amount = nanosToDecimal(lot.amountNanos);
  return {
    ...before,
    balance: plus(before.balance),
    granted: plus(before.granted),
    grants: [
      ...before.grants,
      {
        id: lot.id,
        type: lot.type as CreditSummary["grants"][number]["type"],
        amount,
        remaining: amount,
        expired: null,
        expiresAt: lot.expiresAt?.toISOString() ?? null,
        note: lot.note,
        createdAt: lot.createdAt.toISOString(),
      },
    ],
  };
}

async function writeEntry(
  sub: SubscriptionRow,
  currency: string,
  entry: Pick<CreditEntryRow, "type" | "amountNanos"> & Partial<CreditEntryRow>,
  event: string | null,
  answerFrom: CreditSummary | null = null,
): Promise<CreditEntryRow> {
  const row = await withEvents(
    async (tx) => {
      const created = await tx.creditEntry.create({
        data: {
          id: newId("creditEntry"),
          subscriptionId: sub.id,
          businessId: sub.businessId,
          providerId: sub.providerId || sub.businessId,
          projectId: sub.projectId,
          environment: sub.environment,
          currency,
          createdAt: now(),
          ...entry,
        },
      });
      if (event)
        await emitBothSides(
          sub,
          event,
          eventData(sub, {
            entryId: created.id,
            type: created.type,
            amount: nanosToDecimal(created.amountNanos),
            currency,
            note: created.note,
          }),
          tx as unknown as Tx,
        );
      return created;
    },
    { answer: (created) => (answerFrom ? summaryWithLot(answerFrom, created) : undefined) },
  );
  // Every process's cached ledger net is read again before this returns (the bus, lib/redis/bus.ts).
  invalidateBillingCache(sub.projectId, sub.environment);
  return row;
}

/** With an Idempotency-Key, the summary before a new lot, from which the write declares its answer (stored with
 * its commit, so a retry after a crash replays it); without one, nothing is read twice. */
async function summaryBeforeIdempotentWrite(sub: SubscriptionRow): Promise<CreditSummary | null> {
  return currentCommitHook() ? creditSummary(sub) : null;
}

async function charge(sub: SubscriptionRow, currency: string, minor: number, method: StoredPaymentMethod, description: string) {
  // A purchase is its own payment: its id is the idempotency key and Stripe's metadata, and the credits are the
  // provider's money (a destination charge to its connected account, less the platform's fee).
  const purchaseId = newId("payment");
  return paymentProvider().charge({
    amount: minor,
    currency,
    paymentMethod: method,
    idempotencyKey: purchaseId,
    description,
    metadata: { purchase_id: purchaseId, subscription_id: sub.id, business_id: sub.businessId, seller_id: sub.providerId ?? "" },
    ...(await chargeParties(sub.providerId, sub.businessId, minor)),
  });
}

/** POST /v1/subscriptions/{id}/credits: the consumer buys credits with its card; a decline grants nothing. */
export async function buyCredits(auth: AuthContext, id: string, input: z.infer<typeof CreditPurchase>) {
  const sub = await consumerSubscription(auth, id);
  if (!CURRENT.includes(sub.status))
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "id",
      message: "The subscription is canceled.",
    });
  const { currency } = await priceOf(sub);
  const minor = chargeableMinor(input.amount, currency, "amount");
  const method = input.paymentMethod
    ? await paymentProvider().attach(input.paymentMethod, "paymentMethod", auth.businessId)
    : (sub.paymentMethod as StoredPaymentMethod | null);
  if (!method)
    throw invalidField("paymentMethod", "The subscription has no card: send paymentMethod.", "Add a card with paymentMethod.card.");
  const before = await summaryBeforeIdempotentWrite(sub);
  const result = await charge(sub, currency, minor, method, `Credits for ${sub.id}`);
  if (result.status === "failed")
    throw cardDeclined(input.paymentMethod ? "paymentMethod.card" : "paymentMethod", {
      code: result.failureCode,
      declineCode: result.failureCode,
      message: result.failureMessage,
    });
  await writeEntry(
    sub,
    currency,
    { type: "purchase", amountNanos: toNanos(input.amount), paymentId: result.providerRef, createdBy: auth.principal.id },
    "billing.credits_added",
    before,
  );
  return creditSummary(sub);
}

/** POST /v1/customers/{id}/credits: the provider gives its customer credits (promotional, support). */
export async function grantCredits(auth: AuthContext, customerId: string, input: z.infer<typeof CreditGrantCreate>) {
  const sub = await db.subscription.findFirst({
    where: { id: input.subscription, businessId: customerId, providerId: auth.businessId, environment: auth.environment },
  });
  if (!sub) throw notFound("subscription", input.subscription);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now().getTime()) throw invalidField("expiresAt", "expiresAt must be in the future.");
  const { currency } = await priceOf(sub);
  await writeEntry(
    sub,
    currency,
    { type: "grant", amountNanos: toNanos(input.amount), expiresAt, note: input.note, createdBy: auth.principal.id },
    "billing.credits_added",
    await summaryBeforeIdempotentWrite(sub),
  );
  return creditSummary(sub);
}

/** The lots (purchases, grants) with what is left of each at `until`, spent oldest-expiring first. */
async function lotStates(sub: SubscriptionRow, entries: CreditEntryRow[], until: number) {
  const lots: Lot[] = entries
    .filter((e) => LOT_TYPES.has(e.type) && e.amountNanos > 0n)
    .map((e) => ({ id: e.id, amount: e.amountNanos, createdAt: e.createdAt.getTime(), expiresAt: e.expiresAt?.getTime() ?? null }));
  const debits: Debit[] = entries
    .filter((e) => e.type !== "expiry" && e.amountNanos < 0n)
    .map((e) => ({ at: e.createdAt.getTime(), amount: -e.amountNanos }));
  // Burns between two instants where the set of live lots changes are one debit at the interval's start.
  const bounds = lotBoundaries(lots, until);
  for (let i = 0; i < bounds.length; i++) {
    const from = new Date(bounds[i]);
    const to = new Date(i + 1 < bounds.length ? bounds[i + 1] : until + 1);
    const burned = await usageCostNanos(sub.id, { credits: true, from, to, flush: false });
    if (burned > 0n) debits.push({ at: bounds[i], amount: burned });
  }
  return allocateLots(lots, debits, until);
}

/** What a counter in the limiter's store holds now; seeded with `seed` (what the calls have recorded) when no
 * process has counted yet, exactly as the first call would seed it. */
async function counterValue(key: string, seed: bigint): Promise<bigint> {
  return BigInt(await limiterStore().incrementCounter(key, 0, async () => Number(seed), 40 * 86_400_000));
}

/** GET /v1/subscriptions/{id}/credits: the balance, what is reserved, the grants and the cap. */
export async function creditSummary(sub: SubscriptionRow) {
  const { currency, prepaid } = await priceOf(sub);
  const burned = await usageCostNanos(sub.id, { credits: true });
  const entries = await db.creditEntry.findMany({ where: { subscriptionId: sub.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const net = (await ledgerNetNanos([sub.id])).get(sub.id) ?? 0n;
  const at = now().getTime();
  const states = new Map((await lotStates(sub, entries, at)).map((s) => [s.id, s]));
  const granted = entries.filter((e) => e.amountNanos > 0n).reduce((a, e) => a + e.amountNanos, 0n);
  const expired = entries.filter((e) => e.type === "expiry").reduce((a, e) => a - e.amountNanos, 0n);
  const used = prepaid ? await counterValue(creditsKeyOf(sub.id), burned) : 0n;
  const periodSpend = await usageCostNanos(sub.id, { from: sub.currentPeriodStart, to: sub.currentPeriodEnd, flush: false });
  const serialized = serializeSubscription(sub);
  return {
    object: "credit_balance" as const,
    subscriptionId: sub.id,
    currency,
    billing: prepaid ? ("prepaid" as const) : ("postpaid" as const),
    balance: nanosToDecimal(net - burned),
    pending: nanosToDecimal(used > burned ? used - burned : 0n),
    granted: nanosToDecimal(granted),
    spent: nanosToDecimal(granted - expired - (net - burned)),
    expired: nanosToDecimal(expired),
    spendCap: serialized.spendCap,
    periodSpend: nanosToDecimal(periodSpend),
    spendAlerts: await crossedThisPeriod(sub.id, sub.currentPeriodStart),
    autoRecharge: serialized.autoRecharge,
    grants: entries
      .filter((e) => states.has(e.id))
      .map((e) => {
        const s = states.get(e.id)!;
        return {
          id: e.id,
          type: e.type as "purchase" | "grant" | "auto_recharge" | "adjustment" | "refund",
          amount: nanosToDecimal(e.amountNanos),
          remaining: nanosToDecimal(s.remaining),
          expired: s.expired === null ? null : nanosToDecimal(s.expired),
          expiresAt: e.expiresAt?.toISOString() ?? null,
          note: e.note,
          createdAt: e.createdAt.toISOString(),
        };
      }),
  };
}

export async function subscriptionCredits(auth: AuthContext, id: string) {
  return creditSummary(await consumerSubscription(auth, id));
}

/** The job: every lot past its expiresAt loses what is left of it, once (an expiry entry per lot). */
export async function expireCredits(): Promise<{ expired: number }> {
  const at = now();
  const due = await db.creditEntry.findMany({ where: { expiresAt: { lte: at }, amountNanos: { gt: 0 } }, take: 500 });
  const done = new Set(
    (await db.creditEntry.findMany({ where: { grantId: { in: due.map((d) => d.id) }, type: "expiry" }, select: { grantId: true } })).map(
      (r) => r.grantId,
    ),
  );
  const bySub = new Map<string, CreditEntryRow[]>();
  for (const d of due) if (!done.has(d.id)) bySub.set(d.subscriptionId, [...(bySub.get(d.subscriptionId) ?? []), d]);
  let expired = 0;
  for (const [subscriptionId, lots] of bySub) {
    const sub = await db.subscription.findUnique({ where: { id: subscriptionId } });
    if (!sub) continue;
    const entries = await db.creditEntry.findMany({ where: { subscriptionId } });
    const states = new Map((await lotStates(sub, entries, at.getTime())).map((s) => [s.id, s]));
    for (const lot of lots) {
      const lapsed = states.get(lot.id)?.expired ?? 0n;
      await db.creditEntry
        .create({
          data: {
            id: newId("creditEntry"),
            subscriptionId,
            businessId: lot.businessId,
            providerId: lot.providerId,
            projectId: lot.projectId,
            environment: lot.environment,
            type: "expiry",
            amountNanos: -lapsed,
            currency: lot.currency,
            grantId: lot.id,
            note: lot.note,
            dedupeKey: `expiry:${lot.id}`,
            createdAt: lot.expiresAt!,
          },
        })
        .catch((e: { code?: string }) => {
          if (e.code !== "P2002") throw e; // another process expired it first
        });
      expired++;
    }
    invalidateBillingCache(sub.projectId, sub.environment);
  }
  return { expired };
}

/** Auto top-up: charges the card for `amount` if this calendar month's top-ups stay within `monthlyLimit`. A
 * failed charge is a billing.auto_recharge_failed event to both sides; the plan's behaviour at zero follows. */
export async function autoRecharge(subscriptionId: string): Promise<"charged" | "failed" | "skipped"> {
  const sub = await db.subscription.findUnique({ where: { id: subscriptionId } });
  const settings = sub?.autoRecharge as StoredAutoRecharge | null | undefined;
  if (!sub || !settings || !CURRENT.includes(sub.status)) return "skipped";
  const { currency } = await priceOf(sub);
  const amount = toNanos(Number(settings.amount));
  const t = now();
  const monthStart = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  const month = await db.creditEntry.aggregate({
    where: { subscriptionId, type: "auto_recharge", createdAt: { gte: monthStart } },
    _sum: { amountNanos: true },
  });
  if ((month._sum.amountNanos ?? 0n) + amount > toNanos(Number(settings.monthlyLimit))) return "skipped";
  const method = sub.paymentMethod as StoredPaymentMethod | null;
  const fail = async (code: string, message: string) => {
    await withEvents((tx) =>
      emitBothSides(
        sub,
        "billing.auto_recharge_failed",
        eventData(sub, { amount: settings.amount, currency, failureCode: code, failureMessage: message }),
        tx as unknown as Tx,
      ),
    );
    return "failed" as const;
  };
  if (!method) return fail("no_payment_method", "The subscription has no card.");
  const minor = Number(amount / 10n ** BigInt(9 - minorExponent(currency)));
  const result = await charge(sub, currency, minor, method, `Auto top-up for ${sub.id}`);
  if (result.status === "failed") return fail(result.failureCode, result.failureMessage);
  await writeEntry(sub, currency, { type: "auto_recharge", amountNanos: amount, paymentId: result.providerRef }, "billing.credits_added");
  return "charged";
}

/** The period's spend thresholds already crossed (the portal's banner). */
export async function crossedThisPeriod(subscriptionId: string, periodStart: Date): Promise<number[]> {
  const rows = await db.spendAlert.findMany({ where: { subscriptionId, periodStart }, orderBy: { threshold: "asc" } });
  return rows.map((r) => r.threshold);
}
