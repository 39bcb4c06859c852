import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { revenueByProductAndMonth } from "@/lib/billing/revenue";
import { Card, EmptyState, Stat } from "@/components/ui/primitives";
import { RevenueChart } from "@/components/marketplace/revenue-chart";
import { minorMoney } from "@/components/marketplace/format";

// What customers pay for the business's products, per product and month: invoiced, paid, and the running periods
// rated so far. The same amounts are the customers' invoices.

export const metadata = { title: "Revenue · Developer Portal" };

export default async function RevenuePage() {
  const ctx = await requirePortalContext();
  const revenue = await revenueByProductAndMonth(ctx.auth, { months: 12 });
  const currencies = [...new Set(revenue.data.map((r) => r.currency))].sort();
  const sum = (currency: string, key: "invoiced" | "paid" | "upcoming" | "total") =>
    revenue.data.filter((r) => r.currency === currency).reduce((n, r) => n + r[key], 0);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Revenue</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          The last {revenue.months} months of your products&apos; sales to other accounts, in {ctx.environment === "test" ? "test" : "live"}{" "}
          mode. See who buys under <Link href="/portal/customers">Customers</Link>.
        </p>
      </div>
      {revenue.data.length === 0 ? (
        <Card>
          <EmptyState title="No revenue yet">
            Publish a product with a plan under <Link href="/portal/products">Products</Link>; what its subscribers are billed shows here.
          </EmptyState>
        </Card>
      ) : (
        currencies.map((currency) => (
          <div key={currency} className="space-y-6">
            <div className="grid gap-4 sm:grid-cols-3">
              <Stat
                label={`Total (${currency})`}
                value={<span data-testid={`revenue-total-${currency}`}>{minorMoney(sum(currency, "total"), currency)}</span>}
              />
              <Stat
                label="Invoiced"
                value={minorMoney(sum(currency, "invoiced"), currency)}
                hint={`${minorMoney(sum(currency, "paid"), currency)} paid`}
              />
              <Stat
                label="This period so far"
                value={minorMoney(sum(currency, "upcoming"), currency)}
                hint="Running periods, not yet invoiced"
              />
            </div>
            <Card title={`Revenue per month (${currency})`}>
              <RevenueChart
                currency={currency}
                points={revenue.data
                  .filter((r) => r.currency === currency)
                  .map((r) => ({ month: r.month, product: r.productName || r.productId, amount: Number(r.totalDecimal) }))}
              />
            </Card>
          </div>
        ))
      )}
      {revenue.data.length ? (
        <Card title="Per product and month">
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="revenue-table">
              <caption className="sr-only">Revenue per product and month</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Month
                  </th>
                  <th scope="col" className="pr-3">
                    Product
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Customers
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Invoiced
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Paid
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    So far
                  </th>
                  <th scope="col" className="text-right">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {revenue.data.map((r) => (
                  <tr
                    key={`${r.productId}-${r.month}-${r.currency}`}
                    className="border-t border-slate-100 dark:border-slate-800"
                    data-testid={`revenue-row-${r.productName}`}
                  >
                    <td className="py-2 pr-3 tabular-nums">{r.month}</td>
                    <td className="pr-3">{r.productName}</td>
                    <td className="pr-3 text-right tabular-nums">{r.customers}</td>
                    <td className="pr-3 text-right tabular-nums">{minorMoney(r.invoiced, r.currency)}</td>
                    <td className="pr-3 text-right tabular-nums">{minorMoney(r.paid, r.currency)}</td>
                    <td className="pr-3 text-right tabular-nums">{minorMoney(r.upcoming, r.currency)}</td>
                    <td className="text-right font-semibold tabular-nums">{minorMoney(r.total, r.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Card>
      ) : null}
    </div>
  );
}
