import { analyticsDb } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { PERIODS, usageMetrics, type Period } from "./metrics";
import { usageQuota } from "./quota";
import { monthPeriod } from "./period";

// What the portal's Usage charts read in one call: the period's metrics, the same numbers for the period before
// it (to compare with, bucket by bucket), and the month's quota as a running total per day, with the limit and the
// alert thresholds to draw as lines. A product's portal reads the same for its products' calls only, against the
// quota of the visitor's plan instead of the project's (ProductScope).

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The quota a product's plan sets on a subscription's billing period (lib/billing/subscription-usage.ts). */
export interface PlanQuota {
  limit: number | null;
  used: number;
  notifyAt: number[];
  start: Date;
  end: Date;
}

export interface ProductScope {
  productIds: string[];
  quota: PlanQuota;
}

/** Requests admitted per UTC day from `start` up to now, added up (429s were never admitted, as in the quota). */
async function runningTotal(auth: AuthContext, at: Date, start: Date, end: Date, productIds?: string[]) {
  const rows = await analyticsDb.usageRollup.groupBy({
    by: ["hour"],
    _sum: { count: true },
    where: {
      projectId: auth.projectId,
      environment: auth.environment,
      // Rollups are hourly: a period that starts within an hour counts that hour's calls.
      hour: { gte: new Date(Math.floor(start.getTime() / HOUR) * HOUR), lt: end },
      statusCode: { not: 429 },
      ...(productIds ? { productId: { in: productIds } } : {}),
    },
  });
  const perDay = new Map<number, number>();
  for (const r of rows) {
    const day = Math.floor(r.hour.getTime() / DAY) * DAY;
    perDay.set(day, (perDay.get(day) ?? 0) + (r._sum.count ?? 0));
  }
  const days = [];
  let running = 0;
  for (let d = Math.floor(start.getTime() / DAY) * DAY; d <= at.getTime() && d < end.getTime(); d += DAY) {
    running += perDay.get(d) ?? 0;
    days.push({ day: new Date(d).toISOString(), used: running });
  }
  return days;
}

async function projectQuota(auth: AuthContext, at: Date) {
  const { start, end } = monthPeriod(at);
  const [quota, month] = await Promise.all([usageQuota(auth), runningTotal(auth, at, start, end)]);
  return { limit: quota.limit, used: quota.used, notifyAt: quota.notifyAt, resets: quota.resets, month };
}

async function planQuota(auth: AuthContext, at: Date, scope: ProductScope) {
  const { quota } = scope;
  const month = await runningTotal(auth, at, quota.start, quota.end, scope.productIds);
  return { limit: quota.limit, used: quota.used, notifyAt: quota.notifyAt, resets: quota.end.toISOString(), month };
}

export async function usageOverview(auth: AuthContext, period: Period, product?: ProductScope) {
  const to = now();
  const from = new Date(to.getTime() - PERIODS[period]);
  const productIds = product?.productIds;
  const [current, previous, quota] = await Promise.all([
    usageMetrics(auth, period, { from, to, productIds }),
    usageMetrics(auth, period, { from: new Date(from.getTime() - PERIODS[period]), to: from, productIds }),
    product ? planQuota(auth, to, product) : projectQuota(auth, to),
  ]);
  return {
    ...current,
    previous: {
      from: previous.from,
      to: previous.to,
      totalRequests: previous.totalRequests,
      failedRequests: previous.failedRequests,
      errorRate: previous.errorRate,
      p95Latency: previous.p95Latency,
      // Bucket i of the previous period lines up with bucket i of this one.
      series: previous.series.map((b) => ({ requests: b.requests, failed: b.failed, p95Latency: b.p95Latency })),
    },
    quota,
  };
}

export type UsageOverview = Awaited<ReturnType<typeof usageOverview>>;
