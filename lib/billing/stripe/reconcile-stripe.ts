import { paymentProviderName } from "../payment-provider";
import { stripeClient } from "./stripe-client";
import { applySucceededIntent } from "./apply-stripe-event";

// The job that repairs what a lost event would leave wrong (issue 60): it reads the PaymentIntents Stripe made in the
// last RECONCILE_DAYS and applies each succeeded one of an invoice as payment_intent.succeeded would have. That covers
// a crash between Stripe's answer and our commit whose event never arrived (the webhook endpoint down, a secret
// rotated): the invoice is paid and its payment recorded once. Nothing happens with the test provider.

const RECONCILE_DAYS = Number(process.env.STRIPE_RECONCILE_DAYS ?? 3);

export async function reconcileStripePayments(): Promise<{ checked: number; repaired: number }> {
  if (paymentProviderName() !== "stripe") return { checked: 0, repaired: 0 };
  const stripe = await stripeClient();
  // Stripe's `created` is Stripe's clock, the real one: the window is real time, whatever the platform's business clock
  // says (a test clock moved a month ahead must still see the PaymentIntents made a minute ago).
  const since = Math.floor(Date.now() / 1000) - RECONCILE_DAYS * 86_400;
  let checked = 0;
  let repaired = 0;
  // The SDK's auto-pagination follows has_more with starting_after.
  for await (const intent of stripe.paymentIntents.list({ created: { gte: since }, limit: 100 })) {
    checked++;
    if (intent.status !== "succeeded" || !intent.metadata?.invoice_id) continue;
    if ((await applySucceededIntent(intent)) === "applied") repaired++;
  }
  return { checked, repaired };
}
