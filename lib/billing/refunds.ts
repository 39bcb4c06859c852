import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError, invalidField, notFound } from "@/lib/http/errors";
import { withEvents } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { listCollection } from "@/lib/http/list-collection";
import type { Refund as RefundRow } from "@/generated/prisma-sqlite";
import type { RefundCreate } from "@/lib/schemas/billing";
import { minorToDecimal } from "./money";
import { paymentProvider } from "./payment-provider";
import { emitPaymentEvent } from "./payment-events";

// Refunds (issue 60): the seller gives back all or part of a paid invoice. The refund is a row first (pending), then
// Stripe's POST /v1/refunds with the refund's id as the idempotency key (a retry after a crash asks again and gets
// the same refund), reversing the seller's transfer and the platform's fee in proportion for a destination charge;
// then the payment's refunded total and payment.refunded to both sides. Stripe's charge.refunded event, arriving
// after, finds the total already there and changes nothing.

export function serializeRefund(r: RefundRow) {
  return {
    id: r.id,
    object: "refund" as const,
    invoiceId: r.invoiceId,
    paymentId: r.paymentId,
    amount: r.amount,
    amountDecimal: minorToDecimal(BigInt(r.amount), r.currency),
    currency: r.currency,
    reason: r.reason,
    status: r.status,
    stripeRefund: r.providerRef,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The invoice as its seller sees it (the product's provider), or 404. */
async function soldInvoice(auth: AuthContext, id: string) {
  const invoice = await db.invoice.findFirst({ where: { id, providerId: auth.businessId, environment: auth.environment } });
  if (!invoice) throw notFound("invoice", id);
  return invoice;
}

export const REFUND_COLLECTION: CollectionSpec = {
  filters: { createdAt: { type: "date" }, status: { type: "enum", values: ["pending", "succeeded", "failed"] } },
  sortable: ["createdAt"],
  defaultSort: "createdAt",
  fields: [],
};

/** An invoice's refunds, to its customer and to its seller. */
export async function listRefunds(auth: AuthContext, invoiceId: string, query: CollectionQuery) {
  const invoice = await db.invoice.findFirst({
    where: { id: invoiceId, environment: auth.environment, OR: [{ providerId: auth.businessId }, { businessId: auth.businessId }] },
  });
  if (!invoice) throw notFound("invoice", invoiceId);
  return listCollection({ spec: REFUND_COLLECTION, query, baseWhere: { invoiceId }, from: db.refund, serialize: serializeRefund });
}

export async function refundInvoice(auth: AuthContext, invoiceId: string, input: RefundCreate) {
  const invoice = await soldInvoice(auth, invoiceId);
  if (invoice.status !== "paid")
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "status",
      message: `Only a paid invoice can be refunded; this one is ${invoice.status}.`,
    });
  const payments = await db.payment.findMany({ where: { invoiceId, status: "succeeded" }, orderBy: { createdAt: "asc" } });
  const pending = await db.refund.aggregate({ where: { invoiceId, status: "pending" }, _sum: { amount: true } });
  // What can still be given back, per payment (an invoice is normally paid by one).
  const refundable = payments.map((p) => ({ payment: p, left: p.amount - p.amountRefunded }));
  const total = refundable.reduce((n, r) => n + r.left, 0) - (pending._sum.amount ?? 0);
  if (total <= 0)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      field: "amount",
      message: "The invoice's payments are refunded in full already.",
    });
  const amount = input.amount ?? total;
  if (amount > total)
    throw invalidField(
      "amount",
      `At most ${total} (${minorToDecimal(BigInt(total), invoice.currency)} ${invoice.currency}) of this invoice can still be refunded.`,
    );
  const target = refundable.find((r) => r.left >= amount);
  if (!target) throw invalidField("amount", "A refund is taken from one payment, and no single payment of the invoice has that much left.");
  const payment = target.payment;
  if (!payment.providerRef)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      message: "The payment has no reference at the payment provider to refund.",
    });

  const t = now();
  const refund = await db.refund.create({
    data: {
      id: newId("refund"),
      invoiceId,
      paymentId: payment.id,
      businessId: invoice.businessId,
      providerId: invoice.providerId,
      environment: invoice.environment,
      amount,
      currency: invoice.currency,
      reason: input.reason ?? null,
      status: "pending",
      createdAt: t,
    },
  });
  const result = await paymentProvider().refund({
    paymentRef: payment.providerRef,
    amount,
    reason: input.reason,
    reverseTransfer: !!payment.destination,
    idempotencyKey: refund.id,
    metadata: { invoice_id: invoiceId, refund_id: refund.id },
  });
  if (result.status === "failed") {
    await db.refund.update({ where: { id: refund.id }, data: { status: "failed" } });
    throw new ApiError({
      status: 402,
      type: "card_error",
      code: "REFUND_FAILED",
      message: `The payment provider refused the refund: ${result.failureMessage}`,
      extra: { failureCode: result.failureCode },
    });
  }
  return withEvents(
    async (tx) => {
      // Stripe's charge.refunded may have come first and raised the total (and told both sides): whichever of the two
      // raises it tells, so payment.refunded is sent once per refund. The payment row is locked first, by a write:
      // before the refund's row, in the order the event's handler takes them, so the two never deadlock (PostgreSQL),
      // and before any read, so SQLite's transaction never has to turn a stale read snapshot into a write (BUSY).
      await tx.payment.update({ where: { id: payment.id }, data: { amountRefunded: { increment: 0 } } });
      const others = await tx.refund.aggregate({
        where: { paymentId: payment.id, status: "succeeded", id: { not: refund.id } },
        _sum: { amount: true },
      });
      const refunded = (others._sum.amount ?? 0) + amount;
      const raised = await tx.payment.updateMany({
        where: { id: payment.id, amountRefunded: { lt: refunded } },
        data: { amountRefunded: refunded },
      });
      const done = await tx.refund.update({ where: { id: refund.id }, data: { status: "succeeded", providerRef: result.providerRef } });
      if (raised.count === 0) return done;
      const after = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
      await emitPaymentEvent(tx, invoice, "payment.refunded", after, {
        refund: serializeRefund(done),
        amountRefunded: refunded,
        refundedDecimal: minorToDecimal(BigInt(refunded), invoice.currency),
      });
      return done;
    },
    { answer: serializeRefund },
  ).then(serializeRefund);
}
