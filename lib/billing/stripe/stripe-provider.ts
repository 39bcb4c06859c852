import type Stripe from "stripe";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { cardDeclined, type PaymentProvider, type StoredPaymentMethod } from "../card-payments";
import { stripeClient } from "./stripe-client";

// PAYMENT_PROVIDER=stripe (issue 60): the consumer's business has one Stripe Customer on the platform's account; a
// payment method is a PaymentMethod id from Stripe.js, attached to that Customer and made its default; every charge
// is one PaymentIntent, confirmed off-session, a destination charge to the seller's connected account with the
// platform's fee. The card's number never reaches this server (PCI DSS): a raw card is refused.

export function rawCardRefused(field: string): ApiError {
  return new ApiError({
    status: 400,
    type: "validation_error",
    code: "RAW_CARD_NOT_ACCEPTED",
    field: `${field}.card`,
    message: "This deployment takes payments through Stripe and never accepts card numbers.",
    suggestion: 'Collect the card with Stripe.js (the Payment Element) and send the PaymentMethod id it returns: "paymentMethod": "pm_…".',
  });
}

/** The business's Customer at Stripe, made the first time it is needed (an idempotency key: a retry makes no second). */
export async function stripeCustomerOf(businessId: string): Promise<string> {
  const known = await db.stripeAccount.findUnique({ where: { businessId } });
  if (known?.customerId) return known.customerId;
  const business = await db.business.findUnique({ where: { id: businessId }, select: { name: true } });
  const customer = await (
    await stripeClient()
  ).customers.create(
    { name: business?.name ?? businessId, metadata: { business_id: businessId } },
    { idempotencyKey: `customer-${businessId}` },
  );
  const t = now();
  await db.stripeAccount.upsert({
    where: { businessId },
    create: { businessId, customerId: customer.id, createdAt: t, updatedAt: t },
    update: { customerId: customer.id, updatedAt: t },
  });
  return customer.id;
}

/** Stripe's own message, for people: the SDK prefixes the error's message with the request id ("[req_…] …"). */
const stripeMessage = (e: { message?: string; raw?: unknown }): string | undefined =>
  (e.raw as { message?: string } | undefined)?.message ?? e.message;

// The SDK's errors by their `type` (the SDK is imported lazily, so not by class).
const isCardError = (e: unknown): e is Stripe.errors.StripeCardError => (e as { type?: string })?.type === "StripeCardError";
const isMissing = (e: unknown) =>
  (e as { type?: string; code?: string })?.type === "StripeInvalidRequestError" && (e as { code?: string }).code === "resource_missing";

export const stripeProvider: PaymentProvider = {
  name: "stripe",
  async attach(given, field, businessId): Promise<StoredPaymentMethod> {
    if (typeof given !== "string") throw rawCardRefused(field);
    const customer = await stripeCustomerOf(businessId);
    const stripe = await stripeClient();
    let attached: Stripe.PaymentMethod;
    try {
      attached = await stripe.paymentMethods.attach(given, { customer });
    } catch (e) {
      if (isCardError(e))
        throw cardDeclined(field, {
          code: e.code ?? "card_declined",
          declineCode: e.decline_code ?? e.code ?? "generic_decline",
          message: stripeMessage(e) ?? "Your card was declined.",
        });
      if (isMissing(e))
        throw new ApiError({
          status: 400,
          type: "validation_error",
          code: "INVALID_FIELD",
          field,
          message: `Stripe knows no PaymentMethod '${given.slice(0, 60)}'.`,
          suggestion: "Send the id Stripe.js returned for the card (pm_…).",
        });
      throw e;
    }
    // The default for the Customer's invoices and off-session charges, as Stripe's dashboard shows it.
    await stripe.customers.update(customer, { invoice_settings: { default_payment_method: attached.id } });
    return {
      provider: "stripe",
      type: "card",
      brand: attached.card?.brand ?? "card",
      last4: attached.card?.last4 ?? "",
      token: attached.id,
      customer,
      expMonth: attached.card?.exp_month,
      expYear: attached.card?.exp_year,
    };
  },
  async charge(req) {
    const stripe = await stripeClient();
    try {
      const intent = await stripe.paymentIntents.create(
        {
          amount: req.amount,
          currency: req.currency.toLowerCase(),
          customer: req.paymentMethod.customer,
          payment_method: req.paymentMethod.token,
          confirm: true,
          off_session: true,
          description: req.description,
          metadata: req.metadata ?? {},
          ...(req.destination ? { transfer_data: { destination: req.destination }, application_fee_amount: req.applicationFee ?? 0 } : {}),
        },
        { idempotencyKey: req.idempotencyKey },
      );
      if (intent.status === "succeeded") {
        const charge = typeof intent.latest_charge === "string" ? null : intent.latest_charge;
        return { status: "succeeded", providerRef: intent.id, transferId: (charge?.transfer as string | null | undefined) ?? null };
      }
      return {
        status: "failed",
        providerRef: intent.id,
        failureCode: intent.status === "requires_action" ? "authentication_required" : intent.status,
        failureMessage: `The payment is ${intent.status.replaceAll("_", " ")}.`,
      };
    } catch (e) {
      const error = e as {
        type?: string;
        code?: string;
        decline_code?: string;
        message?: string;
        raw?: { payment_intent?: { id?: string } };
      };
      // Not a Stripe error (a bug of ours): the caller's failure, not the card's.
      if (!error?.type?.startsWith("Stripe")) throw e;
      // Stripe's refusal is the outcome: a declined card, and as well an amount under Stripe's minimum or Stripe
      // unreachable after the SDK's retries (the same idempotency key each time). Recorded as a failed attempt, so
      // the invoice is retried on the dunning schedule rather than left half-charged; a charge Stripe made all the
      // same reaches us by its event or the reconciliation job before the retry. The PaymentIntent it made (if any)
      // is named, so its events find this payment.
      return {
        status: "failed",
        providerRef: error.raw?.payment_intent?.id ?? null,
        failureCode: error.code ?? (isCardError(e) ? "card_declined" : "processing_error"),
        declineCode: error.decline_code,
        failureMessage: stripeMessage(error) ?? "Stripe refused the payment.",
      };
    }
  },
  async refund(req) {
    const stripe = await stripeClient();
    try {
      const refund = await stripe.refunds.create(
        {
          payment_intent: req.paymentRef,
          amount: req.amount,
          ...(req.reason ? { reason: req.reason as Stripe.RefundCreateParams.Reason } : {}),
          ...(req.reverseTransfer ? { reverse_transfer: true, refund_application_fee: true } : {}),
          metadata: req.metadata ?? {},
        },
        { idempotencyKey: req.idempotencyKey },
      );
      return { status: "succeeded", providerRef: refund.id };
    } catch (e) {
      const error = e as { type?: string; code?: string; message?: string };
      if (!error?.type?.startsWith("Stripe")) throw e;
      return {
        status: "failed",
        failureCode: error.code ?? "refund_failed",
        failureMessage: stripeMessage(error) ?? "Stripe refused the refund.",
      };
    }
  },
  async setup(businessId) {
    const customer = await stripeCustomerOf(businessId);
    const intent = await (await stripeClient()).setupIntents.create({ customer, usage: "off_session" });
    return { id: intent.id, clientSecret: intent.client_secret! };
  },
  async startOnSession(req) {
    const intent = await (
      await stripeClient()
    ).paymentIntents.create(
      {
        amount: req.amount,
        currency: req.currency.toLowerCase(),
        customer: req.paymentMethod.customer,
        payment_method: req.paymentMethod.token,
        setup_future_usage: "off_session",
        metadata: req.metadata,
        ...(req.destination ? { transfer_data: { destination: req.destination }, application_fee_amount: req.applicationFee ?? 0 } : {}),
      },
      { idempotencyKey: req.idempotencyKey },
    );
    return { id: intent.id, clientSecret: intent.client_secret!, status: intent.status };
  },
};
