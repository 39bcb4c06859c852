// The billing part of the Usage view (shown when the view's showCosts is on): the running period's invoice, past
// invoices with a CSV of each usage line's events, and the plan simulator. Server-rendered tables only: no chart
// library, so it adds nothing to the page's JavaScript.
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { minorToDecimal } from "@/lib/billing/money";
import type { upcomingInvoice, serializeInvoice } from "@/lib/billing/invoices";
import type { simulatePlans } from "@/lib/billing/simulate-plans";

type Upcoming = Awaited<ReturnType<typeof upcomingInvoice>>;
type PastInvoice = ReturnType<typeof serializeInvoice>;
type Simulation = Awaited<ReturnType<typeof simulatePlans>>;

const money = (minor: number, currency: string) => `${minorToDecimal(BigInt(minor), currency)} ${currency}`;
const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);
const dayTime = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
const statusTone = { paid: "success", open: "warning", uncollectible: "danger", upcoming: "info", draft: "info" } as const;

function Lines({ invoice }: { invoice: Upcoming | PastInvoice }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-xs text-slate-500">
            <th className="py-1">Line</th>
            <th className="text-right">Quantity</th>
            <th className="text-right">Included</th>
            <th className="text-right">Unit price</th>
            <th className="text-right">Amount</th>
          </tr>
        </thead>
        <tbody>
          {invoice.lines.map((l) => (
            <tr key={l.id} className="border-t border-slate-200 align-top dark:border-slate-800">
              <td className="py-1">
                {l.description}
                {l.tiers ? (
                  <ul className="text-xs text-slate-500">
                    {l.tiers.map((t, i) => (
                      <li key={i}>
                        {t.quantity.toLocaleString()} × {t.unitAmount} (up to {t.upTo?.toLocaleString() ?? "∞"}) = {t.amount}
                      </li>
                    ))}
                  </ul>
                ) : null}
                {"id" in invoice && invoice.id && l.usage?.csv ? (
                  <div>
                    <a
                      className="text-xs text-indigo-600 underline"
                      href={`/api/portal/invoices/${invoice.id}/lines/${l.id}/usage`}
                      download
                    >
                      Usage events (CSV)
                    </a>
                  </div>
                ) : null}
              </td>
              <td className="text-right tabular-nums">
                {l.quantity.toLocaleString()}
                {l.unitSize > 1 && l.unit ? (
                  <span className="block text-xs text-slate-500">
                    {(l.quantity / l.unitSize).toLocaleString(undefined, { maximumFractionDigits: 3 })} × {l.unit}
                  </span>
                ) : null}
              </td>
              <td className="text-right tabular-nums">{l.includedQuantity.toLocaleString()}</td>
              <td className="text-right tabular-nums">
                {l.unitAmount ?? `${l.tiersMode} tiers`}
                {l.unit && l.unitAmount ? <span className="text-xs text-slate-500"> / {l.unit}</span> : null}
              </td>
              <td className="text-right tabular-nums" title={`exact ${l.exactAmount}`}>
                {money(l.amount, invoice.currency)}
              </td>
            </tr>
          ))}
          <tr className="border-t-2 border-slate-300 font-semibold dark:border-slate-700">
            <td className="py-1" colSpan={4}>
              Total
            </td>
            <td className="text-right tabular-nums" data-testid="invoice-total">
              {money(invoice.total, invoice.currency)}
            </td>
          </tr>
        </tbody>
      </table>
    </div>
  );
}

export function BillingOverview({
  upcoming,
  upcomingBySubscription,
  productNames = {},
  invoices,
  simulation,
}: {
  upcoming: Upcoming | null;
  /** One running invoice per subscribed product, each from its own seller (issue 17). */
  upcomingBySubscription?: Upcoming[];
  productNames?: Record<string, string>;
  invoices: PastInvoice[];
  simulation: Simulation;
}) {
  const running = upcomingBySubscription ?? (upcoming ? [upcoming] : []);
  const cheapest = simulation.plans[0];
  return (
    <div className="space-y-6" data-testid="billing">
      {running.length ? (
        running.map((inv) => (
          <Card
            key={inv.subscriptionId}
            title={
              running.length > 1 || productNames[inv.productId]
                ? `Upcoming invoice · ${productNames[inv.productId] ?? inv.productId}`
                : "Upcoming invoice"
            }
          >
            <div data-testid="upcoming-invoice">
              <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
                {inv.seller.name ? (
                  <>
                    Sold by <span data-testid="invoice-seller">{inv.seller.name}</span>.{" "}
                  </>
                ) : null}
                Period {day(inv.periodStart)} to {day(inv.periodEnd)}, so far. Finalised and charged when the period ends.
              </p>
              <Lines invoice={inv} />
            </div>
          </Card>
        ))
      ) : (
        <Card title="Upcoming invoice">
          <EmptyState title="No subscription">This project has no subscription in this environment, so nothing is billed.</EmptyState>
        </Card>
      )}
      <Card title="Past invoices">
        {invoices.length ? (
          <div className="space-y-4" data-testid="past-invoices">
            {invoices.map((inv) => (
              <details key={inv.id} className="rounded border border-slate-200 p-2 dark:border-slate-800">
                <summary className="flex cursor-pointer flex-wrap items-center gap-3 text-sm">
                  <span className="font-mono">{inv.number}</span>
                  <span>
                    {day(inv.periodStart)} to {day(inv.periodEnd)}
                  </span>
                  <Badge tone={statusTone[inv.status]}>
                    {/* A draft is finalised at finalizesAt: late usage and corrections still count until then. */}
                    {inv.status === "draft" && inv.finalizesAt ? `Draft (finalised on ${dayTime(inv.finalizesAt)})` : inv.status}
                  </Badge>
                  <span className="ml-auto font-semibold tabular-nums">{money(inv.total, inv.currency)}</span>
                </summary>
                <div className="mt-2">
                  <Lines invoice={inv} />
                </div>
              </details>
            ))}
          </div>
        ) : (
          <p className="text-sm text-slate-500">No invoices yet.</p>
        )}
      </Card>
      <Card title="Plan simulator">
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          The last 30 days of this project&apos;s real usage ({simulation.usage.requests.toLocaleString()} successful requests,{" "}
          {(simulation.usage.bytes / 1e6).toFixed(2)} MB transferred) priced under each active price.
        </p>
        {simulation.plans.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-sm" data-testid="plan-simulator">
              <thead>
                <tr className="text-left text-xs text-slate-500">
                  <th className="py-1">Product · price</th>
                  <th>Shape</th>
                  <th className="text-right">30 days would cost</th>
                </tr>
              </thead>
              <tbody>
                {simulation.plans.map((p, i) => (
                  <tr key={`${p.priceId}-${p.shape}`} className="border-t border-slate-200 dark:border-slate-800">
                    <td className="py-1">
                      {p.productName} · {p.priceName} {p.current ? <Badge tone="info">current</Badge> : null}{" "}
                      {i === 0 && cheapest && simulation.plans.length > 1 ? <Badge tone="success">cheapest</Badge> : null}
                    </td>
                    <td>{p.shape}</td>
                    <td className="text-right tabular-nums">{money(p.total, p.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-slate-500">No active prices to compare.</p>
        )}
      </Card>
    </div>
  );
}
