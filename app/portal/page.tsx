import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { usageMetrics } from "@/lib/usage/metrics";
import { usageQuota } from "@/lib/usage/quota";
import { keyPolicy } from "@/lib/limits/plans";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { LOG_COLLECTION, listLogs } from "@/lib/usage/routes";
import { Card, EmptyState } from "@/components/ui/primitives";
import { DashboardLive } from "@/components/portal/dashboard-live";
import { LogTable, type LogRowView } from "@/components/portal/log-table";

export const metadata = { title: "Dashboard · Developer Portal" };

export default async function DeveloperDashboard() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.dashboard;
  const [metrics, quota, recent] = await Promise.all([
    usageMetrics(ctx.auth, "day"),
    usageQuota(ctx.auth),
    listLogs(ctx.auth, parseCollectionQuery(new URLSearchParams({ limit: "8" }), LOG_COLLECTION)),
  ]);
  const policy = keyPolicy(ctx.business.plan, null);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Dashboard</h1>
      <DashboardLive initial={metrics} showAPIMetrics={props.showAPIMetrics} showErrors={props.showErrors} />
      <div className="grid gap-6 lg:grid-cols-2">
        {props.showRecentRequests ? (
          <Card
            title="Recent requests"
            actions={
              <Link href="/portal/logs" className="text-sm">
                All logs
              </Link>
            }
          >
            {recent.data.length ? (
              <LogTable rows={recent.data as LogRowView[]} compact />
            ) : (
              <EmptyState title="No requests yet">
                Create a key under <Link href="/portal/keys">API Keys</Link>, then call <code>GET /v1/products</code> with it.
              </EmptyState>
            )}
          </Card>
        ) : null}
        {props.showRateLimits ? (
          <Card title="Rate limits and quota">
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <dt className="text-slate-500">Per minute (sustained)</dt>
              <dd className="tabular-nums">{policy.refillPerMinute.toLocaleString()}</dd>
              <dt className="text-slate-500">Burst</dt>
              <dd className="tabular-nums">{policy.capacity.toLocaleString()}</dd>
              <dt className="text-slate-500">Per hour</dt>
              <dd className="tabular-nums">{policy.perHour?.toLocaleString() ?? "Unlimited"}</dd>
              <dt className="text-slate-500">Per day</dt>
              <dd className="tabular-nums">{policy.perDay?.toLocaleString() ?? "Unlimited"}</dd>
              <dt className="text-slate-500">Concurrent</dt>
              <dd className="tabular-nums">{policy.concurrent}</dd>
              <dt className="text-slate-500">Monthly quota</dt>
              <dd className="tabular-nums">
                {quota.limit === null
                  ? `${quota.used.toLocaleString()} used (unlimited)`
                  : `${quota.used.toLocaleString()} of ${quota.limit.toLocaleString()} (${quota.percentage}%)`}
              </dd>
            </dl>
          </Card>
        ) : null}
      </div>
    </div>
  );
}
