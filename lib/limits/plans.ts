// The spec's plan tiers (its first table) and the contract's monthly quotas. null means unlimited.

export interface PlanLimits {
  perMinute: number;
  perHour: number | null;
  perDay: number | null;
  concurrent: number;
  burst: number;
  monthlyQuota: number | null;
}

export const PLAN_LIMITS: Record<string, PlanLimits> = {
  free: { perMinute: 10, perHour: 100, perDay: 1000, concurrent: 1, burst: 20, monthlyQuota: 1_000 },
  starter: { perMinute: 100, perHour: 5_000, perDay: 50_000, concurrent: 5, burst: 200, monthlyQuota: 100_000 },
  pro: { perMinute: 1_000, perHour: 50_000, perDay: 1_000_000, concurrent: 20, burst: 2_000, monthlyQuota: 5_000_000 },
  enterprise: { perMinute: 10_000, perHour: null, perDay: null, concurrent: 100, burst: 20_000, monthlyQuota: null },
};

export const DEFAULT_NOTIFY_AT = [80, 95, 100];

export function planLimits(plan: string): PlanLimits {
  return PLAN_LIMITS[plan] ?? PLAN_LIMITS.free;
}

/** The limits one key runs under: its plan's, with the per-minute rate (and so the burst) lowered by its own rateLimit. */
export interface KeyPolicy {
  /** Token bucket: at most `capacity` at once, refilled at `refillPerMinute`. */
  capacity: number;
  refillPerMinute: number;
  perHour: number | null;
  perDay: number | null;
  concurrent: number;
}

export function keyPolicy(plan: string, keyRateLimit: number | null): KeyPolicy {
  const p = planLimits(plan);
  const perMinute = keyRateLimit ? Math.min(p.perMinute, keyRateLimit) : p.perMinute;
  return {
    capacity: keyRateLimit ? Math.min(p.burst, keyRateLimit) : p.burst,
    refillPerMinute: perMinute,
    perHour: p.perHour,
    perDay: p.perDay,
    concurrent: p.concurrent,
  };
}

/**
 * The burst policy's window: the seconds an empty bucket takes to fill again. `capacity` per that window is the
 * sustained rate, so "20 per 120 s" (free plan) reads true both as a burst and as a pace, where "20 per 60 s" would
 * promise twice what the key can keep up.
 */
export function burstWindowSeconds(policy: Pick<KeyPolicy, "capacity" | "refillPerMinute">): number {
  return Math.max(1, Math.ceil((policy.capacity * 60) / policy.refillPerMinute));
}
