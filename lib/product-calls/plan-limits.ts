import { limiterStore } from "@/lib/limits/limiter";
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

export async function consumePlanLimits(sub: SubscriptionEntry, atMs: number, quantity = 1): Promise<PlanLimitsResult> {
  const store = limiterStore();
  const result: PlanLimitsResult = { allowed: true, code: "VALID", ratelimit: null, quota: null, retryAfter: 0 };
  const giveBack: (() => unknown)[] = [];
  if (sub.rateLimit) {
    const windowMs = sub.rateLimit.windowSeconds * 1000;
    const start = atMs - (atMs % windowMs);
    const key = `${prefix()}plan-rl:${sub.subscriptionId}:${start}`;
    const used = await store.incrementCounter(key, quantity, async () => 0, windowMs + 1000);
    giveBack.push(() => store.incrementCounter(key, -quantity, async () => 0, windowMs + 1000));
    const reset = Math.ceil((start + windowMs) / 1000);
    result.ratelimit = {
      limit: sub.rateLimit.limit,
      remaining: Math.max(0, sub.rateLimit.limit - used),
      reset,
      windowSeconds: sub.rateLimit.windowSeconds,
    };
    if (used > sub.rateLimit.limit) {
      result.allowed = false;
      result.code = "RATE_LIMIT_EXCEEDED";
      result.retryAfter = Math.max(1, Math.ceil((start + windowMs - atMs) / 1000));
    }
  }
  if (sub.monthlyQuota !== null && result.allowed) {
    const key = `${prefix()}plan-quota:${sub.subscriptionId}:${sub.periodStart}`;
    const ttl = Math.max(60_000, sub.periodEnd - atMs + 86_400_000);
    // Seeded from the period's recorded usage the first time any process counts this period.
    const seed = async () =>
      (await periodQuantities({ subscriptionId: sub.subscriptionId, start: new Date(sub.periodStart), end: new Date(sub.periodEnd) }))
        .requests;
    const used = await store.incrementCounter(key, quantity, seed, ttl);
    giveBack.push(() => store.incrementCounter(key, -quantity, seed, ttl));
    result.quota = {
      limit: sub.monthlyQuota,
      remaining: Math.max(0, sub.monthlyQuota - used),
      resets: new Date(sub.periodEnd).toISOString(),
    };
    if (used > sub.monthlyQuota) {
      result.allowed = false;
      result.code = "QUOTA_EXCEEDED";
      result.retryAfter = Math.max(1, Math.ceil((sub.periodEnd - atMs) / 1000));
    }
  }
  if (!result.allowed) await Promise.all(giveBack.map((f) => f()));
  return result;
}
