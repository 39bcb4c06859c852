import Link from "next/link";
import { viewEnabled } from "@/lib/apps/product-portal";
import { keysThatMayCall } from "@/lib/billing/product-usage";
import { usageMetrics } from "@/lib/usage/metrics";
import { searchLogs } from "@/lib/usage/log-search";
import { Card, Stat } from "@/components/ui/primitives";
import { LogTable, type LogRowView } from "@/components/portal/log-table";
import { CreditBanners, CreditsGlance, creditsInUse } from "@/components/marketplace/credits-panel";
import { subscriptionCredits } from "@/lib/billing/credits";
import { visitorView } from "./load";

// The Developer dashboard above a portal's landing page, for a signed-in visitor with a current subscription: the
// panels of `defaultPanels` in their order (api-keys, usage-metrics, recent-requests), each shaped by
// `views.dashboard` (showAPIMetrics, showErrors, showRateLimits, showRecentRequests), and the credits of each
// subscription that uses them (a prepaid plan, credits held, a spend cap: issue 39) with the cap's banners. Nothing
// for anyone else.

const PANELS = ["api-keys", "usage-metrics", "recent-requests"] as const;

export async function PortalDashboard({ slug }: { slug: string }) {
  const v = await visitorView(slug, "overview");
  const { portal, viewer } = v;
  if (!viewer || !v.current.length) return null;
  const props = portal.app.views.dashboard;
  const base = `/p/${portal.slug}`;
  const panels = portal.app.defaultPanels.filter(
    (p): p is (typeof PANELS)[number] =>
      (PANELS as readonly string[]).includes(p) &&
      (p !== "usage-metrics" || props.showAPIMetrics) &&
      (p !== "recent-requests" || props.showRecentRequests),
  );
  const credits = (await Promise.all(v.current.map(async (s) => ({ s, summary: await subscriptionCredits(viewer.auth, s.id) })))).filter(
    (c) => creditsInUse(c.summary),
  );
  if (!panels.length && !credits.length) return null;
  const [keys, metrics, recent] = await Promise.all([
    panels.includes("api-keys") ? keysThatMayCall(viewer.auth, v.productIds) : 0,
    panels.includes("usage-metrics") ? usageMetrics(viewer.auth, "day", { productIds: v.productIds }) : null,
    panels.includes("recent-requests")
      ? searchLogs(viewer.auth, new URLSearchParams(), { productIds: v.productIds, days: portal.app.views.logs.retentionDays })
      : null,
  ]);
  const plan = v.current[0];
  const panel: Record<(typeof PANELS)[number], React.ReactNode> = {
    "api-keys": (
      <Card key="api-keys" title="API keys">
        <p className="text-3xl font-semibold tabular-nums" data-testid="dashboard-keys">
          {keys}
        </p>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {keys === 1 ? "key" : "keys"} in {viewer.environment === "test" ? "test" : "live"} mode may call {v.productNames}.
        </p>
        {viewEnabled(portal.app, "api-keys") ? (
          <p className="mt-2 text-sm">
            <Link href={`${base}/keys`}>Manage your keys</Link>
          </p>
        ) : null}
      </Card>
    ),
    "usage-metrics": metrics ? (
      <Card key="usage-metrics" title="Last 24 hours">
        <div className="grid grid-cols-2 gap-3" data-testid="dashboard-metrics">
          <Stat label="Calls" value={<span data-testid="dashboard-calls">{metrics.totalRequests.toLocaleString()}</span>} />
          {props.showErrors ? (
            <Stat label="Errors" value={metrics.failedRequests.toLocaleString()} hint={`${metrics.errorRate}% of calls`} />
          ) : null}
          <Stat label="Latency p95" value={metrics.p95Latency === null ? "—" : `${metrics.p95Latency} ms`} />
          {props.showRateLimits ? (
            <Stat
              label="Rate limit"
              value={plan.rateLimit ? `${plan.rateLimit.limit.toLocaleString()} / ${plan.rateLimit.windowSeconds} s` : "None"}
              hint={
                plan.monthlyQuota === null
                  ? "No quota"
                  : `${plan.periodUsed.toLocaleString()} of ${plan.monthlyQuota.toLocaleString()} this period`
              }
            />
          ) : null}
        </div>
        {viewEnabled(portal.app, "usage") ? (
          <p className="mt-3 text-sm">
            <Link href={`${base}/usage`}>See your usage</Link>
          </p>
        ) : null}
      </Card>
    ) : null,
    "recent-requests": recent ? (
      <Card key="recent-requests" title="Recent calls" className="lg:col-span-2">
        {recent.data.length ? (
          <LogTable
            rows={recent.data.slice(0, 5) as LogRowView[]}
            logsPath={viewEnabled(portal.app, "logs") ? `${base}/logs` : undefined}
          />
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">No calls yet: calls you make through the gateway appear here.</p>
        )}
      </Card>
    ) : null,
  };
  return (
    <section aria-labelledby="portal-dashboard-title" className="mb-10" data-testid="portal-dashboard">
      <h2 id="portal-dashboard-title" className="mb-4 text-2xl font-semibold tracking-tight">
        Your dashboard
      </h2>
      {credits.length ? (
        <div className="mb-6 space-y-2 empty:hidden">
          {credits.map(({ s, summary }) => (
            <CreditBanners
              key={s.id}
              summary={summary}
              periodEnd={s.currentPeriodEnd}
              product={v.current.length > 1 ? s.productName : undefined}
            />
          ))}
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        {panels.map((p) => panel[p])}
        {credits.map(({ s, summary }) => (
          <CreditsGlance
            key={`credits-${s.id}`}
            summary={summary}
            title={v.current.length > 1 ? `Credits for ${s.productName}` : "Credits"}
            manageHref={`${base}/settings`}
          />
        ))}
      </div>
    </section>
  );
}
