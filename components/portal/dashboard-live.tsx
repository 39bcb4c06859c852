"use client";
import type { usageMetrics } from "@/lib/usage/metrics";
import { Card, Stat } from "@/components/ui/primitives";
import { usePortalData } from "./use-portal-data";

type Metrics = Awaited<ReturnType<typeof usageMetrics>>;
const ms = (v: number | null) => (v === null ? "—" : `${v} ms`);

export function DashboardLive({ initial, showAPIMetrics, showErrors }: { initial: Metrics; showAPIMetrics: boolean; showErrors: boolean }) {
  const { data: m, isFetching, error } = usePortalData<Metrics>("/api/portal/metrics?period=day", initial);
  const errorTypes = Object.entries(m.errorsByType).sort((a, b) => b[1] - a[1]);
  const errorRoutes = Object.entries(m.errorsByEndpoint)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5);
  return (
    <div className="space-y-6">
      {showAPIMetrics ? (
        <section aria-labelledby="metrics-heading">
          <div className="mb-2 flex items-center justify-between">
            <h2 id="metrics-heading" className="text-base font-semibold">
              Last 24 hours
            </h2>
            <span className="text-xs text-slate-500" aria-live="polite">
              {error ? "Could not refresh" : isFetching ? "Refreshing…" : "Live"}
            </span>
          </div>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Stat label="Requests" value={m.totalRequests.toLocaleString()} />
            <Stat label="Success rate" value={`${m.successRate}%`} hint="2xx responses" />
            <Stat label="Latency p50 / p99" value={`${ms(m.p50Latency)} / ${ms(m.p99Latency)}`} />
            <Stat
              label="Active keys"
              value={m.activeAPIKeys}
              hint={`${m.uniqueUsers} distinct ${m.uniqueUsers === 1 ? "caller" : "callers"}`}
            />
          </div>
        </section>
      ) : null}
      {showErrors ? (
        <Card title="Errors">
          {errorTypes.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">No errors in the last 24 hours.</p>
          ) : (
            <div className="grid gap-4 sm:grid-cols-2">
              <div>
                <h3 className="text-sm font-medium">By type</h3>
                <ul className="mt-2 space-y-1 text-sm">
                  {errorTypes.map(([t, n]) => (
                    <li key={t} className="flex justify-between">
                      <code>{t}</code>
                      <span className="tabular-nums">{n}</span>
                    </li>
                  ))}
                </ul>
              </div>
              <div>
                <h3 className="text-sm font-medium">By endpoint</h3>
                <ul className="mt-2 space-y-1 text-sm">
                  {errorRoutes.map(([r, n]) => (
                    <li key={r} className="flex justify-between gap-2">
                      <code className="truncate">{r}</code>
                      <span className="tabular-nums">{n}</span>
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          )}
        </Card>
      ) : null}
    </div>
  );
}
