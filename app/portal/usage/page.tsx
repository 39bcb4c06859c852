import { requirePortalContext } from "@/lib/portal/portal-context";
import { consoleApp } from "@/lib/portal/console-app";
import { usageOverview } from "@/lib/usage/usage-overview";
import { usageQuota } from "@/lib/usage/quota";
import { keyPolicy } from "@/lib/limits/plans";
import { Card } from "@/components/ui/primitives";
import { UsageCharts } from "@/components/portal/usage-charts";
import { BillingOverview } from "@/components/portal/billing-overview";
import { billingForPortal } from "@/lib/billing/portal-billing";
import { costsByProduct, namesOf } from "@/lib/billing/marketplace-views";
import { projectToolCallStats } from "@/lib/usage/tool-call-stats";
import { ToolCallTable } from "@/components/portal/call-via";

export const metadata = { title: "Usage · Developer Portal" };

export default async function DeveloperUsage() {
  const ctx = await requirePortalContext();
  const props = (await consoleApp(ctx)).app.views.usage;
  const period = props.periods.includes("day") ? "day" : props.periods[0];
  const [metrics, quota, billing, productCosts, toolCalls] = await Promise.all([
    usageOverview(ctx.auth, period),
    usageQuota(ctx.auth),
    props.showCosts ? billingForPortal(ctx.auth) : null,
    props.showCosts ? costsByProduct(ctx.auth) : [],
    projectToolCallStats(ctx.auth),
  ]);
  const policy = keyPolicy(ctx.business.plan, null);
  // The product each running invoice is for, by name (its seller's name is on the invoice).
  const productNames = billing
    ? Object.fromEntries((await namesOf({ products: billing.upcomingBySubscription.map((u) => u.productId) })).products)
    : {};
  const pct = quota.percentage ?? 0;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Usage</h1>
      <UsageCharts initial={metrics} periods={props.periods} initialPeriod={period} showCosts={props.showCosts} />
      {toolCalls.length ? (
        <Card title="MCP tool calls, last 7 days">
          <ToolCallTable stats={toolCalls} caption="Calls of each MCP tool by this project's keys in the last 7 days" />
        </Card>
      ) : null}
      {productCosts.length ? (
        <Card title="Costs by product, last 30 days">
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="costs-by-product">
              <caption className="sr-only">What each product you call cost in the last 30 days</caption>
              <thead>
                <tr className="text-left text-slate-600 dark:text-slate-400">
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Product
                  </th>
                  <th scope="col" className="py-1 pr-4 text-right font-medium">
                    Calls
                  </th>
                  <th scope="col" className="py-1 pr-4 text-right font-medium">
                    Units
                  </th>
                  <th scope="col" className="py-1 text-right font-medium">
                    Cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {productCosts.map((p) => (
                  <tr key={p.productId} className="border-t border-slate-200 dark:border-slate-800">
                    <th scope="row" className="py-1 pr-4 text-left font-normal">
                      {p.name}
                    </th>
                    <td className="py-1 pr-4 text-right tabular-nums">{p.calls.toLocaleString()}</td>
                    <td className="py-1 pr-4 text-right tabular-nums">{p.units.toLocaleString()}</td>
                    <td className="py-1 text-right tabular-nums">{p.cost}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        {props.showQuotas ? (
          <Card title="Monthly quota">
            {quota.limit === null ? (
              <p className="text-sm">{quota.used.toLocaleString()} requests this month; your plan has no monthly cap.</p>
            ) : (
              <div>
                <p className="text-sm">
                  <span className="font-semibold tabular-nums">{quota.used.toLocaleString()}</span> of {quota.limit.toLocaleString()}{" "}
                  requests ({pct}%), resets {new Date(quota.resets).toLocaleDateString()}.
                </p>
                <div
                  className="relative mt-3 h-3 rounded bg-slate-200 dark:bg-slate-800"
                  role="meter"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.min(100, pct)}
                  aria-label="Quota used"
                >
                  <div
                    className={`h-3 rounded ${pct >= 95 ? "bg-red-500" : pct >= 80 ? "bg-amber-500" : "bg-indigo-500"}`}
                    style={{ width: `${Math.min(100, pct)}%` }}
                  />
                  {quota.notifyAt.map((t) => (
                    <span
                      key={t}
                      title={`Alert at ${t}%`}
                      className="absolute -top-1 h-5 w-0.5 bg-slate-700 dark:bg-slate-300"
                      style={{ left: `${Math.min(100, t)}%` }}
                    />
                  ))}
                </div>
                <p className="mt-2 text-xs text-slate-500">
                  Markers: alerts at {quota.notifyAt.join("%, ")}%.{" "}
                  {quota.blocksAtLimit
                    ? "Requests are refused at 100% on the free plan."
                    : "Beyond 100% requests go on and are billed as overage."}
                </p>
                {quota.alerts.length ? (
                  <ul className="mt-2 text-xs">
                    {quota.alerts.map((a) => (
                      <li key={a.threshold}>
                        Reached {a.threshold}% on {new Date(a.reachedAt).toLocaleString()}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            )}
          </Card>
        ) : null}
        {props.showRateLimits ? (
          <Card title="Rate limits per key">
            <table className="w-full text-sm">
              <tbody>
                <tr>
                  <th scope="row" className="py-1 text-left font-normal text-slate-500">
                    Sustained
                  </th>
                  <td className="tabular-nums">{policy.refillPerMinute.toLocaleString()} / minute</td>
                </tr>
                <tr>
                  <th scope="row" className="py-1 text-left font-normal text-slate-500">
                    Burst
                  </th>
                  <td className="tabular-nums">{policy.capacity.toLocaleString()} at once</td>
                </tr>
                <tr>
                  <th scope="row" className="py-1 text-left font-normal text-slate-500">
                    Hourly
                  </th>
                  <td className="tabular-nums">{policy.perHour?.toLocaleString() ?? "Unlimited"}</td>
                </tr>
                <tr>
                  <th scope="row" className="py-1 text-left font-normal text-slate-500">
                    Daily
                  </th>
                  <td className="tabular-nums">{policy.perDay?.toLocaleString() ?? "Unlimited"}</td>
                </tr>
                <tr>
                  <th scope="row" className="py-1 text-left font-normal text-slate-500">
                    In flight
                  </th>
                  <td className="tabular-nums">{policy.concurrent}</td>
                </tr>
              </tbody>
            </table>
            <p className="mt-2 text-xs text-slate-500">Plan: {ctx.business.plan}. A key&apos;s own rate limit can lower these.</p>
          </Card>
        ) : null}
      </div>
      {billing ? <BillingOverview {...billing} productNames={productNames} /> : null}
    </div>
  );
}
