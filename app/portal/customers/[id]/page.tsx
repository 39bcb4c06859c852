import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { customerUsage, getCustomer } from "@/lib/billing/customers";
import { firstPage } from "@/lib/http/collection-query";
import { CUSTOMER_CREDITS_COLLECTION, customerCredits } from "@/lib/billing/credit-ledger";
import { grants } from "@/lib/auth/scopes";
import { namesOf } from "@/lib/billing/marketplace-views";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { day, minorMoney, statusTone } from "@/components/marketplace/format";
import { money } from "@/components/marketplace/price-text";
import { ProviderCredits, type CreditSummary } from "@/components/marketplace/credits-panel";
import { UsageCorrectionsCard } from "@/components/portal/usage-corrections-card";
import { usageCorrections } from "@/lib/portal/usage-corrections";
import { isCurrentSubscription } from "@/lib/schemas/billing";

// One customer: its subscriptions to this business's products, their credits (balances, lots, "Grant credits"),
// their calls in the last 30 days, the usage you corrected (amended or voided, with the reason: issue 40), and the invoices it was sent for them. Another provider's customer, or a business that buys nothing from this one, is a 404.

export const metadata = { title: "Customer · Developer Portal" };

export default async function CustomerPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePortalContext();
  const { id } = await params;
  const [customer, usage, credits] = await Promise.all([
    getCustomer(ctx.auth, id),
    customerUsage(ctx.auth, id, {}),
    customerCredits(ctx.auth, id, firstPage(CUSTOMER_CREDITS_COLLECTION, 100)),
  ]).catch((e) => {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  });
  const names = await namesOf({
    products: [...customer.subscriptions.map((s) => s.productId), ...usage.products.map((p) => p.productId)],
    prices: customer.subscriptions.map((s) => s.priceId),
  });
  const corrections = await usageCorrections(
    ctx.auth.businessId,
    customer.subscriptions.map((s) => s.id),
  );
  const productName = (pid: string) => names.products.get(pid) ?? pid;
  const currencyOf = (pid: string) => customer.subscriptions.find((s) => s.productId === pid)?.currency ?? "";
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/portal/customers">← Customers</Link>
      </p>
      <div>
        <h1 className="text-2xl font-bold">{customer.name}</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Customer since {day(customer.since)}.</p>
      </div>
      <Card title="Subscriptions">
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">The customer&apos;s subscriptions to your products</caption>
            <thead className="text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="py-2 pr-3">
                  Product
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
                <th scope="col" className="pr-3">
                  Card
                </th>
                <th scope="col" className="pr-3 text-right">
                  Calls
                </th>
                <th scope="col" className="text-right">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {customer.subscriptions.map((s) => (
                <tr key={s.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="py-2 pr-3 font-medium">{productName(s.productId)}</td>
                  <td className="pr-3">{names.prices.get(s.priceId) ?? s.priceId}</td>
                  <td className="pr-3">
                    <Badge tone={statusTone(s.status)}>{s.status.replace("_", " ")}</Badge>
                  </td>
                  <td className="pr-3 text-xs">
                    {day(s.currentPeriodStart)} to {day(s.currentPeriodEnd)}
                  </td>
                  <td className="pr-3 text-xs">{s.paymentMethod ? `${s.paymentMethod.brand} ·${s.paymentMethod.last4}` : "—"}</td>
                  <td className="pr-3 text-right tabular-nums">{s.periodCalls.toLocaleString()}</td>
                  <td className="text-right tabular-nums">{minorMoney(s.periodAmount, s.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
      <ProviderCredits
        customerId={id}
        balances={credits.data as CreditSummary[]}
        subscriptions={
          new Map(
            customer.subscriptions.map((s) => [
              s.id,
              {
                product: productName(s.productId),
                plan: names.prices.get(s.priceId) ?? s.priceId,
                current: isCurrentSubscription(s.status),
              },
            ]),
          )
        }
        canWrite={grants(ctx.auth.scopes, "subscriptions:write")}
      />
      <Card title="Usage, last 30 days">
        {usage.products.length === 0 ? (
          <p className="text-sm text-slate-500">No calls of your products in the last 30 days.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="customer-usage">
              <caption className="sr-only">Calls of your products in the last 30 days</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Product
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Calls
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Units billed
                  </th>
                  <th scope="col" className="pr-3 text-right">
                    Errors
                  </th>
                  <th scope="col" className="text-right">
                    Rated cost
                  </th>
                </tr>
              </thead>
              <tbody>
                {usage.products.map((p) => (
                  <tr key={p.productId} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="py-2 pr-3">{productName(p.productId)}</td>
                    <td className="pr-3 text-right tabular-nums">{p.calls.toLocaleString()}</td>
                    <td className="pr-3 text-right tabular-nums">{p.units.toLocaleString()}</td>
                    <td className="pr-3 text-right tabular-nums">{p.errors.toLocaleString()}</td>
                    <td className="text-right tabular-nums">{currencyOf(p.productId) ? money(p.cost, currencyOf(p.productId)) : p.cost}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <UsageCorrectionsCard
        corrections={corrections}
        description="Meter events you amended or voided for this customer (POST /v1/meter-events/{id}/amend or /void), and the reason they see."
      />
      <Card title="Invoices">
        {customer.invoices.length === 0 ? (
          <EmptyState title="No invoices yet">The running period is invoiced when it ends.</EmptyState>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Invoices sent to the customer for your products</caption>
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-3">
                    Number
                  </th>
                  <th scope="col" className="pr-3">
                    Product
                  </th>
                  <th scope="col" className="pr-3">
                    Period
                  </th>
                  <th scope="col" className="pr-3">
                    Status
                  </th>
                  <th scope="col" className="text-right">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {customer.invoices.map((i) => (
                  <tr key={i.id} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="py-2 pr-3 font-mono text-xs">{i.number}</td>
                    <td className="pr-3">{productName(i.productId)}</td>
                    <td className="pr-3 text-xs">
                      {day(i.periodStart)} to {day(i.periodEnd)}
                    </td>
                    <td className="pr-3">
                      <Badge tone={i.status === "paid" ? "success" : i.status === "open" ? "warning" : "danger"}>{i.status}</Badge>
                    </td>
                    <td className="text-right tabular-nums">{minorMoney(i.total, i.currency)}</td>
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
