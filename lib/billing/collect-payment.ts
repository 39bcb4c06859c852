import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import { emitSubscriptionEvent } from "./subscription-events";
import { paymentProvider, type StoredPaymentMethod } from "./payment-provider";
import { invalidateBillingCache } from "./rate-request";
import { minorToDecimal } from "./money";
import { chargeParties } from "./payment-parties";

// Collecting an invoice: charged when it is finalised, retried after a failure 1, 3 and 5 days later (4 attempts
// in all, like Stripe's default retry schedule). The third failed attempt sets the subscription past_due; a later
// success sets it back to active. After the 4th failure the invoice is uncollectible and no more is tried.
// An attempt is claimed by a conditional update of attemptCount, so two processes never charge one attempt twice.

const DAY = 86_400_000;
export const RETRY_DELAYS_MS = [1 * DAY, 3 * DAY, 5 * DAY];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const PAST_DUE_AFTER_FAILURES = 3;

export async function collectInvoice(invoiceId: string): Promise<"paid" | "failed" | "skipped"> {
  const invoice = await db.invoice.findUnique({ where: { id: invoiceId } });
  if (!invoice || invoice.status !== "open") return "skipped";
  const sub = await db.subscription.findUnique({ where: { id: invoice.subscriptionId } });
  const attempt = invoice.attemptCount + 1;
  const claimed = await db.invoice.updateMany({
    where: { id: invoice.id, status: "open", attemptCount: invoice.attemptCount },
    data: { attemptCount: attempt, nextPaymentAttempt: null, updatedAt: now() },
  });
  if (claimed.count !== 1) return "skipped";
  const amountDue = invoice.total - invoice.amountPaid;
  const t = now();

  if (amountDue <= 0) {
    // Nothing to charge (a period inside the free allowance): paid without a payment.
    await db.invoice.update({ where: { id: invoice.id }, data: { status: "paid", paidAt: t, updatedAt: t } });
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

  const paymentEvent = (payment: { id: string; status: string; failureCode: string | null; failureMessage: string | null }) => ({
    businessId: invoice.businessId,
    environment: invoice.environment,
    type: payment.status === "succeeded" ? "payment.succeeded" : "payment.failed",
    data: {
      object: "payment",
      id: payment.id,
      invoiceId: invoice.id,
      subscriptionId: invoice.subscriptionId,
      amount: amountDue,
      amountDecimal: minorToDecimal(BigInt(amountDue), invoice.currency),
      currency: invoice.currency,
      status: payment.status,
      attempt,
      failureCode: payment.failureCode,
      failureMessage: payment.failureMessage,
      nextPaymentAttempt:
        payment.status === "succeeded" || attempt >= MAX_ATTEMPTS
          ? null
          : new Date(t.getTime() + RETRY_DELAYS_MS[attempt - 1]).toISOString(),
    },
  });

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
    await emitEvent(paymentEvent(payment), tx);
    if (result.status === "succeeded") {
      await tx.invoice.update({
        where: { id: invoice.id },
        data: { status: "paid", amountPaid: invoice.amountPaid + amountDue, paidAt: t, updatedAt: t },
      });
      if (sub?.status === "past_due") {
        const after = await tx.subscription.update({ where: { id: sub.id }, data: { status: "active", updatedAt: t } });
        await emitSubscriptionEvent(after, "subscription.updated", tx, { status: "past_due" });
      }
      return;
    }
    const last = attempt >= MAX_ATTEMPTS;
    await tx.invoice.update({
      where: { id: invoice.id },
      data: {
        status: last ? "uncollectible" : "open",
        nextPaymentAttempt: last ? null : new Date(t.getTime() + RETRY_DELAYS_MS[attempt - 1]),
        updatedAt: t,
      },
    });
    if (sub && sub.status === "active" && attempt >= PAST_DUE_AFTER_FAILURES) {
      const after = await tx.subscription.update({ where: { id: sub.id }, data: { status: "past_due", updatedAt: t } });
      await emitSubscriptionEvent(after, "subscription.updated", tx, { status: "active" });
    }
  });
  if (sub) invalidateBillingCache(sub.projectId, sub.environment);
  return result.status === "succeeded" ? "paid" : "failed";
}
