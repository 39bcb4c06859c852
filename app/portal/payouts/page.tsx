import Link from "next/link";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { now } from "@/lib/clock";
import { grants } from "@/lib/auth/scopes";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { EARNINGS_COLLECTION, earningsSummary, getPayoutAccount, listEarnings } from "@/lib/billing/payouts";
import { namesOf } from "@/lib/billing/marketplace-views";
import { EarningsMonthQuery } from "@/lib/schemas/payouts";
import { Badge, Card, EmptyState } from "@/components/ui/primitives";
import { PayoutAccountCard } from "@/components/portal/payout-account-card";
import { day, minorMoney } from "@/components/marketplace/format";

// The provider's Payouts (issue 60): its payout account at Stripe (onboarding state, what Stripe still requires),
// what it earned each of the last 12 months per currency, the invoices paid in the chosen month and that month's
// statement as CSV. The same domain functions as /v1/payout-account and /v1/earnings, as the signed-in user.

export const metadata = { title: "Payouts · Developer Portal" };

const MONTHS = 12;

/** This month and the 11 before it, newest first, as YYYY-MM (UTC, as earnings are summed). */
function lastMonths(count: number): string[] {
  const t = now();
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}

const statementHref = (month: string) => `/api/portal/earnings/statement?month=${month}`;
const th = "whitespace-nowrap pr-3";

export default async function PayoutsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requirePortalContext();
  const params = await searchParams;
  const months = lastMonths(MONTHS);
  const asked = EarningsMonthQuery.safeParse({ month: typeof params.month === "string" ? params.month : undefined });
  const month = (asked.success && asked.data.month) || months[0];
  const [y, m] = month.split("-").map(Number);
  const [account, summaries, earnings] = await Promise.all([
    getPayoutAccount(ctx.auth),
    Promise.all(months.map((mo) => earningsSummary(ctx.auth, mo))),
    listEarnings(
      ctx.auth,
      parseCollectionQuery(
        new URLSearchParams({
          "paidAt[gte]": new Date(Date.UTC(y, m - 1, 1)).toISOString(),
          "paidAt[lt]": new Date(Date.UTC(y, m, 1)).toISOString(),
          sort: "-paidAt",
          limit: "100",
        }),
        EARNINGS_COLLECTION,
      ),
    ),
  ]);
  const rows = earnings.data;
  const names = await namesOf({ products: rows.map((r) => r.productId), businesses: rows.map((r) => r.customerId) }, ctx.business.id);
  const earnedAnything = summaries.some((s) => s.totals.length > 0);
  const mode = ctx.environment === "test" ? "test" : "live";

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Payouts</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          Where your customers&apos; payments go, and what you earned from them in {mode} mode: the amount charged, the platform&apos;s fee,
          refunds and what reaches your account. What they are billed is under <Link href="/portal/revenue">Revenue</Link>.
        </p>
      </div>

      <PayoutAccountCard
        account={account}
        canOnboard={grants(ctx.auth.scopes, "invoices:write")}
        role={ctx.role}
        returned={params.returned === "1"}
        expired={params.refresh === "1"}
      />

      <Card title="Earnings by month">
        {!earnedAnything ? (
          <div data-testid="earnings-empty">
            <EmptyState title={`No earnings in the last ${MONTHS} months`}>
              When another account pays an invoice for one of your published <Link href="/portal/products">products</Link>, what it paid,
              the platform&apos;s fee and your net show here, month by month, with a statement to download.
            </EmptyState>
          </div>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="earnings-by-month">
              <caption className="sr-only">Earnings per month and currency</caption>
              <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                <tr>
                  <th scope="col" className={`py-2 ${th}`}>
                    Month
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Invoices
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Gross
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Platform fee
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Refunds
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Net
                  </th>
                  <th scope="col" className="whitespace-nowrap">
                    Statement
                  </th>
                </tr>
              </thead>
              <tbody>
                {summaries.map((s) => {
                  const totals = s.totals.length ? s.totals : [null];
                  return totals.map((t, i) => (
                    <tr
                      key={`${s.month}-${t?.currency ?? "none"}`}
                      className={`${i === 0 ? "border-t" : ""} border-slate-100 dark:border-slate-800 ${
                        s.month === month ? "bg-slate-50 dark:bg-slate-800/50" : ""
                      }`}
                      data-testid={`earnings-month-${s.month}${t ? `-${t.currency}` : ""}`}
                    >
                      <td className="whitespace-nowrap py-2 pr-3 tabular-nums">
                        {i === 0 ? (
                          <Link
                            href={`/portal/payouts?month=${s.month}`}
                            aria-current={s.month === month ? "page" : undefined}
                            className={s.month === month ? "font-semibold" : undefined}
                          >
                            {s.month}
                          </Link>
                        ) : null}
                      </td>
                      {t ? (
                        <>
                          <td className="pr-3 text-right tabular-nums">{t.invoices}</td>
                          <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(t.gross, t.currency)}</td>
                          <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(t.platformFee, t.currency)}</td>
                          <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(t.refunded, t.currency)}</td>
                          <td
                            className="whitespace-nowrap pr-3 text-right font-semibold tabular-nums"
                            data-testid={`earnings-net-${s.month}-${t.currency}`}
                          >
                            {minorMoney(t.net, t.currency)}
                          </td>
                        </>
                      ) : (
                        <td colSpan={5} className="whitespace-nowrap pr-3 text-slate-500 dark:text-slate-400">
                          No paid invoices
                        </td>
                      )}
                      <td className="whitespace-nowrap">
                        {i === 0 ? (
                          <a href={statementHref(s.month)} download data-testid={`statement-link-${s.month}`}>
                            CSV<span className="sr-only"> statement for {s.month}</span>
                          </a>
                        ) : null}
                      </td>
                    </tr>
                  ));
                })}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      {earnedAnything || rows.length ? (
        <Card
          title={`Invoices paid in ${month}`}
          actions={
            <a href={statementHref(month)} download className="shrink-0 text-sm" data-testid="statement-link">
              Statement (CSV)
            </a>
          }
        >
          {rows.length === 0 ? (
            <div data-testid="month-earnings-empty">
              <EmptyState title={`No invoices paid in ${month}`}>Choose a month with earnings above.</EmptyState>
            </div>
          ) : (
            <>
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm" data-testid="month-earnings">
                  <caption className="sr-only">Paid invoices of {month} and what each earned you</caption>
                  <thead className="text-xs uppercase text-slate-500 dark:text-slate-400">
                    <tr>
                      <th scope="col" className={`py-2 ${th}`}>
                        Paid
                      </th>
                      <th scope="col" className={th}>
                        Invoice
                      </th>
                      <th scope="col" className={th}>
                        Customer
                      </th>
                      <th scope="col" className={th}>
                        Product
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        Gross
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        Fee
                      </th>
                      <th scope="col" className={`${th} text-right`}>
                        Refunded
                      </th>
                      <th scope="col" className="whitespace-nowrap text-right">
                        Net
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((r) => (
                      <tr key={r.id} className="border-t border-slate-100 dark:border-slate-800" data-testid={`earning-row-${r.invoiceId}`}>
                        <td className="whitespace-nowrap py-2 pr-3 tabular-nums">{day(r.paidAt)}</td>
                        <td className="whitespace-nowrap pr-3 font-mono text-xs">
                          {r.number ?? r.invoiceId}
                          {r.disputed ? (
                            <span className="ml-2">
                              <Badge tone="danger">disputed</Badge>
                            </span>
                          ) : null}
                        </td>
                        <td className="whitespace-nowrap pr-3">
                          <Link href={`/portal/customers/${r.customerId}`}>{names.businesses.get(r.customerId) || r.customerId}</Link>
                        </td>
                        <td className="whitespace-nowrap pr-3">
                          <Link href={`/portal/products/${r.productId}`}>{names.products.get(r.productId) ?? r.productId}</Link>
                        </td>
                        <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(r.gross, r.currency)}</td>
                        <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(r.platformFee, r.currency)}</td>
                        <td className="whitespace-nowrap pr-3 text-right tabular-nums">{minorMoney(r.refunded, r.currency)}</td>
                        <td className="whitespace-nowrap text-right font-semibold tabular-nums" data-testid={`earning-net-${r.invoiceId}`}>
                          {minorMoney(r.net, r.currency)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {earnings.pagination.hasMore ? (
                <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">
                  The {rows.length} most recent of {earnings.pagination.total}; the statement has every one.
                </p>
              ) : null}
            </>
          )}
        </Card>
      ) : null}
    </div>
  );
}
