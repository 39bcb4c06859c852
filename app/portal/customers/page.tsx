import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { firstPage } from "@/lib/http/collection-query";
import { CUSTOMER_COLLECTION, listCustomers } from "@/lib/billing/customers";
import { namesOf } from "@/lib/billing/marketplace-views";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { minorMoney, statusTone } from "@/components/marketplace/format";

// The businesses subscribed to this business's products: one row per subscription, with this period's calls and
// amount. A provider sees its customers' names and their subscriptions to its own products, nothing else.

export const metadata = { title: "Customers · Developer Portal" };

export default async function CustomersPage() {
  const ctx = await requirePortalContext();
  const customers = (await listCustomers(ctx.auth, firstPage(CUSTOMER_COLLECTION, 100))).data;
  const subs = customers.flatMap((c) => c.subscriptions.map((s) => ({ customer: c, ...s })));
  const names = await namesOf({ products: subs.map((s) => s.productId), prices: subs.map((s) => s.priceId) });
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Customers</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Accounts subscribed to your products in {ctx.environment === "test" ? "test" : "live"} mode. Money per month is under{" "}
          <Link href="/portal/revenue">Revenue</Link>.
        </p>
      </div>
      <Card title={`${customers.length} customer${customers.length === 1 ? "" : "s"}`}>
        {subs.length === 0 ? (
          <EmptyState title="No customers yet">
            When another account subscribes to one of your published <Link href="/portal/products">products</Link>, it shows here.
          </EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="customers-table">
              <caption className="sr-only">Customers and their subscriptions</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Customer
                  </th>
                  <th scope="col" className="pr-3">
                    Product
                  </th>
                  <th scope="col" className="pr-3">
                    Plan
                  </th>
                  <th scope="col" className="pr-3">
                    Status
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Calls this period
                  </th>
                  <th scope="col" className="text-right">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {subs.map((s) => (
                  <tr
                    key={s.id}
                    className="border-t border-slate-100 dark:border-slate-800"
                    data-testid={`customer-row-${s.customer.name}`}
                  >
                    <td className="py-2 pr-3 font-medium">
                      <Link href={`/portal/customers/${s.customer.id}`}>{s.customer.name}</Link>
                    </td>
                    <td className="pr-3">{names.products.get(s.productId) ?? s.productId}</td>
                    <td className="pr-3">{names.prices.get(s.priceId) ?? s.priceId}</td>
                    <td className="pr-3">
                      <Badge tone={statusTone(s.status)}>{s.status.replace("_", " ")}</Badge>
                    </td>
                    <td className="pr-3 text-right tabular-nums">{s.periodCalls.toLocaleString()}</td>
                    <td className="text-right tabular-nums">{minorMoney(s.periodAmount, s.currency)}</td>
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
