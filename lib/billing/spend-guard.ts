import { ApiError } from "@/lib/http/errors";
import { NativeDate } from "@/lib/native-date";
import { limiterStore } from "@/lib/limits/limiter";
import { andThen, type MaybePromise } from "@/lib/limits/store";
import { cumulativeCost, eventQuantity } from "./price-plan";
import { nanosToDecimal } from "./money";
import { primeSubscription, type SubscriptionEntry } from "./rate-request";
import { usageCostNanos } from "./credit-sums";
import { afterSpend } from "./spend-alerts";
import { creditsKeyOf, spendKeyOf } from "./credit-keys";

// Money is checked before a product call runs, never after (issue 39). A call reserves what it may cost in two
// counters of the limiter's store (memory on the embedded default; Redis, shared by every process, when present):
//   credit-used:{subscription}         what prepaid calls have burned, all time; the balance is the ledger's net
//                                      (cached with the subscription) minus this
//   spend:{subscription}:{periodStart} what the period's calls cost, for the consumer's spend cap
// Each counter is seeded once from the recorded usage events (every process's queue flushed first) and then moved
// by the calls themselves: +reserve before, +(final − reserve) after. An increment and its check are one atomic
// step of the store, so 500 concurrent calls against a balance that covers 50 serve exactly 50, across processes.
// A call refused later (a limit, the upstream failing unbilled) settles at 0 and gives its reservation back.

export interface SpendHold {
  sub: SubscriptionEntry;
  /** What the call reserved, in nanos (a JS number: exact below 2^53 nanos, 9 million units of a currency). */
  reserved: number;
  creditsKey: string | null;
  capKey: string | null;
  /** The period's spend just before and just after this call's reservation (one atomic step of the store, so the
   * calls' windows tile the line and each threshold is crossed by exactly one call). */
  capWindow: { before: bigint; after: bigint } | null;
  /** The most this call may cost (its reservation and what the balance or cap still allowed when it was taken):
   * a streamed answer measured as it passes is stopped before it goes past this (null: no limit). */
  budget: bigint | null;
  /** Which limit the budget is (the error a stream stopped by it reports). */
  budgetCode: "INSUFFICIENT_CREDITS" | "SPEND_CAP_REACHED" | null;
  settled: boolean;
}

// Long enough to outlive any period; a counter that lapses is seeded again from the recorded events.
const COUNTER_TTL_MS = 40 * 86_400_000;

/** What one call may cost before its answer is known: the price's ceiling, or what its units add at the running
 * totals (0 inside an included allowance). */
export function reserveNanos(sub: SubscriptionEntry, quantity = 1): bigint {
  if (sub.maxCostPerCallNanos !== null) return sub.maxCostPerCallNanos;
  let total = 0n;
  sub.plan.usage.forEach((c, i) => {
    const q = eventQuantity(c, { bytes: 0, computeMs: 0, quantity });
    if (q === 0) return;
    const before = sub.state?.counted[i] ?? 0;
    total += cumulativeCost(c, before + q) - cumulativeCost(c, before);
  });
  return total;
}

const seedBurned = (sub: SubscriptionEntry) => async () => Number(await usageCostNanos(sub.subscriptionId, { credits: true }));
const seedPeriod = (sub: SubscriptionEntry) => async () =>
  Number(await usageCostNanos(sub.subscriptionId, { from: new Date(sub.periodStart), to: new Date(sub.periodEnd) }));

function insufficientCredits(sub: SubscriptionEntry, balance: bigint, required: bigint): ApiError {
  const currency = sub.plan.currency;
  return new ApiError({
    status: 402,
    type: "authorization_error",
    code: "INSUFFICIENT_CREDITS",
    message: `The subscription's prepaid credits (${nanosToDecimal(balance > 0n ? balance : 0n)} ${currency}) cannot cover this call (${nanosToDecimal(required)} ${currency}).`,
    suggestion: `Buy credits with POST /v1/subscriptions/${sub.subscriptionId}/credits or on the subscription's page, or turn on auto top-up.`,
    extra: {
      balance: nanosToDecimal(balance > 0n ? balance : 0n),
      required: nanosToDecimal(required),
      currency,
      subscriptionId: sub.subscriptionId,
      topUp: `/v1/subscriptions/${sub.subscriptionId}/credits`,
    },
  });
}

function capReached(sub: SubscriptionEntry, spent: bigint): ApiError {
  const cap = sub.spendCap!;
  const currency = sub.plan.currency;
  return new ApiError({
    status: 402,
    type: "authorization_error",
    code: "SPEND_CAP_REACHED",
    message: `The subscription's spend cap of ${nanosToDecimal(cap.amountNanos)} ${currency} for this period is reached.`,
    suggestion: "Raise or remove the cap (PATCH /v1/subscriptions/{id} with spendCap), or wait until the period renews.",
    extra: {
      cap: nanosToDecimal(cap.amountNanos),
      spent: nanosToDecimal(spent),
      currency,
      subscriptionId: sub.subscriptionId,
      resets: new NativeDate(sub.periodEnd).toISOString(),
    },
  });
}

/**
 * Reserves what the call may cost against the subscription's credits (prepaid) and spend cap (block), or throws
 * 402 INSUFFICIENT_CREDITS / SPEND_CAP_REACHED with nothing taken. Null when the subscription has neither (most
 * calls: no store round trip). A plain value with the memory store once the running totals are loaded.
 */
export function holdSpend(sub: SubscriptionEntry, quantity = 1): MaybePromise<SpendHold | null> {
  if (!sub.prepaid && !sub.spendCap) return null;
  if (!sub.state) return primeSubscription(sub).then(() => hold(sub, quantity));
  return hold(sub, quantity);
}

function hold(sub: SubscriptionEntry, quantity: number): MaybePromise<SpendHold> {
  const store = limiterStore("closed");
  const reserve = reserveNanos(sub, quantity);
  const r = Number(reserve);
  const h: SpendHold = {
    sub,
    reserved: r,
    creditsKey: null,
    capKey: null,
    capWindow: null,
    budget: null,
    budgetCode: null,
    settled: false,
  };
  const limitBudget = (room: bigint, code: SpendHold["budgetCode"]) => {
    const b = reserve + (room > 0n ? room : 0n);
    if (h.budget === null || b < h.budget) {
      h.budget = b;
      h.budgetCode = code;
    }
  };
  const takeCredits = (): MaybePromise<void> => {
    if (!sub.prepaid) return;
    const key = creditsKeyOf(sub.subscriptionId);
    return andThen(store.incrementCounter(key, r, seedBurned(sub), COUNTER_TTL_MS), (used) => {
      const balanceAfter = sub.creditNetNanos - BigInt(used);
      if (balanceAfter < 0n) {
        return andThen(store.incrementCounter(key, -r, seedBurned(sub), COUNTER_TTL_MS), () => {
          throw insufficientCredits(sub, balanceAfter + reserve, reserve);
        });
      }
      h.creditsKey = key;
      limitBudget(balanceAfter, "INSUFFICIENT_CREDITS");
    });
  };
  const takeCap = (): MaybePromise<void> => {
    const cap = sub.spendCap;
    if (!cap) return;
    const key = spendKeyOf(sub.subscriptionId, sub.periodStart);
    return andThen(store.incrementCounter(key, r, seedPeriod(sub), COUNTER_TTL_MS), (spent) => {
      if (cap.action === "block" && BigInt(spent) > cap.amountNanos) {
        return andThen(store.incrementCounter(key, -r, seedPeriod(sub), COUNTER_TTL_MS), () =>
          andThen(release(h), () => {
            // What was spent: calls refused at the same moment may still hold reservations in the count, and an
            // admitted call never takes it past the cap, so the cap bounds it.
            const before = BigInt(spent) - BigInt(r);
            throw capReached(sub, before < cap.amountNanos ? before : cap.amountNanos);
          }),
        );
      }
      h.capKey = key;
      h.capWindow = { before: BigInt(spent) - BigInt(r), after: BigInt(spent) };
      if (cap.action === "block") limitBudget(cap.amountNanos - BigInt(spent), "SPEND_CAP_REACHED");
    });
  };
  return andThen(takeCredits(), () => andThen(takeCap(), () => h));
}

/** Gives back everything the hold reserved (the call was refused, or failed unbilled). */
function release(h: SpendHold): MaybePromise<void> {
  const store = limiterStore("closed");
  const back: MaybePromise<number>[] = [];
  if (h.creditsKey) back.push(store.incrementCounter(h.creditsKey, -h.reserved, seedBurned(h.sub), COUNTER_TTL_MS));
  if (h.capKey) back.push(store.incrementCounter(h.capKey, -h.reserved, seedPeriod(h.sub), COUNTER_TTL_MS));
  h.creditsKey = h.capKey = null;
  const waits = back.filter((b) => b instanceof Promise);
  return waits.length ? Promise.all(waits).then(() => undefined) : undefined;
}

/**
 * The call's final cost (null: not rated, nothing spent): the difference to the reservation is added, then the
 * spend alerts and auto top-up look at the new totals (off the call's path). Safe to call twice: the first wins.
 */
export function settleSpend(h: SpendHold | null | undefined, finalNanos: bigint | null): MaybePromise<void> {
  if (!h || h.settled) return;
  h.settled = true;
  const final = finalNanos === null ? 0 : Number(finalNanos);
  if (final === 0) return release(h);
  const delta = final - h.reserved;
  const store = limiterStore("closed");
  const credits = h.creditsKey ? store.incrementCounter(h.creditsKey, delta, seedBurned(h.sub), COUNTER_TTL_MS) : null;
  const spent = h.capKey ? store.incrementCounter(h.capKey, delta, seedPeriod(h.sub), COUNTER_TTL_MS) : null;
  return andThen(credits, (used) =>
    andThen(spent, () => {
      const w = h.capWindow;
      afterSpend(h.sub, {
        creditsUsed: used === null ? null : BigInt(used),
        capWindow: w ? { before: w.before, after: w.after + BigInt(delta) } : null,
      });
    }),
  );
}

/** What `quantities` of the price's measured metrics would cost the call at the period's running totals. */
export function measuredCost(sub: SubscriptionEntry, quantities: Record<string, number>): bigint {
  let total = 0n;
  sub.plan.usage.forEach((c, i) => {
    if (c.measure !== "measured") return;
    const q = Math.round(quantities[c.metricKey!] ?? 0);
    if (q <= 0) return;
    const before = sub.state?.counted[i] ?? 0;
    total += cumulativeCost(c, before + q) - cumulativeCost(c, before);
  });
  return total;
}

/**
 * Measured quantities cut down to what the call may spend, for an answer measured only once it has passed whole (a
 * JSON answer: nothing to stop mid-way). The balance is never negative and a blocking cap is never passed, so the
 * call bills its budget: each metric's quantity scaled by the largest common factor whose cost fits (what a stream
 * stopped at the budget would have billed). `clamped` says when it was cut.
 */
export function quantitiesWithinBudget(
  sub: SubscriptionEntry,
  quantities: Record<string, number>,
  budget: bigint | null,
): { quantities: Record<string, number>; clamped: boolean } {
  if (budget === null || measuredCost(sub, quantities) <= budget) return { quantities, clamped: false };
  const scaled = (f: number) => Object.fromEntries(Object.entries(quantities).map(([k, q]) => [k, Math.floor(q * f)]));
  // The cost grows with the factor (every rate is non-negative): bisect for the largest factor that fits.
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (measuredCost(sub, scaled(mid)) <= budget) lo = mid;
    else hi = mid;
  }
  return { quantities: scaled(lo), clamped: true };
}

/** Whether the call is paid from credits (its usage event is then the burn). */
export const paidByCredits = (h: SpendHold | null | undefined) => !!h?.sub.prepaid;
