import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { emitEventLater } from "@/lib/events/emit-event";
import { limiterStore, platformOutageMode } from "@/lib/limits/limiter";
import { DEFAULT_NOTIFY_AT, planLimits } from "@/lib/limits/plans";
import type { AuthContext } from "@/lib/http/auth-context";
import { processSingleton } from "@/lib/process-state";
import { monthPeriod } from "./period";

// The monthly request quota of a project, per environment (test traffic has its own allowance and is never
// billed). The running count lives in the limiter store (memory or Redis), seeded from the usage rollups when
// a process first meets a project in a period. A free project is refused at 100%; paid plans go on (overage).

export interface QuotaCheck {
  limit: number | null;
  used: number;
  remaining: number | null;
  allowed: boolean;
  percentage: number | null;
}

/** The spec's quota check: remaining = limit - used; allowed when remaining >= amount; percentage = used / limit * 100. */
export function checkQuota(limit: number | null, used: number, amount = 1): QuotaCheck {
  if (limit === null) return { limit, used, remaining: null, allowed: true, percentage: null };
  const remaining = limit - used;
  return { limit, used, remaining, allowed: remaining >= amount, percentage: limit === 0 ? 100 : (used / limit) * 100 };
}

/** Thresholds reached by going from `before` to `after` requests. */
export function crossedThresholds(limit: number, before: number, after: number, notifyAt: number[]): number[] {
  return notifyAt.filter((t) => before < (limit * t) / 100 && after >= (limit * t) / 100);
}

const counterKey = (auth: Pick<AuthContext, "projectId" | "environment">, period: string) =>
  `quota:${auth.projectId}:${auth.environment}:${period}`;

/** Admitted requests of the period so far, from the rollups (429s were never admitted). */
export async function usedFromRollups(projectId: string, environment: string, start: Date, end: Date): Promise<number> {
  const r = await db.usageRollup.aggregate({
    _sum: { count: true },
    where: { projectId, environment, hour: { gte: start, lt: end }, statusCode: { not: 429 } },
  });
  return r._sum.count ?? 0;
}

const notifyCache = processSingleton("quota-notify-at", () => new Map<string, { at: number; value: number[] }>());

export async function notifyAtFor(projectId: string): Promise<number[]> {
  const cached = notifyCache.get(projectId);
  if (cached && Date.now() - cached.at < 60_000) return cached.value;
  const project = await db.project.findUnique({ where: { id: projectId }, select: { quotaNotifyAt: true } });
  const value = (project?.quotaNotifyAt as number[] | null) ?? DEFAULT_NOTIFY_AT;
  notifyCache.set(projectId, { at: Date.now(), value });
  return value;
}

export function forgetNotifyAt(projectId: string): void {
  notifyCache.delete(projectId);
}

async function recordCrossing(auth: AuthContext, period: string, threshold: number, used: number, limit: number) {
  try {
    await db.quotaAlert.create({
      data: { id: newId("quotaAlert"), projectId: auth.projectId, environment: auth.environment, period, threshold, used, limit },
    });
  } catch (e) {
    if ((e as { code?: string }).code === "P2002") return; // another process reported it first
    throw e;
  }
  emitEventLater({
    businessId: auth.businessId,
    environment: auth.environment,
    type: "usage.threshold_reached",
    data: { projectId: auth.projectId, period, threshold, used, limit, percentage: Math.round((used / limit) * 10000) / 100 },
  });
}

/** The quota step of the pipeline: counts the request and refuses it when a free project has none left. */
export function consumeQuota(auth: AuthContext): void | Promise<void> {
  const limit = planLimits(auth.plan).monthlyQuota;
  const at = now();
  const period = monthPeriod(at);
  const key = counterKey(auth, period.key);
  const ttl = period.end.getTime() - at.getTime() + 86_400_000;
  const counted = limiterStore(platformOutageMode()).incrementCounter(
    key,
    1,
    () => usedFromRollups(auth.projectId, auth.environment, period.start, period.end),
    ttl,
  );
  // No quota (a paid plan) and a counter in memory: nothing to wait for.
  if (limit === null) return counted instanceof Promise ? counted.then(() => {}) : undefined;
  return checkCount(auth, limit, at, period, key, ttl, counted);
}

async function checkCount(
  auth: AuthContext,
  limit: number,
  at: Date,
  period: ReturnType<typeof monthPeriod>,
  key: string,
  ttl: number,
  counted: number | Promise<number>,
): Promise<void> {
  const store = limiterStore(platformOutageMode());
  const used = await counted;
  if (used > limit && auth.plan === "free") {
    await store.incrementCounter(key, -1, async () => 0, ttl);
    if (await store.setOnce(`quota-event:${auth.projectId}:${auth.environment}:${period.key}`, ttl)) {
      emitEventLater({
        businessId: auth.businessId,
        environment: auth.environment,
        type: "api.quota_exceeded",
        data: { projectId: auth.projectId, period: period.key, limit, used: limit },
      });
    }
    const retryAfter = Math.ceil((period.end.getTime() - at.getTime()) / 1000);
    throw new ApiError({
      status: 429,
      type: "rate_limit_error",
      code: "QUOTA_EXCEEDED",
      message: `This project has used its ${limit} requests for ${period.key}.`,
      suggestion: "Upgrade the plan, or wait until the quota resets at the start of next month.",
      extra: { retryAfter, limit, period: "month", resets: period.end.toISOString() },
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  const crossed = crossedThresholds(limit, used - 1, used, await notifyAtFor(auth.projectId));
  for (const t of crossed) void recordCrossing(auth, period.key, t, used, limit).catch((e) => console.error("quota alert not recorded", e));
}

/** The spec's UsageQuota for GET /v1/usage/quota. */
export async function usageQuota(auth: AuthContext) {
  const at = now();
  const period = monthPeriod(at);
  const limit = planLimits(auth.plan).monthlyQuota;
  const key = counterKey(auth, period.key);
  const ttl = period.end.getTime() - at.getTime() + 86_400_000;
  const used = await limiterStore(platformOutageMode()).incrementCounter(
    key,
    0,
    () => usedFromRollups(auth.projectId, auth.environment, period.start, period.end),
    ttl,
  );
  const check = checkQuota(limit, used);
  const alerts = await db.quotaAlert.findMany({
    where: { projectId: auth.projectId, environment: auth.environment, period: period.key },
    orderBy: { threshold: "asc" },
  });
  return {
    limit,
    used,
    remaining: check.remaining,
    percentage: check.percentage === null ? null : Math.round(check.percentage * 100) / 100,
    allowed: check.allowed,
    period: "month" as const,
    resets: period.end.toISOString(),
    notifyAt: await notifyAtFor(auth.projectId),
    plan: auth.plan,
    blocksAtLimit: auth.plan === "free",
    alerts: alerts.map((a) => ({ threshold: a.threshold, used: a.used, reachedAt: a.createdAt.toISOString() })),
  };
}
