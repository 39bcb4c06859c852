"use client";
import { useState } from "react";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { UsageOverview } from "@/lib/usage/usage-overview";
import { Card, Stat } from "@/components/ui/primitives";
import { portalGet } from "./portal-get";

// The Usage view's charts: requests, errors and latency of a period beside the period before it, and the month's
// quota with its alert thresholds. Switching the period keeps the numbers and drawings of the last one on screen,
// greyed, until the new ones arrive (TanStack Query's placeholderData), instead of emptying the charts.

/**
 * What stands in for a plot until its code has loaded: the plot's own box (the parent's h-64), faint grid lines and
 * the outline of `shape` (bars or a line), still, or gently pulsing when the reader allows motion.
 */
function PlotPlaceholder({ shape }: { shape: "bars" | "line" }) {
  const heights = [35, 55, 40, 70, 50, 85, 60, 45, 75, 65, 50, 80];
  return (
    <div role="status" aria-label="Loading chart" className="flex h-full flex-col gap-2 pb-6 pl-8 pr-2 pt-2 motion-safe:animate-pulse">
      <div className="relative flex-1 border-b border-l border-slate-200 dark:border-slate-700">
        {[25, 50, 75].map((y) => (
          <div
            key={y}
            className="absolute inset-x-0 border-t border-dashed border-slate-100 dark:border-slate-800"
            style={{ top: `${y}%` }}
          />
        ))}
        {shape === "bars" ? (
          <div className="absolute inset-0 flex items-end gap-[3%] px-[2%]">
            {heights.map((h, i) => (
              <div key={i} className="flex-1 rounded-t-sm bg-slate-200 dark:bg-slate-800" style={{ height: `${h}%` }} />
            ))}
          </div>
        ) : (
          <svg
            className="absolute inset-0 h-full w-full text-slate-200 dark:text-slate-800"
            viewBox="0 0 100 100"
            preserveAspectRatio="none"
            aria-hidden="true"
          >
            <polyline
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              vectorEffect="non-scaling-stroke"
              points={heights.map((h, i) => `${(i * 100) / (heights.length - 1)},${100 - h}`).join(" ")}
            />
          </svg>
        )}
      </div>
      <span className="sr-only">Loading chart…</span>
    </div>
  );
}

// Recharts stays out of the route's first load: each plot's code comes after first paint (one chunk for all).
const RequestsPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.RequestsPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="bars" />,
});
const ErrorsPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.ErrorsPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="bars" />,
});
const LatencyPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.LatencyPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="line" />,
});
const QuotaPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.QuotaPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="line" />,
});

const PERIOD_NAMES: Record<string, string> = { hour: "Last hour", day: "24 hours", week: "7 days", month: "30 days" };

function label(iso: string, period: string) {
  const d = new Date(iso);
  return period === "month" || period === "week"
    ? d.toLocaleDateString(undefined, { month: "short", day: "numeric", ...(period === "week" ? { hour: "2-digit" } : {}) })
    : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

/** "+12% vs previous period", or why there is nothing to compare with. */
function change(now: number | null, before: number | null) {
  if (now === null || before === null) return undefined;
  if (before === 0) return now === 0 ? "Same as the previous period" : "None in the previous period";
  const pct = Math.round(((now - before) / before) * 100);
  return pct === 0 ? "Same as the previous period" : `${pct > 0 ? "+" : ""}${pct}% vs previous period`;
}

export function logsHref(start: string, end: string, logsPath = "/portal/logs") {
  return `${logsPath}?${new URLSearchParams({ from: start, to: end })}`;
}

export function UsageCharts({
  initial,
  periods,
  initialPeriod,
  showCosts,
  portal,
  logsPath,
  showQuota = true,
}: {
  initial: UsageOverview;
  periods: string[];
  initialPeriod: string;
  showCosts: boolean;
  /** A product portal's slug: its products' calls only, against the visitor's plan (/api/portal/metrics/overview). */
  portal?: string;
  /** Where a bucket's requests are listed (the console's logs by default). */
  logsPath?: string;
  showQuota?: boolean;
}) {
  const router = useRouter();
  const [period, setPeriod] = useState(initialPeriod);
  const q = useQuery({
    queryKey: ["usage-overview", period, portal ?? ""],
    queryFn: () =>
      portalGet<UsageOverview>(`/api/portal/metrics/overview?period=${period}${portal ? `&portal=${encodeURIComponent(portal)}` : ""}`),
    initialData: period === initialPeriod ? initial : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const m = q.data ?? initial;
  const stale = q.isPlaceholderData;
  const shownPeriod = stale ? m.period : period;
  const series = m.series.map((b, i) => ({
    label: label(b.start, shownPeriod),
    ok: b.successful + (b.requests - b.successful - b.failed),
    errors: b.failed,
    p50Latency: b.p50Latency,
    p95Latency: b.p95Latency,
    p99Latency: b.p99Latency,
    prevRequests: m.previous.series[i]?.requests ?? null,
    prevErrors: m.previous.series[i]?.failed ?? null,
    prevP95: m.previous.series[i]?.p95Latency ?? null,
  }));
  const pick = (i: number) => {
    const b = m.series[i];
    if (b) router.push(logsHref(b.start, b.end, logsPath));
  };
  const quota = m.quota;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2" role="radiogroup" aria-label="Period">
        {periods.map((p) => (
          <button
            key={p}
            type="button"
            role="radio"
            aria-checked={p === period}
            onClick={() => setPeriod(p)}
            className={`rounded-md px-3 py-1.5 text-sm ${p === period ? "bg-indigo-600 text-white" : "border border-slate-300 dark:border-slate-700"}`}
          >
            {PERIOD_NAMES[p] ?? p}
          </button>
        ))}
        <span className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite" data-testid="usage-loading">
          {stale ? `Loading ${PERIOD_NAMES[period] ?? period}…` : q.isFetching ? "Refreshing…" : ""}
        </span>
      </div>
      <div
        data-testid="usage-data"
        data-period={shownPeriod}
        aria-busy={stale}
        className={`space-y-6 transition-opacity ${stale ? "opacity-50" : ""}`}
      >
        <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Stat
            label="Requests"
            value={<span data-testid="usage-total">{m.totalRequests.toLocaleString()}</span>}
            hint={change(m.totalRequests, m.previous.totalRequests)}
          />
          <Stat
            label="Errors"
            value={<span data-testid="usage-errors">{m.failedRequests.toLocaleString()}</span>}
            hint={`${m.errorRate}% of requests · ${change(m.failedRequests, m.previous.failedRequests) ?? ""}`}
          />
          <Stat
            label="Latency p95"
            value={m.p95Latency === null ? "—" : `${m.p95Latency} ms`}
            hint={change(m.p95Latency, m.previous.p95Latency)}
          />
          <Stat label="Bandwidth" value={`${(m.bandwidthUsed / 1024).toFixed(1)} KB`} />
          {showCosts ? <Stat label="Cost" value={m.billingAmount.toFixed(2)} hint={`${m.billableRequests} billable requests`} /> : null}
        </div>
        <Card title="Requests">
          <p className="-mt-2 mb-2 text-xs text-slate-600 dark:text-slate-400">
            Dashed: the previous period. Click a bar to see its requests in the logs.
          </p>
          <div className="h-64" data-testid="requests-chart">
            <RequestsPlot series={series} onPick={pick} />
          </div>
        </Card>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card title="Errors">
            <div className="h-56" data-testid="errors-chart">
              <ErrorsPlot series={series} onPick={pick} />
            </div>
          </Card>
          <Card title="Latency">
            <div className="h-56">
              <LatencyPlot series={series} />
            </div>
          </Card>
        </div>
        <details className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
          <summary className="cursor-pointer font-medium">The numbers behind the charts</summary>
          <div className="mt-2 max-h-80 overflow-auto">
            <table className="w-full text-left text-xs">
              <caption className="sr-only">Requests, errors and p95 latency per interval, with links to their logs</caption>
              <thead className="text-slate-500 dark:text-slate-400">
                <tr>
                  <th scope="col" className="py-1 pr-3">
                    Interval from
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Requests
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Errors
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    p95
                  </th>
                  <th scope="col">
                    <span className="sr-only">Logs</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {m.series.map((b) => (
                  <tr key={b.start} className="border-t border-slate-100 dark:border-slate-800" data-testid="usage-bucket">
                    <td className="py-1 pr-3">{new Date(b.start).toLocaleString()}</td>
                    <td className="pr-3 text-right tabular-nums">{b.requests}</td>
                    <td className="pr-3 text-right tabular-nums">{b.failed}</td>
                    <td className="pr-3 text-right tabular-nums">{b.p95Latency === null ? "—" : `${b.p95Latency} ms`}</td>
                    <td>{b.requests ? <Link href={logsHref(b.start, b.end, logsPath)}>View logs</Link> : null}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
        {showQuota ? (
          <Card title={portal ? "Quota this billing period" : "Quota this month"}>
            {quota.limit === null ? (
              <p className="text-sm">
                {quota.used.toLocaleString()} requests {portal ? "this billing period" : "this month"}; your plan has no{" "}
                {portal ? "quota" : "monthly cap"}.
              </p>
            ) : (
              <>
                <p className="text-sm">
                  <span className="font-semibold tabular-nums">{quota.used.toLocaleString()}</span> of {quota.limit.toLocaleString()}{" "}
                  requests used;{quota.notifyAt.length ? ` alerts at ${quota.notifyAt.join("%, ")}%;` : ""} resets{" "}
                  {new Date(quota.resets).toLocaleDateString()}.
                </p>
                <div className="mt-2 h-56" data-testid="quota-chart">
                  <QuotaPlot
                    days={quota.month.map((d) => ({
                      label: new Date(d.day).toLocaleDateString(undefined, { month: "short", day: "numeric" }),
                      used: d.used,
                    }))}
                    limit={quota.limit}
                    notifyAt={quota.notifyAt}
                  />
                </div>
              </>
            )}
          </Card>
        ) : null}
      </div>
    </div>
  );
}
