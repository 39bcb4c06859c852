import { Card } from "@/components/ui/primitives";
import { day, minorMoney } from "@/components/marketplace/format";
import type { ProductSubscription } from "@/lib/billing/product-usage";

// What each of the visitor's plans buys and how much of it the running period used: the rate limit, the quota
// (with a meter) and the amount so far, each when the portal's usage view switches it on.

const windowName = (s: number) => (s === 1 ? "second" : s === 60 ? "minute" : s === 3600 ? "hour" : s === 86400 ? "day" : `${s} seconds`);

export function PlanUsage({
  subscriptions,
  props,
}: {
  subscriptions: ProductSubscription[];
  props: { showRateLimits: boolean; showQuotas: boolean; showCosts: boolean };
}) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {subscriptions.map((s) => {
        const pct = s.monthlyQuota ? Math.min(100, Math.round((s.periodUsed / s.monthlyQuota) * 1000) / 10) : null;
        return (
          <Card key={s.id} title={`${s.productName}: ${s.priceName}`}>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="plan-usage">
              <dt className="text-slate-600 dark:text-slate-400">Billing period</dt>
              <dd>
                {day(s.currentPeriodStart)} to {day(s.currentPeriodEnd)}
              </dd>
              <dt className="text-slate-600 dark:text-slate-400">Calls this period</dt>
              <dd className="tabular-nums" data-testid="plan-calls">
                {s.periodUsed.toLocaleString()}
              </dd>
              {props.showRateLimits ? (
                <>
                  <dt className="text-slate-600 dark:text-slate-400">Rate limit</dt>
                  <dd data-testid="plan-rate-limit">
                    {s.rateLimit
                      ? `${s.rateLimit.limit.toLocaleString()} calls per ${windowName(s.rateLimit.windowSeconds)}`
                      : "No rate limit of the plan"}
                  </dd>
                </>
              ) : null}
              {props.showQuotas ? (
                <>
                  <dt className="text-slate-600 dark:text-slate-400">Quota</dt>
                  <dd data-testid="plan-quota">
                    {s.monthlyQuota === null
                      ? "No quota: every call is counted and billed by the plan"
                      : `${s.periodUsed.toLocaleString()} of ${s.monthlyQuota.toLocaleString()} calls (${pct}%)`}
                  </dd>
                </>
              ) : null}
              {props.showCosts ? (
                <>
                  <dt className="text-slate-600 dark:text-slate-400">Cost so far</dt>
                  <dd className="tabular-nums" data-testid="plan-cost">
                    {minorMoney(s.periodAmount, s.currency)}
                    {s.environment === "test" ? " (test mode: never charged)" : ""}
                  </dd>
                </>
              ) : null}
            </dl>
            {props.showQuotas && pct !== null ? (
              <div
                className="mt-3 h-3 rounded bg-slate-200 dark:bg-slate-800"
                role="meter"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
                aria-label={`Quota of ${s.productName} used`}
              >
                <div
                  className={`h-3 rounded ${pct >= 95 ? "bg-red-500" : pct >= 80 ? "bg-amber-500" : "bg-indigo-500"}`}
                  style={{ width: `${pct}%` }}
                />
              </div>
            ) : null}
          </Card>
        );
      })}
    </div>
  );
}
