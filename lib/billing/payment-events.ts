import { emitEvent } from "@/lib/events/emit-event";
import type { Invoice as InvoiceRow, Payment as PaymentRow, Prisma } from "@/generated/prisma-sqlite";
import { minorToDecimal } from "./money";

// The payment.* events (succeeded, failed, action_required, refunded, disputed): one shape, sent to both sides of
// the sale, from the charge (collect-payment.ts), the refund (refunds.ts) and Stripe's events (stripe/).

/** A payment event to the invoice's consumer and, when another business sells the product, to its seller. */
export async function emitPaymentEvent(
  tx: Prisma.TransactionClient,
  invoice: InvoiceRow,
  type: string,
  payment: PaymentRow,
  extra: Record<string, unknown> = {},
) {
  const data = {
    object: "payment",
    id: payment.id,
    invoiceId: invoice.id,
    subscriptionId: invoice.subscriptionId,
    amount: payment.amount,
    amountDecimal: minorToDecimal(BigInt(payment.amount), invoice.currency),
    currency: invoice.currency,
    status: payment.status,
    attempt: payment.attempt,
    stripePaymentIntent: payment.providerRef,
    ...extra,
  };
  const event = { businessId: invoice.businessId, environment: invoice.environment, type, data };
  await emitEvent(event, tx);
  if (invoice.providerId && invoice.providerId !== invoice.businessId) await emitEvent({ ...event, businessId: invoice.providerId }, tx);
}
