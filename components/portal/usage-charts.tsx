"use client";
import { useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { usageMetrics } from "@/lib/usage/metrics";
import { Card, Stat } from "@/components/ui/primitives";
import { usePortalData } from "./use-portal-data";

type Metrics = Awaited<ReturnType<typeof usageMetrics>>;

function label(iso: string, period: string) {
  const d = new Date(iso);
  return period === "month" || period === "week" ? d.toLocaleDateString(undefined, { month: "short", day: "numeric", ...(period === "week" ? { hour: "2-digit" } : {}) }) : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

export function UsageCharts({ initial, periods, initialPeriod, showCosts }: { initial: Metrics; periods: string[]; initialPeriod: string; showCosts: boolean }) {
  const [period, setPeriod] = useState(initialPeriod);
  const { data: m, isFetching } = usePortalData<Metrics>(`/api/portal/metrics?period=${period}`, period === initialPeriod ? initial : { ...initial, series: [] }, 10_000);
  const series = m.series.map((b) => ({ ...b, label: label(b.start, period), ok: b.successful, errors: b.failed }));
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-2" role="radiogroup" aria-label="Period">
        {periods.map((p) => (
          <button key={p} type="button" role="radio" aria-checked={p === period} onClick={() => setPeriod(p)}
            className={`rounded-md px-3 py-1.5 text-sm ${p === period ? "bg-indigo-600 text-white" : "border border-slate-300 dark:border-slate-700"}`}>
            {{ hour: "Last hour", day: "24 hours", week: "7 days", month: "30 days" }[p] ?? p}
          </button>
        ))}
        <span className="text-xs text-slate-500" aria-live="polite">{isFetching ? "Refreshing…" : ""}</span>
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
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={series}><CartesianGrid strokeDasharray="3 3" opacity={0.3} /><XAxis dataKey="label" fontSize={11} /><YAxis allowDecimals={false} fontSize={11} /><Tooltip /><Legend />
              <Bar dataKey="ok" name="Successful" stackId="a" fill="#6366f1" /><Bar dataKey="errors" name="Errors" stackId="a" fill="#ef4444" /></BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Card title="Latency">
        <div className="h-64">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={series}><CartesianGrid strokeDasharray="3 3" opacity={0.3} /><XAxis dataKey="label" fontSize={11} /><YAxis unit=" ms" fontSize={11} /><Tooltip /><Legend />
              <Line type="monotone" dataKey="p50Latency" name="p50" stroke="#6366f1" dot={{ r: 2 }} connectNulls /><Line type="monotone" dataKey="p99Latency" name="p99" stroke="#f59e0b" dot={{ r: 2 }} connectNulls /></LineChart>
          </ResponsiveContainer>
        </div>
      </Card>
    </div>
  );
}
