import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/http/errors";
import { requirePortalContext } from "@/lib/portal/portal-context";
import { consumerSubscription } from "@/lib/billing/marketplace-views";
import { Badge, Card } from "@/components/ui/primitives";
import { CancelSubscription, ProductKeyCard } from "@/components/marketplace/subscription-actions";
import { day, minorMoney, statusTone } from "@/components/marketplace/format";
import { ConsumerCredits, CreditBanners, loadCredits } from "@/components/marketplace/credits-panel";
import { UsageCorrectionsCard } from "@/components/portal/usage-corrections-card";
import { usageCorrections } from "@/lib/portal/usage-corrections";
import { isCurrentSubscription } from "@/lib/schemas/billing";
import { grants } from "@/lib/auth/scopes";
import { firstPage } from "@/lib/http/collection-query";
import { paymentProviderName } from "@/lib/billing/payment-provider";
import { PAYMENT_METHOD_COLLECTION, listPaymentMethods } from "@/lib/billing/payment-methods";
import { subscriptionInvoices } from "@/lib/portal/subscription-invoices";
import { PaymentDueBanner, SubscriptionInvoicesCard } from "@/components/marketplace/subscription-invoices";
import { PaymentMethodCard, type SavedPaymentMethod } from "@/components/marketplace/payment-method-card";

// One subscription: product, seller, plan, status and period; its credits, spend cap, auto top-up and credit
// ledger (issue 39); its corrected usage with the seller's reasons (issue 40); what is owed when a payment failed,
// its invoices with their attempts and refunds, "Pay now", and the card (issue 60); a key limited to the product; canceling.

export const metadata = { title: "Subscription · Developer Portal" };

export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requirePortalContext();
  const { id } = await params;
  const sub = await consumerSubscription(ctx.auth, id).catch((e) => {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  });
  const current = isCurrentSubscription(sub.status);
  const [credits, corrections, billed, methods] = await Promise.all([
    loadCredits(ctx.auth, sub.id),
    usageCorrections(ctx.auth.businessId, [sub.id]),
    subscriptionInvoices(ctx.auth, sub.id),
    listPaymentMethods(ctx.auth, firstPage(PAYMENT_METHOD_COLLECTION, 10)),
  ]);
  const canPay = grants(ctx.auth.scopes, "invoices:write");
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link href="/portal/subscriptions">← Subscriptions</Link>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-bold">{sub.productName}</h1>
        <Badge tone={statusTone(sub.status)}>{sub.status.replace("_", " ")}</Badge>
      </div>
      <PaymentDueBanner subscription={sub} invoices={billed.invoices} canPay={canPay} />
      <CreditBanners summary={credits.summary} periodEnd={sub.currentPeriodEnd} />
      <Card title="Subscription">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]" data-testid="subscription-details">
          <dt className="text-slate-500">Product</dt>
          <dd>
            {sub.productSlug ? <Link href={`/catalog/${sub.productSlug}`}>{sub.productName}</Link> : sub.productName}{" "}
            <span className="font-mono text-xs text-slate-500">{sub.productId}</span>
          </dd>
          <dt className="text-slate-500">Seller</dt>
          <dd>{sub.sellerName}</dd>
          <dt className="text-slate-500">Plan</dt>
          <dd>{sub.priceName}</dd>
          <dt className="text-slate-500">Status</dt>
          <dd>
            {sub.status.replace("_", " ")}
            {sub.cancelAtPeriodEnd && current ? `, ends on ${day(sub.currentPeriodEnd)}` : ""}
            {sub.canceledAt ? `, canceled on ${day(sub.canceledAt)}` : ""}
          </dd>
          <dt className="text-slate-500">Current period</dt>
          <dd>
            {day(sub.currentPeriodStart)} to {day(sub.currentPeriodEnd)}
          </dd>
          <dt className="text-slate-500">So far this period</dt>
          <dd className="tabular-nums" data-testid="subscription-amount">
            {minorMoney(sub.periodAmount, sub.currency)}
          </dd>
          <dt className="text-slate-500">Card</dt>
          <dd>{sub.paymentMethod ? `${sub.paymentMethod.brand} ending ${sub.paymentMethod.last4}` : "—"}</dd>
          <dt className="text-slate-500">Environment</dt>
          <dd>{sub.environment === "test" ? "Test (never charged)" : "Live"}</dd>
        </dl>
      </Card>
      <PaymentMethodCard
        provider={paymentProviderName()}
        subscription={sub}
        methods={methods.data as SavedPaymentMethod[]}
        canWrite={grants(ctx.auth.scopes, "subscriptions:write")}
        current={current}
      />
      <SubscriptionInvoicesCard subscriptionId={sub.id} invoices={billed.invoices} hasMore={billed.hasMore} canPay={canPay} />
      <ConsumerCredits auth={ctx.auth} subscription={sub} credits={credits} />
      <UsageCorrectionsCard
        corrections={corrections}
        description="Usage the seller amended or voided after reporting it, and why. The difference is billed (or refunded) with the period it belongs to."
      />
      <ProductKeyCard subscriptionId={sub.id} productName={sub.productName} active={current} />
      {current ? (
        <Card title="Cancel">
          <CancelSubscription subscriptionId={sub.id} cancelAtPeriodEnd={sub.cancelAtPeriodEnd} />
        </Card>
      ) : null}
    </div>
  );
}
