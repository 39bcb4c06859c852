import { db } from "@/lib/db/client";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { paymentProvider, type StoredPaymentMethod } from "./payment-provider";
import { chargeParties } from "./payment-parties";
import { collectInvoice } from "./collect-payment";
import { getInvoiceOrThrow, withPaymentsAndRefunds } from "./invoices";

// "Pay now" (issue 60): the consumer pays an open invoice at once. Charged off-session with the subscription's card,
// as a retry is; but when the bank asked for the card holder (authentication_required, 3-D Secure), the answer is a
// PaymentIntent's client secret for Stripe.js to confirm in the browser, and Stripe's payment_intent.succeeded
// event then marks the invoice paid (stripe/apply-stripe-event.ts, by the intent's metadata.invoice_id).

export async function payInvoice(auth: AuthContext, id: string) {
  const row = await getInvoiceOrThrow(auth, id);
  if (row.status !== "open")
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "status",
      message: `Only an open invoice can be paid; this one is ${row.status}.`,
    });
  const sub = await db.subscription.findUnique({ where: { id: row.subscriptionId } });
  const pm = (sub?.paymentMethod as StoredPaymentMethod | null) ?? null;
  const last = await db.payment.findFirst({ where: { invoiceId: row.id }, orderBy: { createdAt: "desc" } });
  const provider = paymentProvider();
  if (pm && last?.failureCode === "authentication_required" && provider.startOnSession) {
    const amount = row.total - row.amountPaid;
    const intent = await provider.startOnSession({
      amount,
      currency: row.currency,
      paymentMethod: pm,
      idempotencyKey: `${row.id}:on-session:${row.attemptCount}`,
      metadata: { invoice_id: row.id, attempt: String(row.attemptCount), business_id: row.businessId, seller_id: row.providerId ?? "" },
      ...(await chargeParties(row.providerId, row.businessId, amount)),
    });
    return {
      status: "requires_action" as const,
      clientSecret: intent.clientSecret,
      paymentIntent: intent.id,
      publishableKey: process.env.STRIPE_PUBLISHABLE_KEY ?? null,
      invoice: await withPaymentsAndRefunds(row),
    };
  }
  if (!pm)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "paymentMethod",
      message: "The invoice's subscription has no payment method to charge.",
      suggestion: "Add one with POST /v1/payment-methods (it charges open invoices at once).",
    });
  const outcome = await collectInvoice(row.id);
  const after = await getInvoiceOrThrow(auth, id);
  return {
    // skipped: a charge of it was already under way (a retry at this moment); its outcome shows on the invoice.
    status: after.status === "paid" ? ("paid" as const) : outcome === "skipped" ? ("processing" as const) : ("failed" as const),
    clientSecret: null,
    paymentIntent: null,
    publishableKey: null,
    invoice: await withPaymentsAndRefunds(after),
  };
}
