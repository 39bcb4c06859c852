import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { AuthContext } from "@/lib/http/auth-context";
import { addTo, percentile, type Histogram } from "./histogram";
import { distinctCounts } from "./rollup-sums";
import { bucketSums } from "./bucket-cache";
import { usageQuota } from "./quota";

// UsageMetrics from the hourly rollups: a month is at most ~720 hours of rows per dimension, so the answer
// does not depend on how many raw events there are. The database adds the rollup rows up (rollup-sums.ts) and
// the sums of closed buckets are kept in memory (bucket-cache.ts), so a month costs about as much as a day.

export const PERIODS = { hour: 3_600_000, day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000 } as const;
export type Period = keyof typeof PERIODS;
const BUCKET_MS: Record<Period, number> = { hour: 3_600_000, day: 3_600_000, week: 6 * 3_600_000, month: 86_400_000 };
const HOUR = 3_600_000;

interface Acc {
  count: number;
  ok: number;
  failed: number;
  latencySum: number;
  hist: Histogram;
}
const emptyAcc = (): Acc => ({ count: 0, ok: 0, failed: 0, latencySum: 0, hist: {} });
const round2 = (n: number) => Math.round(n * 100) / 100;
const pct = (part: number, whole: number) => (whole === 0 ? 0 : round2((part / whole) * 100));

export function summarize(a: Acc) {
  return {
    requests: a.count,
    successful: a.ok,
    failed: a.failed,
    successRate: pct(a.ok, a.count),
    errorRate: pct(a.failed, a.count),
    averageLatency: a.count ? round2(a.latencySum / a.count) : null,
    p50Latency: percentile(a.hist, 50),
    p95Latency: percentile(a.hist, 95),
    p99Latency: percentile(a.hist, 99),
  };
}

/** `range.productIds`: only the calls of these products (a product's portal), from the rollups' product column. */
export async function usageMetrics(auth: AuthContext, period: Period, range?: { from?: Date; to?: Date; productIds?: string[] }) {
  const to = range?.to ?? now();
  const from = range?.from ?? new Date(to.getTime() - PERIODS[period]);
  // Rollups are hourly: the window starts at the hour that holds `from`.
  const firstHour = new Date(Math.floor(from.getTime() / HOUR) * HOUR);
  const bucketMs = BUCKET_MS[period];
  // The database sums the rollups (lib/usage/rollup-sums.ts); only per-bucket totals come back.
  // Closed buckets come from memory (bucket-cache.ts); distinct keys and users cannot be added up per bucket.
  const scope = { projectId: auth.projectId, environment: auth.environment, firstHour, to, productIds: range?.productIds };
  const [{ dims, hist: hists }, distinct, quota] = await Promise.all([
    bucketSums({ ...scope, bucketMs, nowMs: now().getTime() }),
    distinctCounts({ ...scope, bucketSeconds: bucketMs / 1000 }),
    usageQuota(auth),
  ]);

  const total = emptyAcc();
  const buckets = new Map<number, Acc>();
  const bucketAt = (seconds: number) => {
    let b = buckets.get(seconds * 1000);
    if (!b) buckets.set(seconds * 1000, (b = emptyAcc()));
    return b;
  };
  const errorsByType: Record<string, number> = {};
  const errorsByEndpoint: Record<string, number> = {};
  const byEndpoint: Record<string, number> = {};
  let bandwidth = 0,
    compute = 0,
    billable = 0,
    cost = 0;

  for (const r of dims) {
    const ok = r.statusCode >= 200 && r.statusCode < 300;
    const failed = r.statusCode >= 400;
    for (const acc of [total, bucketAt(r.bucket)]) {
      acc.count += r.count;
      acc.latencySum += r.latencySum;
      if (ok) acc.ok += r.count;
      if (failed) acc.failed += r.count;
    }
    const route = `${r.method} ${r.endpoint}`;
    byEndpoint[route] = (byEndpoint[route] ?? 0) + r.count;
    if (failed) {
      const type = r.errorType ?? `http_${r.statusCode}`;
      errorsByType[type] = (errorsByType[type] ?? 0) + r.count;
      errorsByEndpoint[route] = (errorsByEndpoint[route] ?? 0) + r.count;
    }
    bandwidth += r.bytes;
    compute += r.computeMs;
    billable += r.billable;
    cost += r.cost;
  }
  for (const h of hists) {
    addTo(total.hist, Number(h.latency), h.count);
    addTo(bucketAt(h.bucket).hist, Number(h.latency), h.count);
  }

  const series = [];
  for (let start = Math.floor(from.getTime() / bucketMs) * bucketMs; start <= to.getTime(); start += bucketMs) {
    const s = summarize(buckets.get(start) ?? emptyAcc());
    series.push({ start: new Date(start).toISOString(), end: new Date(start + bucketMs).toISOString(), ...s });
  }
  const t = summarize(total);
  return {
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    totalRequests: t.requests,
    successfulRequests: t.successful,
    failedRequests: t.failed,
    successRate: t.successRate,
    errorRate: t.errorRate,
    averageLatency: t.averageLatency,
    p50Latency: t.p50Latency,
    p95Latency: t.p95Latency,
    p99Latency: t.p99Latency,
    errorsByType,
    errorsByEndpoint,
    requestsByEndpoint: byEndpoint,
    bandwidthUsed: bandwidth,
    computeTime: round2(compute),
    storageUsed: null,
    uniqueUsers: distinct.principals,
    activeAPIKeys: distinct.keys,
    billableRequests: billable,
    quotaUsed: quota.percentage,
    billingAmount: round2(cost),
    series,
  };
}

/** Requests per API key over the last `days` days (the keys view's usage column). */
export async function requestsByKey(auth: AuthContext, days = 30): Promise<Record<string, number>> {
  const since = new Date(Math.floor((now().getTime() - days * 86_400_000) / HOUR) * HOUR);
  const rows = await db.usageRollup.groupBy({
    by: ["apiKey"],
    _sum: { count: true },
    where: { projectId: auth.projectId, environment: auth.environment, hour: { gte: since } },
  });
  return Object.fromEntries(rows.map((r) => [r.apiKey, r._sum.count ?? 0]));
}

/**
 * Calls of one product per key over the last `days` (gateway calls, verifications and meter events rated under
 * it), from the usage events of the caller's project and environment: what a product's developer portal shows
 * beside each key. Grouped by the database on the project/environment/time index.
 */
export async function productCallsByKey(auth: AuthContext, productId: string, days = 30): Promise<Record<string, number>> {
  const since = new Date(now().getTime() - days * 86_400_000);
  const rows = await db.usageEvent.groupBy({
    by: ["apiKey"],
    _count: { _all: true },
    where: { projectId: auth.projectId, environment: auth.environment, timestamp: { gte: since }, productId },
  });
  return Object.fromEntries(rows.map((r) => [r.apiKey, r._count._all]));
}
