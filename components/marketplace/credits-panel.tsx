import Link from "next/link";
import type { ReactNode } from "react";
import type { AuthContext } from "@/lib/http/auth-context";
import { grants as scopeGrants } from "@/lib/auth/scopes";
import { subscriptionCredits, type creditSummary } from "@/lib/billing/credits";
import { firstPage } from "@/lib/http/collection-query";
import { CREDIT_LEDGER_COLLECTION, creditLedger, type LedgerEntry } from "@/lib/billing/credit-ledger";
import { Badge, Card } from "@/components/ui/primitives";
import { isCurrentSubscription } from "@/lib/schemas/billing";
import { AutoRechargeForm, BuyCreditsForm, GrantCreditsForm, SpendCapForm } from "./credit-forms";
import { day, decimalMoney } from "./format";

// Prepaid credits and spending limits of one subscription (issue 39), as its consumer sees them in the console
// (/portal/subscriptions/{id}) and in a product's portal (/p/{slug}/settings): a banner when the period's spend
// crossed a threshold of the cap (or prepaid credits ran out), the balance with "Buy credits", the spend cap with
// this period's spend against it, auto top-up, and the ledger, newest first. The provider's customer page shows the
// same lots (GrantsTable). Everything is read with the API's own domain functions.

export type CreditSummary = Awaited<ReturnType<typeof creditSummary>>;

const ENTRY_LABEL: Record<string, string> = {
  purchase: "Purchase",
  grant: "Grant",
  burn: "Call",
  expiry: "Expired",
  refund: "Refund",
  adjustment: "Adjustment",
  invoice: "Applied to invoice",
  auto_recharge: "Auto top-up",
};

/** `2026-11-29 07:30 UTC`. */
export const dateTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

const percentOf = (part: string, whole: string) => {
  const w = Number(whole);
  return w > 0 ? Math.round((Number(part) / w) * 1000) / 10 : 0;
};

/** The banner of a period whose spend crossed a threshold of the cap, or of prepaid credits that ran out. */
export function CreditBanners({ summary, periodEnd, product }: { summary: CreditSummary; periodEnd: string; product?: string }) {
  const notes: { tone: "warning" | "danger"; text: ReactNode; id: string }[] = [];
  const cap = summary.spendCap;
  const top = summary.spendAlerts.length ? Math.max(...summary.spendAlerts) : null;
  const of = product ? ` of ${product}` : "";
  if (cap && top !== null) {
    const capText = decimalMoney(cap.amount, summary.currency);
    if (top >= 100)
      notes.push({
        id: "cap",
        tone: "danger",
        text:
          cap.action === "block" ? (
            <>
              <strong>Spend cap reached{of}:</strong> {decimalMoney(summary.periodSpend, summary.currency)} spent of your {capText} cap.
              Calls are refused (402 SPEND_CAP_REACHED) until the period ends on {day(periodEnd)}, or until you raise the cap.
            </>
          ) : (
            <>
              <strong>Spend cap reached{of}:</strong> {decimalMoney(summary.periodSpend, summary.currency)} spent of your {capText} cap.
              Calls go on: this cap only notifies.
            </>
          ),
      });
    else
      notes.push({
        id: "cap",
        tone: "warning",
        text: (
          <>
            <strong>
              {top} % of your {capText} cap is spent{of}
            </strong>{" "}
            this period ({decimalMoney(summary.periodSpend, summary.currency)} so far, until {day(periodEnd)}).
          </>
        ),
      });
  }
  if (summary.billing === "prepaid" && Number(summary.balance) <= 0)
    notes.push({
      id: "empty",
      tone: "danger",
      text: (
        <>
          <strong>No credits left{of}:</strong> calls of this prepaid plan are refused (402 INSUFFICIENT_CREDITS) until you buy credits.
        </>
      ),
    });
  if (!notes.length) return null;
  return (
    <div className="space-y-2">
      {notes.map((n) => (
        <p
          key={n.id}
          role="status"
          data-testid={`credits-banner-${n.id}`}
          className={
            n.tone === "danger"
              ? "rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
              : "rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          }
        >
          {n.text}
        </p>
      ))}
    </div>
  );
}

/** The period's spend against the cap, as a meter. */
export function SpendMeter({ summary, label }: { summary: CreditSummary; label: string }) {
  const cap = summary.spendCap;
  if (!cap) return null;
  const pct = percentOf(summary.periodSpend, cap.amount);
  const shown = Math.min(100, pct);
  return (
    <div className="space-y-1" data-testid="spend-meter">
      <p className="text-sm">
        <span className="font-medium tabular-nums">{decimalMoney(summary.periodSpend, summary.currency)}</span> of{" "}
        <span className="tabular-nums">{decimalMoney(cap.amount, summary.currency)}</span> this period ({pct} %)
      </p>
      <div
        className="h-3 rounded bg-slate-200 dark:bg-slate-800"
        role="meter"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={shown}
        aria-label={label}
      >
        <div
          className={`h-3 rounded ${pct >= 100 ? "bg-red-500" : pct >= 80 ? "bg-amber-500" : "bg-indigo-500"}`}
          style={{ width: `${shown}%` }}
        />
      </div>
    </div>
  );
}

/** The lots credits are spent from (purchases, grants, top-ups), oldest-expiring first, with what is left of each. */
export function GrantsTable({ summary, caption }: { summary: CreditSummary; caption: string }) {
  if (!summary.grants.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No credits bought or granted yet.</p>;
  return (
    <div className="max-h-72 overflow-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm" data-testid="credit-grants">
        <caption className="sr-only">{caption}</caption>
        <thead className="text-xs uppercase text-slate-600 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Credits
            </th>
            <th scope="col" className="pr-3 text-right">
              Given
            </th>
            <th scope="col" className="pr-3 text-right">
              Left
            </th>
            <th scope="col">Expires</th>
          </tr>
        </thead>
        <tbody>
          {[...summary.grants].reverse().map((g) => (
            <tr key={g.id} className="border-t border-slate-100 align-top dark:border-slate-800">
              <td className="py-2 pr-3">
                {ENTRY_LABEL[g.type] ?? g.type} <span className="text-xs text-slate-600 dark:text-slate-400">{day(g.createdAt)}</span>
                {g.note ? <span className="block text-xs text-slate-600 break-words dark:text-slate-400">{g.note}</span> : null}
              </td>
              <td className="whitespace-nowrap pr-3 text-right tabular-nums">{decimalMoney(g.amount, summary.currency)}</td>
              <td className="whitespace-nowrap pr-3 text-right tabular-nums">{decimalMoney(g.remaining, summary.currency)}</td>
              <td className="whitespace-nowrap text-xs">
                {g.expiresAt ? (g.expired !== null ? `Lapsed ${day(g.expiresAt)}` : day(g.expiresAt)) : "Never"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Every entry of the ledger, newest first, in a box that scrolls on its own (a phone's screen keeps its width). */
export function LedgerTable({ entries, currency, caption }: { entries: LedgerEntry[]; currency: string; caption: string }) {
  if (!entries.length) return <p className="text-sm text-slate-600 dark:text-slate-400">No credits bought, granted or spent yet.</p>;
  return (
    <div className="max-h-96 overflow-auto" tabIndex={0} role="region" aria-label={caption}>
      <table className="w-full text-left text-sm" data-testid="credit-ledger">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-white text-xs uppercase text-slate-600 dark:bg-slate-900 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-2 pr-3">
              Date
            </th>
            <th scope="col" className="pr-3">
              Type
            </th>
            <th scope="col" className="pr-3 text-right">
              Amount
            </th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} className="border-t border-slate-100 align-top dark:border-slate-800" data-testid={`ledger-${e.type}`}>
              <td className="whitespace-nowrap py-2 pr-3 text-xs tabular-nums">{dateTime(e.createdAt)}</td>
              <td className="whitespace-nowrap pr-3">{ENTRY_LABEL[e.type] ?? e.type}</td>
              <td
                className={`whitespace-nowrap pr-3 text-right tabular-nums ${
                  e.amount.startsWith("-") ? "" : "text-emerald-700 dark:text-emerald-400"
                }`}
              >
                {decimalMoney(e.amount, e.currency || currency, { signed: true })}
              </td>
              <td className="min-w-40 text-xs">
                {e.note ? <span className="block break-words">{e.note}</span> : null}
                {e.requestId ? <code className="block break-all">{e.requestId}</code> : null}
                {e.invoiceId ? <code className="block break-all">Invoice {e.invoiceId}</code> : null}
                {!e.note && !e.requestId && !e.invoiceId ? "—" : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const BILLING_TEXT = {
  prepaid: "This plan is prepaid: each call is paid from these credits, and refused (402 INSUFFICIENT_CREDITS) when they run out.",
  postpaid: "Credits pay your invoices of this plan first; the card is charged for what is left.",
};

/** What the consumer's credit cards show: the balance, cap and lots, and the newest 50 ledger entries. */
export async function loadCredits(auth: AuthContext, subscriptionId: string) {
  const [summary, ledger] = await Promise.all([
    subscriptionCredits(auth, subscriptionId),
    creditLedger(auth, subscriptionId, firstPage(CREDIT_LEDGER_COLLECTION, 50)),
  ]);
  // No `fields` was asked for: each entry is whole.
  return { summary, ledger: { data: ledger.data as LedgerEntry[], hasMore: ledger.pagination.hasMore } };
}
export type LoadedCredits = Awaited<ReturnType<typeof loadCredits>>;

/**
 * The consumer's credit cards for one subscription (the page shows CreditBanners at its top). `product` names it
 * in the titles when a page shows several (a product portal's settings). Forms only for a current subscription and
 * a role that may change it.
 */
export function ConsumerCredits({
  auth,
  subscription,
  credits: { summary, ledger },
  product,
}: {
  auth: AuthContext;
  subscription: {
    id: string;
    status: string;
    environment: string;
    paymentMethod: { brand: string; last4: string } | null;
  };
  credits: LoadedCredits;
  product?: string;
}) {
  const current = isCurrentSubscription(subscription.status);
  const canWrite = current && scopeGrants(auth.scopes, "subscriptions:write");
  const of = product ? ` for ${product}` : "";
  const card = subscription.paymentMethod ? `${subscription.paymentMethod.brand} ending ${subscription.paymentMethod.last4}` : null;
  return (
    <div className="space-y-6" data-testid="credits-section">
      <Card
        title={`Credits${of}`}
        actions={
          <Badge tone={summary.billing === "prepaid" ? "info" : "neutral"}>{summary.billing === "prepaid" ? "Prepaid" : "Postpaid"}</Badge>
        }
      >
        <div data-testid="credits-card" className="space-y-4">
          <div className="flex flex-wrap items-baseline gap-x-6 gap-y-1">
            <p>
              <span className="block text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Balance</span>
              <span className="text-2xl font-semibold tabular-nums" data-testid="credits-balance">
                {decimalMoney(summary.balance, summary.currency)}
              </span>
            </p>
            {Number(summary.pending) > 0 ? (
              <p className="text-sm" data-testid="credits-pending">
                <span className="tabular-nums">{decimalMoney(summary.pending, summary.currency)}</span> reserved by calls in flight
              </p>
            ) : null}
            <p className="text-sm text-slate-600 dark:text-slate-400">
              {decimalMoney(summary.granted, summary.currency)} added, {decimalMoney(summary.spent, summary.currency)} spent
              {Number(summary.expired) > 0 ? `, ${decimalMoney(summary.expired, summary.currency)} expired` : ""}
            </p>
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-400">{BILLING_TEXT[summary.billing]}</p>
          {canWrite ? (
            <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
              <h3 className="mb-2 text-sm font-semibold">Buy credits</h3>
              <BuyCreditsForm
                subscriptionId={subscription.id}
                currency={summary.currency}
                card={card}
                testMode={subscription.environment === "test"}
              />
            </div>
          ) : null}
          {summary.grants.length ? (
            <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
              <h3 className="mb-2 text-sm font-semibold">What is left, spent oldest-expiring first</h3>
              <GrantsTable summary={summary} caption={`Credits${of} and what is left of each`} />
            </div>
          ) : null}
        </div>
      </Card>
      <Card title={`Spend cap${of}`}>
        <div className="space-y-4" data-testid="spend-cap-card">
          {summary.spendCap ? (
            <>
              <p className="text-sm" data-testid="spend-cap-current">
                Cap <strong className="tabular-nums">{decimalMoney(summary.spendCap.amount, summary.currency)}</strong> per period,{" "}
                {summary.spendCap.action === "block" ? "calls refused at the cap" : "notify only"}; alerts at{" "}
                {summary.spendCap.thresholds.map((t) => `${t} %`).join(", ")}.
              </p>
              <SpendMeter summary={summary} label={`This period's spend${of} against the cap`} />
            </>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="spend-cap-current">
              No cap: {decimalMoney(summary.periodSpend, summary.currency)} spent this period. A cap sends alerts (webhook
              billing.spend_threshold) as the period&apos;s spend nears it, and can refuse calls at it.
            </p>
          )}
          {canWrite ? <SpendCapForm subscriptionId={subscription.id} currency={summary.currency} current={summary.spendCap} /> : null}
        </div>
      </Card>
      <Card title={`Auto top-up${of}`}>
        <div className="space-y-4" data-testid="auto-recharge-card">
          <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="auto-recharge-current">
            {summary.autoRecharge
              ? `On: when the balance falls below ${decimalMoney(summary.autoRecharge.below, summary.currency)}, ${decimalMoney(
                  summary.autoRecharge.amount,
                  summary.currency,
                )} is bought with the card, at most ${decimalMoney(summary.autoRecharge.monthlyLimit, summary.currency)} a month.`
              : "Off. Auto top-up buys credits with the subscription's card when the balance runs low."}
          </p>
          {canWrite ? (
            <AutoRechargeForm subscriptionId={subscription.id} currency={summary.currency} current={summary.autoRecharge} />
          ) : null}
        </div>
      </Card>
      <Card title={`Credit ledger${of}`}>
        <LedgerTable entries={ledger.data} currency={summary.currency} caption={`Credit ledger${of}, newest first`} />
        {ledger.hasMore ? (
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            The newest 50 entries; GET /v1/subscriptions/{subscription.id}/credit-ledger?cursor=… (its pagination.nextCursor) pages back.
          </p>
        ) : null}
      </Card>
    </div>
  );
}

/**
 * The provider's view of a customer's credits (/portal/customers/{id}): per subscription to its products, the
 * balance, what was added, spent and lapsed, the cap, and the lots; and "Grant credits" (promotional, support).
 */
export function ProviderCredits({
  customerId,
  balances,
  subscriptions,
  canWrite,
}: {
  customerId: string;
  balances: CreditSummary[];
  /** The subscriptions' names, by id: product and plan, and whether it is current. */
  subscriptions: Map<string, { product: string; plan: string; current: boolean }>;
  canWrite: boolean;
}) {
  const label = (id: string) => {
    const s = subscriptions.get(id);
    return s ? `${s.product}: ${s.plan}` : id;
  };
  const grantable = balances
    .filter((b) => subscriptions.get(b.subscriptionId)?.current)
    .map((b) => ({ id: b.subscriptionId, label: label(b.subscriptionId), currency: b.currency }));
  return (
    <Card title="Credits">
      <div className="space-y-6" data-testid="customer-credits">
        {balances.map((b) => (
          <section
            key={b.subscriptionId}
            aria-label={`Credits of ${label(b.subscriptionId)}`}
            data-testid={`customer-credits-${b.subscriptionId}`}
          >
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="text-sm font-semibold">{label(b.subscriptionId)}</h3>
              <Badge tone={b.billing === "prepaid" ? "info" : "neutral"}>{b.billing === "prepaid" ? "Prepaid" : "Postpaid"}</Badge>
            </div>
            <dl className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-[repeat(4,max-content)]">
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Balance</dt>
                <dd className="font-semibold tabular-nums" data-testid="customer-credits-balance">
                  {decimalMoney(b.balance, b.currency)}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Added</dt>
                <dd className="tabular-nums">{decimalMoney(b.granted, b.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Spent</dt>
                <dd className="tabular-nums">{decimalMoney(b.spent, b.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs text-slate-600 dark:text-slate-400">Expired</dt>
                <dd className="tabular-nums">{decimalMoney(b.expired, b.currency)}</dd>
              </div>
              <div className="col-span-2 sm:col-span-4">
                <dt className="text-xs text-slate-600 dark:text-slate-400">Spend cap this period</dt>
                <dd className="tabular-nums">
                  {b.spendCap
                    ? `${decimalMoney(b.periodSpend, b.currency)} of ${decimalMoney(b.spendCap.amount, b.currency)} (${
                        b.spendCap.action === "block" ? "calls refused at the cap" : "notify only"
                      })${b.spendAlerts.length ? `, ${Math.max(...b.spendAlerts)} % alert sent` : ""}`
                    : `No cap; ${decimalMoney(b.periodSpend, b.currency)} spent`}
                </dd>
              </div>
            </dl>
            <div className="mt-3">
              <GrantsTable summary={b} caption={`Credits of ${label(b.subscriptionId)} and what is left of each`} />
            </div>
          </section>
        ))}
        {canWrite && grantable.length ? (
          <div className="border-t border-slate-200 pt-4 dark:border-slate-800">
            <h3 className="mb-2 text-sm font-semibold">Grant credits</h3>
            <GrantCreditsForm customerId={customerId} subscriptions={grantable} />
          </div>
        ) : null}
      </div>
    </Card>
  );
}

/** Whether a subscription's credits are worth a glance: a prepaid plan, credits held or given, or a cap set. */
export const creditsInUse = (s: CreditSummary) =>
  s.billing === "prepaid" || Number(s.granted) > 0 || s.spendCap !== null || s.autoRecharge !== null;

/**
 * A subscription's credits at a glance, for a product portal's dashboard: the balance, the cap and the period's
 * spend, and a link to where credits are bought and limits set.
 */
export function CreditsGlance({ summary, title, manageHref }: { summary: CreditSummary; title: string; manageHref: string }) {
  return (
    <Card title={title} actions={summary.billing === "prepaid" ? <Badge tone="info">Prepaid</Badge> : undefined}>
      <p className="text-3xl font-semibold tabular-nums" data-testid="dashboard-credits">
        {decimalMoney(summary.balance, summary.currency)}
      </p>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {summary.billing === "prepaid" ? "of credits left: each call is paid from them." : "of credits, applied to your invoices first."}
      </p>
      {summary.spendCap ? (
        <div className="mt-3">
          <SpendMeter summary={summary} label={`${title}: this period's spend against the cap`} />
        </div>
      ) : null}
      <p className="mt-3 text-sm">
        <Link href={manageHref}>Buy credits and set limits</Link>
      </p>
    </Card>
  );
}
