import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { withEvents } from "@/lib/events/emit-event";
import { emitPaymentEvent } from "./payment-events";
import { payPath } from "./entitlement";
import { nextRetryDelayMs, subscriptionAfterFailure, subscriptionAfterPayment } from "./dunning";
import { paymentProvider, type StoredPaymentMethod } from "./payment-provider";
import { invalidateBillingCache } from "./rate-request";
import { chargeParties } from "./payment-parties";
import { sendBillingMail } from "./billing-mail";

// Collecting an invoice: charged when it is finalised, retried after a failure on the dunning schedule
// (lib/billing/dunning.ts: past_due while retrying, unpaid after the last failure, active again once paid).
// Each outcome is an event to the consumer and, when another business sells the product, to the seller.
//
// An attempt is claimed by a conditional update of attemptCount (two processes never charge one attempt twice),
// which also sets nextPaymentAttempt CLAIM_MS ahead: a process killed between Stripe's answer and its commit leaves
// an attempt with no payment recorded, which the retry job replays once the claim lapses, as the same attempt with
// the same idempotency key, so Stripe answers what it did the first time instead of charging again. (When the
// PaymentIntent succeeded, its event or the reconciliation job may have recorded it first: the invoice is then paid.)

const CLAIM_MS = 10 * 60_000;

export async function collectInvoice(invoiceId: string): Promise<"paid" | "failed" | "skipped"> {
  const invoice = await db.invoice.findUnique({ where: { id: invoiceId } });
  if (!invoice || invoice.status !== "open") return "skipped";
  const unrecorded = invoice.attemptCount > 0 && (await db.payment.count({ where: { invoiceId, attempt: invoice.attemptCount } })) === 0;
  // Another process is on this attempt right now (its claim has not lapsed).
  if (unrecorded && invoice.nextPaymentAttempt && invoice.nextPaymentAttempt > now()) return "skipped";
  const attempt = unrecorded ? invoice.attemptCount : invoice.attemptCount + 1;
  const claimed = await db.invoice.updateMany({
    where: { id: invoice.id, status: "open", attemptCount: invoice.attemptCount, nextPaymentAttempt: invoice.nextPaymentAttempt },
    data: { attemptCount: attempt, nextPaymentAttempt: new Date(now().getTime() + CLAIM_MS), updatedAt: now() },
  });
  if (claimed.count !== 1) return "skipped";
  const sub = await db.subscription.findUnique({ where: { id: invoice.subscriptionId } });
  const amountDue = invoice.total - invoice.amountPaid;
  const t = now();

  if (amountDue <= 0) {
    // Nothing to charge (a period inside the free allowance): paid without a payment.
    await db.invoice.update({ where: { id: invoice.id }, data: { status: "paid", paidAt: t, nextPaymentAttempt: null, updatedAt: t } });
    return "paid";
  }
  const pm = (sub?.paymentMethod as StoredPaymentMethod | null) ?? null;
  const provider = paymentProvider();
  const parties = await chargeParties(invoice.providerId, invoice.businessId, amountDue);
  const result = pm
    ? await provider.charge({
        amount: amountDue,
        currency: invoice.currency,
        paymentMethod: pm,
        // The invoice and the attempt: a retry after a crash between Stripe's answer and our commit replays the
        // same PaymentIntent rather than charging again.
        idempotencyKey: `${invoice.id}:${attempt}`,
        description: `Invoice ${invoice.number}`,
        metadata: {
          invoice_id: invoice.id,
          attempt: String(attempt),
          business_id: invoice.businessId,
          seller_id: invoice.providerId ?? "",
        },
        ...parties,
      })
    : {
        status: "failed" as const,
        providerRef: null,
        failureCode: "no_payment_method",
        failureMessage: "The subscription has no payment method.",
      };

  const retryDelay = result.status === "succeeded" ? null : nextRetryDelayMs(attempt);
  const nextPaymentAttempt = retryDelay === null ? null : new Date(t.getTime() + retryDelay);
  await withEvents(async (tx) => {
    const payment = await tx.payment.create({
      data: {
        id: newId("payment"),
        businessId: invoice.businessId,
        environment: invoice.environment,
        invoiceId: invoice.id,
        amount: amountDue,
        currency: invoice.currency,
        status: result.status,
        provider: provider.name,
        providerRef: result.providerRef,
        failureCode: result.status === "failed" ? result.failureCode : null,
        failureMessage: result.status === "failed" ? result.failureMessage : null,
        attempt,
        createdAt: t,
        destination: parties.destination ?? null,
        applicationFee: parties.applicationFee ?? null,
        transferId: result.status === "succeeded" ? (result.transferId ?? null) : null,
      },
    });
    const outcome = {
      failureCode: payment.failureCode,
      failureMessage: payment.failureMessage,
      nextPaymentAttempt: nextPaymentAttempt?.toISOString() ?? null,
      lastAttempt: result.status !== "succeeded" && retryDelay === null,
    };
    await emitPaymentEvent(tx, invoice, result.status === "succeeded" ? "payment.succeeded" : "payment.failed", payment, outcome);
    // The bank wants the card holder present (3-D Secure): they confirm it on the subscription's page with Stripe.js.
    if (payment.failureCode === "authentication_required")
      await emitPaymentEvent(tx, invoice, "payment.action_required", payment, { ...outcome, payUrl: payPath(invoice.subscriptionId) });
    if (result.status === "succeeded") {
      await tx.invoice.update({
        where: { id: invoice.id },
        data: { status: "paid", amountPaid: invoice.amountPaid + amountDue, paidAt: t, nextPaymentAttempt: null, updatedAt: t },
      });
      await subscriptionAfterPayment(tx, sub, invoice.id);
      return;
    }
    // After the last failure the invoice stays open, for the consumer to pay with another card.
    await tx.invoice.update({
      where: { id: invoice.id },
      data: { nextPaymentAttempt, updatedAt: t },
    });
    await subscriptionAfterFailure(tx, sub, retryDelay === null);
  });
  if (sub) invalidateBillingCache(sub.projectId, sub.environment);
  if (result.status !== "succeeded") {
    const kind = result.failureCode === "authentication_required" ? "action_required" : retryDelay === null ? "unpaid" : "payment_failed";
    void sendBillingMail(kind, {
      id: invoice.id,
      number: invoice.number,
      businessId: invoice.businessId,
      amountDue,
      currency: invoice.currency,
      failureMessage: result.failureMessage,
      nextPaymentAttempt,
      payPath: payPath(invoice.subscriptionId),
    });
  }
  return result.status === "succeeded" ? "paid" : "failed";
}
