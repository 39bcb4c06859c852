import type Stripe from "stripe";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { emitEvent, withEvents } from "@/lib/events/emit-event";
import type { Invoice as InvoiceRow, Payment as PaymentRow, Prisma } from "@/generated/prisma-sqlite";
import { minorToDecimal } from "../money";
import { subscriptionAfterPayment } from "../dunning";
import { emitPaymentEvent } from "../payment-events";
import { invalidateBillingCache } from "../rate-request";

// Stripe's word settles a payment (issue 60): its events, verified at /webhooks/stripe (stripe-webhook.ts), are
// applied here, each once (a StripeEvent row written in the same transaction), and in any order: every handler sets
// a state from what the event says (succeeded stays succeeded, a refunded amount only grows), never from the order
// the events came in. A PaymentIntent that succeeded at Stripe but whose answer never reached our commit (a crash
// between the two) is found by its metadata.invoice_id and recorded here; the reconciliation job does the same
// from Stripe's list when the event itself never came (reconcile-stripe.ts).

type Outcome = "applied" | "duplicate" | "ignored";
type Tx = Prisma.TransactionClient;

const paymentByIntent = (tx: Tx, intentId: string) => tx.payment.findFirst({ where: { providerRef: intentId } });

/**
 * Whether our own charge of the intent's attempt is still under way: claimed (its claim not lapsed) and its outcome
 * not yet committed. Its commit records the payment then (or, if that process died, the replay of the attempt does:
 * collect-payment.ts), so the event leaves it alone rather than racing that commit into a second payment.
 */
async function chargeUnderWay(tx: Tx, invoice: InvoiceRow, intent: Stripe.PaymentIntent): Promise<boolean> {
  const attempt = Number(intent.metadata?.attempt);
  if (!attempt || attempt !== invoice.attemptCount || invoice.status !== "open") return false;
  if (!invoice.nextPaymentAttempt || invoice.nextPaymentAttempt <= now()) return false;
  return (await tx.payment.count({ where: { invoiceId: invoice.id, attempt } })) === 0;
}

/** The payment our charge recorded for the intent, read again after the invoice: a commit that landed between this
 * event's first read and its read of the invoice (each statement sees what was committed when it began). */
const recordedMeanwhile = (tx: Tx, invoice: InvoiceRow, intent: Stripe.PaymentIntent) =>
  tx.payment.findFirst({ where: { invoiceId: invoice.id, providerRef: intent.id } });

/** A payment of the invoice that Stripe made and we never recorded (a crash between its answer and our commit). */
function recordIntent(
  tx: Tx,
  invoice: InvoiceRow,
  intent: Stripe.PaymentIntent,
  outcome: Pick<
    Prisma.PaymentUncheckedCreateInput,
    "status" | "failureCode" | "failureMessage" | "destination" | "applicationFee" | "transferId"
  >,
) {
  return tx.payment.create({
    data: {
      id: newId("payment"),
      businessId: invoice.businessId,
      environment: invoice.environment,
      invoiceId: invoice.id,
      amount: intent.amount,
      currency: invoice.currency,
      provider: "stripe",
      providerRef: intent.id,
      attempt: Number(intent.metadata?.attempt) || invoice.attemptCount,
      createdAt: now(),
      ...outcome,
    },
  });
}

/** Marks the invoice paid by this payment (once), and its subscription current again. */
async function settlePaid(tx: Tx, invoice: InvoiceRow, payment: PaymentRow) {
  const t = now();
  if (invoice.status !== "paid") {
    await tx.invoice.update({
      where: { id: invoice.id },
      data: { status: "paid", amountPaid: invoice.amountPaid + payment.amount, paidAt: t, nextPaymentAttempt: null, updatedAt: t },
    });
  }
  const sub = await tx.subscription.findUnique({ where: { id: invoice.subscriptionId } });
  await subscriptionAfterPayment(tx, sub, invoice.id);
  return sub;
}

async function intentSucceeded(tx: Tx, intent: Stripe.PaymentIntent): Promise<Outcome> {
  const invoiceId = intent.metadata?.invoice_id;
  const known = await paymentByIntent(tx, intent.id);
  const invoice = await tx.invoice.findUnique({ where: { id: known?.invoiceId ?? invoiceId ?? "" } });
  if (!invoice) return "ignored";
  let payment = known;
  if (payment && payment.status === "succeeded" && invoice.status === "paid") return "ignored";
  if (!payment && (await chargeUnderWay(tx, invoice, intent))) return "ignored";
  payment ??= await recordedMeanwhile(tx, invoice, intent);
  if (payment && payment.status === "succeeded" && invoice.status === "paid") return "ignored";
  const charge = typeof intent.latest_charge === "object" ? intent.latest_charge : null;
  if (payment) {
    payment = await tx.payment.update({
      where: { id: payment.id },
      data: {
        status: "succeeded",
        failureCode: null,
        failureMessage: null,
        transferId: (charge?.transfer as string | null) ?? payment.transferId,
      },
    });
  } else {
    // Charged at Stripe, never recorded here (a crash between Stripe's answer and our commit): recorded now.
    payment = await recordIntent(tx, invoice, intent, {
      status: "succeeded",
      destination: (intent.transfer_data?.destination as string | undefined) ?? null,
      applicationFee: intent.application_fee_amount ?? null,
      transferId: (charge?.transfer as string | null) ?? null,
    });
  }
  const sub = await settlePaid(tx, invoice, payment);
  await emitPaymentEvent(tx, invoice, "payment.succeeded", payment);
  if (sub) invalidateBillingCache(sub.projectId, sub.environment);
  return "applied";
}

async function intentFailed(tx: Tx, intent: Stripe.PaymentIntent): Promise<Outcome> {
  // The synchronous answer recorded the failure with the attempt; an event of an intent we never recorded is kept
  // as a failed payment of its invoice, so the invoice's attempts say what Stripe saw.
  if (await paymentByIntent(tx, intent.id)) return "ignored";
  const invoice = await tx.invoice.findUnique({ where: { id: intent.metadata?.invoice_id ?? "" } });
  if (!invoice || invoice.status === "paid" || (await chargeUnderWay(tx, invoice, intent))) return "ignored";
  if (await recordedMeanwhile(tx, invoice, intent)) return "ignored";
  const error = intent.last_payment_error;
  const payment = await recordIntent(tx, invoice, intent, {
    status: "failed",
    failureCode: error?.code ?? "card_declined",
    failureMessage: error?.message ?? "The payment failed.",
  });
  await emitPaymentEvent(tx, invoice, "payment.failed", payment, {
    failureCode: payment.failureCode,
    failureMessage: payment.failureMessage,
  });
  return "applied";
}

async function chargeRefunded(tx: Tx, charge: Stripe.Charge): Promise<Outcome> {
  const intentId = typeof charge.payment_intent === "string" ? charge.payment_intent : charge.payment_intent?.id;
  const payment = intentId ? await paymentByIntent(tx, intentId) : null;
  // Stripe's total refunded so far: a later event never lowers it, an earlier one arriving late changes nothing.
  if (!payment) return "ignored";
  // Raised only if below (a conditional update: a refund request committing at the same time raises it once, and
  // whichever raises it tells both sides).
  const raised = await tx.payment.updateMany({
    where: { id: payment.id, amountRefunded: { lt: charge.amount_refunded } },
    data: { amountRefunded: charge.amount_refunded },
  });
  if (raised.count === 0) return "ignored";
  const after = await tx.payment.findUniqueOrThrow({ where: { id: payment.id } });
  await tx.refund.updateMany({ where: { paymentId: payment.id, status: "pending" }, data: { status: "succeeded" } });
  const invoice = await tx.invoice.findUnique({ where: { id: payment.invoiceId } });
  if (invoice)
    await emitPaymentEvent(tx, invoice, "payment.refunded", after, {
      amountRefunded: charge.amount_refunded,
      refundedDecimal: minorToDecimal(BigInt(charge.amount_refunded), invoice.currency),
    });
  return "applied";
}

async function disputeCreated(tx: Tx, dispute: Stripe.Dispute): Promise<Outcome> {
  const intentId = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id;
  const payment = intentId ? await paymentByIntent(tx, intentId) : null;
  if (!payment || payment.disputed) return "ignored";
  const after = await tx.payment.update({ where: { id: payment.id }, data: { disputed: true } });
  const invoice = await tx.invoice.findUnique({ where: { id: payment.invoiceId } });
  if (invoice) await emitPaymentEvent(tx, invoice, "payment.disputed", after, { reason: dispute.reason, disputeId: dispute.id });
  return "applied";
}

async function accountUpdated(tx: Tx, account: Stripe.Account): Promise<Outcome> {
  const row = await tx.stripeAccount.findUnique({ where: { accountId: account.id } });
  if (!row) return "ignored";
  const requirements = {
    currentlyDue: account.requirements?.currently_due ?? [],
    disabledReason: account.requirements?.disabled_reason ?? null,
  };
  await tx.stripeAccount.update({
    where: { businessId: row.businessId },
    data: {
      chargesEnabled: !!account.charges_enabled,
      payoutsEnabled: !!account.payouts_enabled,
      detailsSubmitted: !!account.details_submitted,
      requirements,
      updatedAt: now(),
    },
  });
  for (const environment of ["test", "production"])
    await emitEvent(
      {
        businessId: row.businessId,
        environment,
        type: "payout_account.updated",
        data: {
          object: "payout_account",
          accountId: account.id,
          chargesEnabled: !!account.charges_enabled,
          payoutsEnabled: !!account.payouts_enabled,
          requirements,
        },
      },
      tx,
    );
  return "applied";
}

const HANDLERS: Record<string, (tx: Tx, object: any) => Promise<Outcome>> = {
  "payment_intent.succeeded": intentSucceeded,
  "payment_intent.payment_failed": intentFailed,
  "charge.refunded": chargeRefunded,
  "charge.dispute.created": disputeCreated,
  "account.updated": accountUpdated,
};

export const HANDLED_STRIPE_EVENTS = Object.keys(HANDLERS);

/**
 * A succeeded PaymentIntent read from Stripe's list rather than an event (reconcile-stripe.ts): applied the same way,
 * and as harmless twice (a payment already recorded and its invoice paid is left as it is).
 */
export const applySucceededIntent = (intent: Stripe.PaymentIntent): Promise<Outcome> => withEvents((tx) => intentSucceeded(tx, intent));

/** Applies one verified event once; the same event again is a duplicate, an event of no interest is ignored. */
export async function applyStripeEvent(event: Stripe.Event): Promise<Outcome> {
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return "duplicate";
  const handler = HANDLERS[event.type];
  const object = event.data.object as { id?: string };
  try {
    return await withEvents(async (tx) => {
      await tx.stripeEvent.create({ data: { id: event.id, type: event.type, objectId: object.id ?? null, receivedAt: now() } });
      return handler ? handler(tx, object) : "ignored";
    });
  } catch (e) {
    // The same event delivered twice at once: the other delivery's row came first, and this one changed nothing.
    if ((e as { code?: string }).code === "P2002") return "duplicate";
    throw e;
  }
}
