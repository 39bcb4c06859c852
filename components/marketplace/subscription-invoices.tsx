import { Badge, Card } from "@/components/ui/primitives";
import type { SubscriptionInvoice } from "@/lib/portal/subscription-invoices";
import { dateTime } from "./credits-panel";
import { day, minorMoney } from "./format";
import { PayInvoiceButton } from "./pay-invoice-button";

// A subscription's money as its consumer sees it (issue 60): a banner while a payment is owed (past_due: a failed
// charge being retried, calls still served; unpaid: every retry failed, calls refused until the invoice is paid),
// and the subscription's invoices, each with its state, every payment attempt (outcome and failure code), its
// refunds, and "Pay now" while it is open. Plain lists rather than tables, so each invoice fits a phone's width.

const INVOICE_TONE = { paid: "success", open: "warning", uncollectible: "danger", draft: "info", upcoming: "info" } as const;

const PAYMENT_LABEL: Record<string, string> = { succeeded: "paid", failed: "failed", pending: "pending", requires_action: "needs you" };

const REFUND_REASON: Record<string, string> = {
  duplicate: "duplicate",
  fraudulent: "fraudulent",
  requested_by_customer: "requested by you",
};

const open = (invoices: SubscriptionInvoice[]) => invoices.filter((i) => i.status === "open" && i.amountDue > 0);

/** The banner of a past_due or unpaid subscription: why, until when, how much, and the button that pays. */
export function PaymentDueBanner({
  subscription,
  invoices,
  canPay,
}: {
  subscription: { id: string; status: string; productName: string };
  invoices: SubscriptionInvoice[];
  canPay: boolean;
}) {
  const { status, productName } = subscription;
  if (status !== "past_due" && status !== "unpaid") return null;
  const owed = open(invoices);
  const currency = owed[0]?.currency ?? null;
  const due = owed.filter((i) => i.currency === currency).reduce((n, i) => n + i.amountDue, 0);
  // past_due: the invoice whose retry comes first; unpaid: the one whose retries are used up.
  const retrying = owed.filter((i) => i.nextPaymentAttempt).sort((a, b) => a.nextPaymentAttempt!.localeCompare(b.nextPaymentAttempt!))[0];
  const invoice = status === "past_due" ? (retrying ?? owed[0]) : (owed.find((i) => !i.nextPaymentAttempt) ?? owed[0]);
  const reason = invoice?.payments.at(-1)?.failureMessage;
  const amount = owed.length ? (
    <>
      {" "}
      Amount due: <strong className="tabular-nums">{minorMoney(due, currency)}</strong>.
    </>
  ) : null;
  return (
    <div
      role="status"
      data-testid={`payment-banner-${status}`}
      className={
        status === "unpaid"
          ? "space-y-3 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
          : "space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      }
    >
      {status === "past_due" ? (
        <p>
          <strong>A payment failed{reason ? `: ${reason.replace(/\.$/, "")}` : ""}.</strong>{" "}
          {retrying?.nextPaymentAttempt
            ? `It is retried on ${dateTime(retrying.nextPaymentAttempt)}; calls to ${productName} are served meanwhile.`
            : `Calls to ${productName} are served while it is retried.`}
          {amount}
        </p>
      ) : (
        <p>
          <strong>
            Calls to {productName} are refused until {invoice?.number ? `invoice ${invoice.number}` : "the open invoice"} is paid
          </strong>{" "}
          (402 SUBSCRIPTION_UNPAID): every charge of it failed{reason ? ` (${reason.replace(/\.$/, "")})` : ""}.{amount}
        </p>
      )}
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        {invoice && canPay ? (
          <PayInvoiceButton
            subscriptionId={subscription.id}
            invoiceId={invoice.id}
            label={`Pay ${minorMoney(invoice.amountDue, invoice.currency)} now`}
          />
        ) : null}
        <p className="min-w-0 flex-1 basis-56">
          {canPay
            ? "Or add another card under Payment method: it pays open invoices at once."
            : "An owner or admin of your business can pay it."}
        </p>
      </div>
    </div>
  );
}

function Attempts({ invoice }: { invoice: SubscriptionInvoice }) {
  if (!invoice.payments.length)
    return (
      <p className="text-xs text-slate-600 dark:text-slate-400">{invoice.status === "paid" ? "Nothing to charge." : "Not charged yet."}</p>
    );
  return (
    <ol className="space-y-1 text-xs" aria-label={`Payment attempts of ${invoice.number ?? "the invoice"}`}>
      {invoice.payments.map((p) => (
        <li key={p.id} data-testid="payment-attempt" className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className="font-medium">Attempt {p.attempt}</span>
          <span className="tabular-nums text-slate-600 dark:text-slate-400">{dateTime(p.createdAt)}</span>
          <Badge tone={p.status === "succeeded" ? "success" : p.status === "failed" ? "danger" : "warning"}>
            {PAYMENT_LABEL[p.status] ?? p.status}
          </Badge>
          <span className="tabular-nums">{minorMoney(p.amount, invoice.currency)}</span>
          {p.failureCode ? <code className="break-all">{p.failureCode}</code> : null}
          {p.failureMessage ? <span className="min-w-0 break-words">{p.failureMessage}</span> : null}
        </li>
      ))}
    </ol>
  );
}

function Refunds({ invoice }: { invoice: SubscriptionInvoice }) {
  if (!invoice.refunds.length) return null;
  return (
    <ul className="space-y-1 text-xs" aria-label={`Refunds of ${invoice.number ?? "the invoice"}`}>
      {invoice.refunds.map((r) => (
        <li key={r.id} data-testid="invoice-refund" className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className="font-medium">Refund</span>
          <span className="tabular-nums text-slate-600 dark:text-slate-400">{dateTime(r.createdAt)}</span>
          <span className="tabular-nums">{minorMoney(r.amount, r.currency)}</span>
          <Badge tone={r.status === "succeeded" ? "success" : r.status === "failed" ? "danger" : "warning"}>
            {r.status === "succeeded" ? "refunded" : r.status}
          </Badge>
          {r.reason ? <span>{REFUND_REASON[r.reason] ?? r.reason}</span> : null}
        </li>
      ))}
    </ul>
  );
}

function InvoiceItem({ invoice, subscriptionId, canPay }: { invoice: SubscriptionInvoice; subscriptionId: string; canPay: boolean }) {
  const payable = invoice.status === "open" && invoice.amountDue > 0;
  const refunded = invoice.amountRefunded;
  const facts = [
    `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`,
    invoice.paidAt ? `paid ${dateTime(invoice.paidAt)}` : null,
    invoice.status === "draft" && invoice.finalizesAt ? `finalised on ${dateTime(invoice.finalizesAt)}` : null,
    payable ? `${minorMoney(invoice.amountDue, invoice.currency)} due` : null,
    payable && invoice.nextPaymentAttempt ? `next attempt ${dateTime(invoice.nextPaymentAttempt)}` : null,
    payable && !invoice.nextPaymentAttempt && invoice.attemptCount > 0 ? "no retry left" : null,
  ].filter(Boolean);
  return (
    <li className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800" data-testid={`invoice-${invoice.id}`}>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="break-all font-mono text-sm">{invoice.number}</span>
        <Badge tone={INVOICE_TONE[invoice.status]}>{invoice.status}</Badge>
        {refunded > 0 ? <Badge tone="info">{refunded >= invoice.amountPaid ? "refunded" : "partly refunded"}</Badge> : null}
        {invoice.disputed ? <Badge tone="danger">disputed</Badge> : null}
        <span className="ml-auto font-semibold tabular-nums" data-testid="subscription-invoice-total">
          {minorMoney(invoice.total, invoice.currency)}
        </span>
      </div>
      <p className="text-xs text-slate-600 dark:text-slate-400">{facts.join(" · ")}</p>
      <Attempts invoice={invoice} />
      <Refunds invoice={invoice} />
      {invoice.disputed ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">You disputed a payment of this invoice with your bank.</p>
      ) : null}
      {payable ? (
        canPay ? (
          <PayInvoiceButton subscriptionId={subscriptionId} invoiceId={invoice.id} name={`Pay now: ${invoice.number}`} />
        ) : (
          <p className="text-xs text-slate-600 dark:text-slate-400">An owner or admin of your business can pay it.</p>
        )
      ) : null}
    </li>
  );
}

export function SubscriptionInvoicesCard({
  subscriptionId,
  invoices,
  hasMore,
  canPay,
}: {
  subscriptionId: string;
  invoices: SubscriptionInvoice[];
  hasMore: boolean;
  canPay: boolean;
}) {
  return (
    <Card title="Invoices">
      <div data-testid="subscription-invoices" className="space-y-3">
        {invoices.length ? (
          <ul className="space-y-3">
            {invoices.map((i) => (
              <InvoiceItem key={i.id} invoice={i} subscriptionId={subscriptionId} canPay={canPay} />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            No invoices yet: the running period is invoiced and charged when it ends (or when the subscription is canceled now).
          </p>
        )}
        {hasMore ? (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            The newest {invoices.length}; GET /v1/invoices?subscriptionId={subscriptionId} lists them all.
          </p>
        ) : null}
      </div>
    </Card>
  );
}
