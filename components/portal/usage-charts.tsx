"use client";
import { useState } from "react";
import dynamic from "next/dynamic";
import type { usageMetrics } from "@/lib/usage/metrics";
import { Card, Stat } from "@/components/ui/primitives";
import { usePortalData } from "./use-portal-data";

type Metrics = Awaited<ReturnType<typeof usageMetrics>>;

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

// Recharts stays out of the route's first load: each plot's code comes after first paint (one chunk for both).
const RequestsPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.RequestsPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="bars" />,
});
const LatencyPlot = dynamic(() => import("./usage-charts-plots").then((m) => m.LatencyPlot), {
  ssr: false,
  loading: () => <PlotPlaceholder shape="line" />,
});

function label(iso: string, period: string) {
  const d = new Date(iso);
  return period === "month" || period === "week"
    ? d.toLocaleDateString(undefined, { month: "short", day: "numeric", ...(period === "week" ? { hour: "2-digit" } : {}) })
    : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function UsageCharts({
  initial,
  periods,
  initialPeriod,
  showCosts,
}: {
  initial: Metrics;
  periods: string[];
  initialPeriod: string;
  showCosts: boolean;
}) {
  const [period, setPeriod] = useState(initialPeriod);
  const { data: m, isFetching } = usePortalData<Metrics>(
    `/api/portal/metrics?period=${period}`,
    period === initialPeriod ? initial : { ...initial, series: [] },
    10_000,
  );
  const series = m.series.map((b) => ({ ...b, label: label(b.start, period), ok: b.successful, errors: b.failed }));
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
            {{ hour: "Last hour", day: "24 hours", week: "7 days", month: "30 days" }[p] ?? p}
          </button>
        ))}
        <span className="text-xs text-slate-500" aria-live="polite">
          {isFetching ? "Refreshing…" : ""}
        </span>
      </div>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Stat label="Requests" value={<span data-testid="usage-total">{m.totalRequests.toLocaleString()}</span>} />
        <Stat label="Error rate" value={`${m.errorRate}%`} />
        <Stat label="Latency p95" value={m.p95Latency === null ? "—" : `${m.p95Latency} ms`} />
        <Stat label="Bandwidth" value={`${(m.bandwidthUsed / 1024).toFixed(1)} KB`} />
        {showCosts ? <Stat label="Cost" value={m.billingAmount.toFixed(2)} hint={`${m.billableRequests} billable requests`} /> : null}
      </div>
      <Card title="Requests and errors">
        <div className="h-64" data-testid="requests-chart">
          <RequestsPlot series={series} />
        </div>
      </Card>
      <Card title="Latency">
        <div className="h-64">
          <LatencyPlot series={series} />
        </div>
      </Card>
    </div>
  );
}
