import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consumerSubscriptions } from "@/lib/billing/marketplace-views";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { day, minorMoney, statusTone } from "@/components/marketplace/format";

// The project's subscriptions to products (its own and other businesses'), with the seller and the period so far.

export const metadata = { title: "Subscriptions · Developer Portal" };

export default async function SubscriptionsPage() {
  const ctx = await requirePortalContext();
  const subs = await consumerSubscriptions(ctx.auth);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Subscriptions</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Products the project {ctx.project.name} subscribes to in {ctx.environment === "test" ? "test mode" : "live mode"}. Find more in
          the <Link href="/catalog">catalogue</Link>.
        </p>
      </div>
      <Card title="Your subscriptions">
        {subs.length === 0 ? (
          <EmptyState title="No subscriptions yet">
            Choose a product and a plan in the <Link href="/catalog">catalogue</Link>.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Subscriptions</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Product
                  </th>
                  <th scope="col" className="pr-3">
                    Seller
                  </th>
                  <th scope="col" className="pr-3">
                    Plan
                  </th>
                  <th scope="col" className="pr-3">
                    Status
                  </th>
                  <th scope="col" className="pr-3">
                    Period
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    So far
                  </th>
                </tr>
              </thead>
              <tbody>
                {subs.map((s) => (
                  <tr key={s.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`subscription-${s.productName}`}>
                    <td className="py-2 pr-3 font-medium">
                      <Link href={`/portal/subscriptions/${s.id}`}>{s.productName}</Link>
                    </td>
                    <td className="pr-3">{s.sellerName}</td>
                    <td className="pr-3">{s.priceName}</td>
                    <td className="pr-3">
                      <Badge tone={statusTone(s.status)}>{s.status.replace("_", " ")}</Badge>
                      {s.cancelAtPeriodEnd && s.status !== "canceled" ? (
                        <span className="ml-1 text-xs text-slate-500">ends at period end</span>
                      ) : null}
                    </td>
                    <td className="pr-3 text-xs">
                      {day(s.currentPeriodStart)} to {day(s.currentPeriodEnd)}
                    </td>
                    <td className="pr-3 text-right tabular-nums">{minorMoney(s.periodAmount, s.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
    </div>
  );
}
