import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { PERIODS, usageMetrics, type Period } from "./metrics";
import { usageQuota } from "./quota";
import { monthPeriod } from "./period";

// What the portal's Usage charts read in one call: the period's metrics, the same numbers for the period before
// it (to compare with, bucket by bucket), and the month's quota as a running total per day, with the limit and the
// alert thresholds to draw as lines.

const DAY = 86_400_000;

/** Requests admitted per UTC day of the current month so far, added up (429s were never admitted, as in the quota). */
async function monthToDate(auth: AuthContext, at: Date) {
  const { start, end } = monthPeriod(at);
  const rows = await db.usageRollup.groupBy({
    by: ["hour"],
    _sum: { count: true },
    where: { projectId: auth.projectId, environment: auth.environment, hour: { gte: start, lt: end }, statusCode: { not: 429 } },
  });
  const perDay = new Map<number, number>();
  for (const r of rows) {
    const day = Math.floor(r.hour.getTime() / DAY) * DAY;
    perDay.set(day, (perDay.get(day) ?? 0) + (r._sum.count ?? 0));
  }
  const days = [];
  let running = 0;
  for (let d = start.getTime(); d <= at.getTime() && d < end.getTime(); d += DAY) {
    running += perDay.get(d) ?? 0;
    days.push({ day: new Date(d).toISOString(), used: running });
  }
  return days;
}

export async function usageOverview(auth: AuthContext, period: Period) {
  const to = now();
  const from = new Date(to.getTime() - PERIODS[period]);
  const [current, previous, quota, month] = await Promise.all([
    usageMetrics(auth, period, { from, to }),
    usageMetrics(auth, period, { from: new Date(from.getTime() - PERIODS[period]), to: from }),
    usageQuota(auth),
    monthToDate(auth, to),
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
    quota: { limit: quota.limit, used: quota.used, notifyAt: quota.notifyAt, resets: quota.resets, month },
  };
}

export type UsageOverview = Awaited<ReturnType<typeof usageOverview>>;
