import { limiterStore } from "@/lib/limits/limiter";
import { andThen, type MaybePromise } from "@/lib/limits/store";
import { periodQuantities } from "@/lib/billing/period-usage";
import type { SubscriptionEntry } from "@/lib/billing/rate-request";

// The limits a subscriber's plan buys on a product's calls: `rateLimit {limit, windowSeconds}` (a fixed window)
// and `monthlyQuota` (units per billing period). Counted in the limiter's store, so with Redis they are exact
// across server processes, as /v1's limits are; a refused call gives its units back.

export interface PlanLimitsResult {
  allowed: boolean;
  code: "VALID" | "RATE_LIMIT_EXCEEDED" | "QUOTA_EXCEEDED";
  ratelimit: { limit: number; remaining: number; reset: number; windowSeconds: number } | null;
  quota: { limit: number; remaining: number; resets: string } | null;
  /** Seconds until a refused call may succeed. */
  retryAfter: number;
}

const prefix = () => process.env.REDIS_PREFIX ?? "platform:";

// The rate limit's counter key for the subscription's current window, made once a window rather than on every call
// (with the prefix, an environment read: a call into C++).
const windowKeys = new WeakMap<SubscriptionEntry, { start: number; key: string }>();
function windowKey(sub: SubscriptionEntry, start: number): string {
  const known = windowKeys.get(sub);
  if (known?.start === start) return known.key;
  const key = `${prefix()}plan-rl:${sub.subscriptionId}:${start}`;
  windowKeys.set(sub, { start, key });
  return key;
}

const noneCounted = async () => 0;

/**
 * Counts the call against the plan's rate limit, then (if still allowed) its quota; a refused call gives back what
 * it took. With the memory store the answer comes at once, with no promise (most gateway calls); with Redis, or a
 * quota counter seeded for the first time, it is a promise. Written without a closure or a list per call on the
 * common path (a rate limit, allowed): it runs on every gateway call.
 */
export function consumePlanLimits(sub: SubscriptionEntry, atMs: number, quantity = 1): MaybePromise<PlanLimitsResult> {
  const store = limiterStore(sub.limiterOutage);
  const result: PlanLimitsResult = { allowed: true, code: "VALID", ratelimit: null, quota: null, retryAfter: 0 };
  if (!sub.rateLimit) return countQuota(store, sub, atMs, quantity, result, null, 0);
  const { limit, windowSeconds } = sub.rateLimit;
  const windowMs = windowSeconds * 1000;
  const start = atMs - (atMs % windowMs);
  const key = windowKey(sub, start);
  return andThen(store.incrementCounter(key, quantity, noneCounted, windowMs + 1000), (used) => {
    result.ratelimit = { limit, remaining: Math.max(0, limit - used), reset: Math.ceil((start + windowMs) / 1000), windowSeconds };
    if (used > limit) {
      result.allowed = false;
      result.code = "RATE_LIMIT_EXCEEDED";
      result.retryAfter = Math.max(1, Math.ceil((start + windowMs - atMs) / 1000));
    }
    return countQuota(store, sub, atMs, quantity, result, key, windowMs + 1000);
  });
}

type Store = ReturnType<typeof limiterStore>;

/** The quota's count (when the plan has one and the call is still allowed), then the answer. */
function countQuota(
  store: Store,
  sub: SubscriptionEntry,
  atMs: number,
  quantity: number,
  result: PlanLimitsResult,
  rateKey: string | null,
  rateTtl: number,
): MaybePromise<PlanLimitsResult> {
  if (sub.monthlyQuota === null || !result.allowed) return finish(store, quantity, result, rateKey, rateTtl, null);
  const limit = sub.monthlyQuota;
  const key = `${prefix()}plan-quota:${sub.subscriptionId}:${sub.periodStart}`;
  const ttl = Math.max(60_000, sub.periodEnd - atMs + 86_400_000);
  // Seeded from the period's recorded usage the first time any process counts this period.
  const seed = async () =>
    (await periodQuantities({ subscriptionId: sub.subscriptionId, start: new Date(sub.periodStart), end: new Date(sub.periodEnd) }))
      .requests;
  return andThen(store.incrementCounter(key, quantity, seed, ttl), (used) => {
    result.quota = { limit, remaining: Math.max(0, limit - used), resets: new Date(sub.periodEnd).toISOString() };
    if (used > limit) {
      result.allowed = false;
      result.code = "QUOTA_EXCEEDED";
      result.retryAfter = Math.max(1, Math.ceil((sub.periodEnd - atMs) / 1000));
    }
    return finish(store, quantity, result, rateKey, rateTtl, { key, ttl, seed });
  });
}

/** The answer; a refused call first gives back what it took of each counter. */
function finish(
  store: Store,
  quantity: number,
  result: PlanLimitsResult,
  rateKey: string | null,
  rateTtl: number,
  quotaTaken: { key: string; ttl: number; seed: () => Promise<number> } | null,
): MaybePromise<PlanLimitsResult> {
  if (result.allowed) return result;
  const returned: Promise<unknown>[] = [];
  if (rateKey) {
    const r = store.incrementCounter(rateKey, -quantity, noneCounted, rateTtl);
    if (r instanceof Promise) returned.push(r);
  }
  if (quotaTaken) {
    const r = store.incrementCounter(quotaTaken.key, -quantity, quotaTaken.seed, quotaTaken.ttl);
    if (r instanceof Promise) returned.push(r);
  }
  return returned.length ? Promise.all(returned).then(() => result) : result;
}
