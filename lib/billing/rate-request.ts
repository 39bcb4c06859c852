import { db } from "@/lib/db/client";
import { announce, cacheTtl, listenLocally, onBusReconnect, subscribe } from "@/lib/redis/bus";
import { BILLING_CHANGED } from "@/lib/redis/topics";
import { processSingleton } from "@/lib/process-state";
import { NativeDate } from "@/lib/native-date";
import { limiterStore } from "@/lib/limits/limiter";
import { andThen, type MaybePromise } from "@/lib/limits/store";
import { compilePrice, cumulativeCost, eventQuantity, type PricePlan, type UsageAmounts } from "./price-plan";
import { newRatingState, quantityOf, rateEvent, type RatingState } from "./rate-events";
import { addInterval } from "./periods";
import { measuredMetrics, periodQuantities } from "./period-usage";
import { nanosToDecimal, toNanos } from "./money";
import { ledgerNetNanos } from "./credit-sums";
import type { StoredAutoRecharge, StoredSpendCap } from "./subscription-serialize";

// A project's current subscriptions, their compiled prices and the period's running totals, in memory: what a
// product call (gateway, key verification, meter event) is entitled to and what it costs, without a database
// query on the call's path. A subscription write invalidates its project's entry at once in this process and,
// through the bus (lib/redis/bus.ts), in the others; an entry no change announced is refreshed after
// BILLING_CACHE_TTL_MS (default 30 s), in the background while the process goes on with what it has.
//
// The running totals start from the period's usage events when a process first rates a subscription and then
// count this process's calls. With several processes each counts its own, so the cost a response shows can
// differ from the invoice around an allowance or tier boundary; the invoice rates the period's events in
// (timestamp, id) order, which is what its CSV shows, and with one process the two agree.

const TTL_MS = Number(process.env.BILLING_CACHE_TTL_MS ?? 30_000);

/** One current subscription as product calls meet it. */
export interface SubscriptionEntry {
  subscriptionId: string;
  businessId: string;
  projectId: string;
  environment: string;
  productId: string;
  providerId: string;
  priceId: string;
  status: string;
  /** The open invoice that made the subscription unpaid (every retry failed): what its refusals name. */
  unpaidInvoice: { id: string; number: string; amountDue: number; currency: string } | null;
  cancelAtPeriodEnd: boolean;
  plan: PricePlan;
  rateLimit: { limit: number; windowSeconds: number } | null;
  monthlyQuota: number | null;
  billFailedCalls: boolean;
  /** What the plan's limits do while Redis is failing (lib/limits/limiter.ts). */
  limiterOutage: "open" | "closed";
  /** Prepaid: each call is paid from credits, reserved before it runs (lib/billing/spend-guard.ts). */
  prepaid: boolean;
  /** What a prepaid call reserves when its cost is known only from its answer (nanos; null: rate it up front). */
  maxCostPerCallNanos: bigint | null;
  /** The signed sum of the ledger's entries but burns (purchases, grants, expiries, invoices…), in nanos. */
  creditNetNanos: bigint;
  /** The consumer's monthly cap, in nanos, and what reaching it does. */
  spendCap: { amountNanos: bigint; action: "block" | "notify"; thresholds: number[] } | null;
  autoRecharge: { belowNanos: bigint; amountNanos: bigint; monthlyLimitNanos: bigint } | null;
  periodStart: number;
  periodEnd: number;
  /** Running totals of the period (null until the first call is rated in this process). */
  state: RatingState | null;
  /** Units counted in the period so far (what the monthly quota is measured against). */
  calls: number;
}

export interface ProjectEntry {
  loadedAt: number;
  /** When the read this entry holds began (NativeDate ms): it holds every change committed before then. */
  readAt: number;
  invalid: boolean;
  byProduct: Map<string, SubscriptionEntry>;
}

const S = processSingleton("billing-rate-cache", () => new Map<string, ProjectEntry>());
const listener = processSingleton("billing-invalidation", () => ({ listening: false }));

function invalidateLocally(key: string): void {
  if (key === "*") {
    for (const e of S.values()) e.invalid = true;
    return;
  }
  const e = S.get(key);
  if (e) e.invalid = true;
}

/** A subscription of the project changed: its entitlements and running totals are read again. */
export function invalidateBillingCache(projectId: string, environment: string): void {
  announce(BILLING_CHANGED, `${projectId}|${environment}`);
}

function listenForBillingChanges(): void {
  if (listener.listening) return;
  listener.listening = true;
  subscribe(BILLING_CHANGED, invalidateLocally);
  listenLocally(BILLING_CHANGED, invalidateLocally);
  // Changes published while the bus was down were missed: everything is read again (the running totals are kept).
  onBusReconnect(() => invalidateLocally("*"));
}

async function load(key: string, projectId: string, environment: string, readAt: number): Promise<ProjectEntry> {
  const previous = S.get(key);
  // Current subscriptions first, then the latest ended one of each product (a canceled subscription answers
  // differently from none).
  const all = await db.subscription.findMany({ where: { projectId, environment }, orderBy: [{ status: "asc" }, { createdAt: "desc" }] });
  const subs: typeof all = [];
  const seen = new Set<string>();
  for (const s of [...all.filter((x) => x.status !== "canceled"), ...all.filter((x) => x.status === "canceled")]) {
    if (seen.has(s.productId)) continue;
    seen.add(s.productId);
    subs.push(s);
  }
  const prices = subs.length ? await db.price.findMany({ where: { id: { in: subs.map((s) => s.priceId) } } }) : [];
  const credits = await ledgerNetNanos(subs.map((s) => s.id));
  const unpaid = await unpaidInvoices(subs.filter((s) => s.status === "unpaid").map((s) => s.id));
  const priceById = new Map(prices.map((p) => [p.id, p]));
  const byProduct = new Map<string, SubscriptionEntry>();
  for (const sub of subs) {
    const price = priceById.get(sub.priceId);
    if (!price) continue;
    const before = previous?.byProduct.get(sub.productId);
    const same =
      before && before.subscriptionId === sub.id && before.priceId === price.id && before.periodStart === sub.currentPeriodStart.getTime();
    byProduct.set(sub.productId, {
      subscriptionId: sub.id,
      businessId: sub.businessId,
      projectId,
      environment,
      productId: sub.productId,
      providerId: sub.providerId,
      priceId: price.id,
      status: sub.status,
      unpaidInvoice: unpaid.get(sub.id) ?? null,
      cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
      plan: compilePrice(price),
      rateLimit: (price.rateLimit as SubscriptionEntry["rateLimit"]) ?? null,
      monthlyQuota: price.monthlyQuota,
      billFailedCalls: price.billFailedCalls,
      limiterOutage: price.onLimiterOutage === "closed" ? "closed" : "open",
      prepaid: price.billing === "prepaid",
      maxCostPerCallNanos: price.maxCostPerCall === null ? null : toNanos(price.maxCostPerCall),
      creditNetNanos: credits.get(sub.id) ?? 0n,
      spendCap: spendCapOf(sub.spendCap as StoredSpendCap | null),
      autoRecharge: autoRechargeOf(sub.autoRecharge as StoredAutoRecharge | null),
      periodStart: sub.currentPeriodStart.getTime(),
      periodEnd: sub.currentPeriodEnd.getTime(),
      state: same ? before.state : null,
      calls: same ? before.calls : 0,
    });
  }
  const entry: ProjectEntry = { loadedAt: NativeDate.now(), readAt, invalid: false, byProduct };
  S.set(key, entry);
  return entry;
}

/** The oldest open invoice of each unpaid subscription. */
async function unpaidInvoices(subscriptionIds: string[]): Promise<Map<string, NonNullable<SubscriptionEntry["unpaidInvoice"]>>> {
  const byId = new Map<string, NonNullable<SubscriptionEntry["unpaidInvoice"]>>();
  if (!subscriptionIds.length) return byId;
  const open = await db.invoice.findMany({
    where: { subscriptionId: { in: subscriptionIds }, status: "open" },
    orderBy: { periodStart: "asc" },
    select: { id: true, number: true, subscriptionId: true, total: true, amountPaid: true, currency: true },
  });
  for (const inv of open) {
    if (!byId.has(inv.subscriptionId))
      byId.set(inv.subscriptionId, { id: inv.id, number: inv.number, amountDue: inv.total - inv.amountPaid, currency: inv.currency });
  }
  return byId;
}

const decimalNanos = (d: string) => toNanos(Number(d));

function spendCapOf(cap: StoredSpendCap | null): SubscriptionEntry["spendCap"] {
  if (!cap) return null;
  return { amountNanos: decimalNanos(cap.amount), action: cap.action, thresholds: cap.thresholds };
}

function autoRechargeOf(a: StoredAutoRecharge | null): SubscriptionEntry["autoRecharge"] {
  if (!a) return null;
  return { belowNanos: decimalNanos(a.below), amountNanos: decimalNanos(a.amount), monthlyLimitNanos: decimalNanos(a.monthlyLimit) };
}

// One read at a time per project: the one in flight (and when it began), and at most one queued behind it for
// the callers that need a read begun after they arrived, however many they are.
const pending = processSingleton("billing-rate-loading", () => new Map<string, { startedAt: number; promise: Promise<ProjectEntry> }>());
const queued = processSingleton("billing-rate-queued", () => new Map<string, { since: number; promise: Promise<ProjectEntry> }>());

function reading(key: string, projectId: string, environment: string, since: number): Promise<ProjectEntry> {
  const inFlight = pending.get(key);
  if (inFlight && inFlight.startedAt >= since) return inFlight.promise;
  if (inFlight) {
    const next = queued.get(key);
    if (next) {
      next.since = Math.max(next.since, since);
      return next.promise;
    }
    const waiting = { since };
    const promise = inFlight.promise
      .catch(() => undefined)
      .then(() => {
        queued.delete(key);
        return reading(key, projectId, environment, waiting.since);
      });
    queued.set(key, Object.assign(waiting, { promise }));
    return promise;
  }
  const startedAt = NativeDate.now();
  const promise = load(key, projectId, environment, startedAt).finally(() => pending.delete(key));
  pending.set(key, { startedAt, promise });
  return promise;
}

/** The project's current subscriptions by product: from memory when cached (a plain value), else a load. */
export function currentSubscriptions(projectId: string, environment: string): ProjectEntry | Promise<ProjectEntry> {
  listenForBillingChanges();
  const key = `${projectId}|${environment}`;
  const e = S.get(key);
  if (!e || e.invalid) return reading(key, projectId, environment, -Infinity);
  if (NativeDate.now() - e.loadedAt > cacheTtl(TTL_MS))
    void reading(key, projectId, environment, -Infinity).catch((err) => console.error("[billing] refreshing the rating cache failed", err));
  return e;
}

/**
 * The project's subscriptions as read from the database at or after `since` (NativeDate ms). A refusal is
 * confirmed with it: a subscription made or paid on another node a moment ago is served at once, not after the
 * bus has carried the news, while an allowance keeps coming from memory.
 */
export function subscriptionsReadSince(projectId: string, environment: string, since: number): ProjectEntry | Promise<ProjectEntry> {
  listenForBillingChanges();
  const key = `${projectId}|${environment}`;
  const e = S.get(key);
  if (e && !e.invalid && e.readAt >= since) return e;
  return reading(key, projectId, environment, since);
}

/** The running totals of the subscription's period, read from its usage events once per process. */
async function ratingState(sub: SubscriptionEntry): Promise<RatingState> {
  if (sub.state) return sub.state;
  const q = await periodQuantities(
    { subscriptionId: sub.subscriptionId, start: new Date(sub.periodStart), end: new Date(sub.periodEnd) },
    { metrics: measuredMetrics(sub.plan) },
  );
  if (!sub.state) {
    sub.state = newRatingState(sub.plan, q);
    sub.calls = q.requests;
  }
  return sub.state;
}

/** Units of the quota left in the running period (null: the plan has no quota). */
export function quotaRemaining(sub: SubscriptionEntry, at: number): number | null {
  if (sub.monthlyQuota === null) return null;
  const used = at >= sub.periodEnd ? 0 : sub.calls;
  return Math.max(0, sub.monthlyQuota - used);
}

/** Makes sure the running totals are loaded (the quota check needs `calls`). */
export async function primeSubscription(sub: SubscriptionEntry): Promise<void> {
  await ratingState(sub);
}

export interface RequestCost {
  nanos: bigint;
  currency: string;
  /** The cost as a decimal string in the major unit ("0.0015"): made when first read. */
  readonly decimal: string;
}

export function costOf(nanos: bigint, currency: string): RequestCost {
  let decimal: string | undefined;
  return {
    nanos,
    currency,
    get decimal() {
      return (decimal ??= nanosToDecimal(nanos));
    },
  };
}

type CallUsage = {
  at: Date;
  statusCode: number;
  bytes: number;
  computeMs: number;
  quantity?: number;
  /** Measured from the call's request or answer (metric name → units). */
  quantities?: Record<string, number> | null;
};

/**
 * Rates a product call under its subscription: null when it is not rated (it failed and the price does not bill
 * failed calls, or it falls outside the subscription's periods). `at` decides the period; a call after the
 * period's end starts the next period's totals before the job has renewed it. A plain value once the
 * subscription's running totals are in memory (every call but a process's first of a period) and kept in this
 * process (no Redis; with Redis the shared counters answer in a round trip).
 */
export function rateProductCall(sub: SubscriptionEntry, r: CallUsage): RequestCost | null | Promise<RequestCost | null> {
  if (!sub.state) return ratingState(sub).then(() => rateLoaded(sub, r));
  return rateLoaded(sub, r);
}

function rateLoaded(sub: SubscriptionEntry, r: CallUsage): MaybePromise<RequestCost | null> {
  const failed = r.statusCode >= 500 && sub.billFailedCalls;
  if (r.statusCode >= 400 && !failed) return null;
  let state = sub.state!;
  const t = r.at.getTime();
  // Before the subscription began: in no period of it, like its invoice.
  if (t < sub.periodStart) return null;
  if (t >= sub.periodEnd) {
    if (sub.cancelAtPeriodEnd) return null;
    while (t >= sub.periodEnd) {
      sub.periodStart = sub.periodEnd;
      sub.periodEnd = addInterval(new Date(sub.periodEnd), sub.plan.interval, 1).getTime();
    }
    state = sub.state = newRatingState(sub.plan);
    sub.calls = 0;
  }
  const quantity = r.quantity ?? 1;
  sub.calls += quantity;
  const usage = { bytes: r.bytes, computeMs: Math.round(r.computeMs * 100) / 100, quantity, quantities: r.quantities };
  const store = limiterStore();
  if (store.kind === "memory") return costOf(rateEvent(state, usage), sub.plan.currency);
  return andThen(rateShared(sub, usage), (nanos) => costOf(nanos, sub.plan.currency));
}

/**
 * With Redis, the period's running totals are counters in the limiter's store, one per usage component, shared by
 * every process (the data plane's workers, other servers): a call's cost is what its units add to the cumulative
 * cost at the counter's new total, so an included quantity or a tier boundary is crossed by exactly one call
 * wherever it lands. Seeded once from the period's recorded usage, as the plan's quota counter is.
 */
function rateShared(sub: SubscriptionEntry, usage: UsageAmounts): MaybePromise<bigint> {
  const store = limiterStore();
  const prefix = process.env.REDIS_PREFIX ?? "platform:";
  const ttl = Math.max(60_000, sub.periodEnd - NativeDate.now() + 86_400_000);
  let total: MaybePromise<bigint> = 0n;
  sub.plan.usage.forEach((c, i) => {
    const q = eventQuantity(c, usage);
    if (q === 0) return;
    const key = `${prefix}rating:${sub.subscriptionId}:${sub.periodStart}:${i}`;
    const seed = async () =>
      quantityOf(
        c,
        await periodQuantities(
          { subscriptionId: sub.subscriptionId, start: new Date(sub.periodStart), end: new Date(sub.periodEnd) },
          { metrics: measuredMetrics(sub.plan) },
        ),
      );
    total = andThen(total, (sum) =>
      andThen(store.incrementCounter(key, q, seed, ttl), (after) => sum + cumulativeCost(c, after) - cumulativeCost(c, after - q)),
    );
  });
  return total;
}
