"use server";
// The consumer's payments in the portal (issue 60): "Pay now" on an open invoice, a new card for the business's
// subscriptions, and the SetupIntent Stripe's Payment Element collects that card with. Each runs the same domain
// function as its API route (POST /v1/invoices/{id}/pay, POST /v1/payment-methods, POST /v1/payment-methods/setup)
// as the signed-in user, so a refusal (a declined card, an invoice no longer open) comes back in the API's words.
import { PaymentMethodCreate } from "@/lib/schemas/billing";
import { invalidField } from "@/lib/http/errors";
import { payInvoice } from "@/lib/billing/invoice-pay";
import { addPaymentMethod, setupPaymentMethod } from "@/lib/billing/payment-methods";
import { runAction } from "@/lib/portal/run-action";

const pathsOf = (subscriptionId: string) => ["/portal/subscriptions", `/portal/subscriptions/${subscriptionId}`];

/**
 * "Pay now": charged with the subscription's card; `requires_action` when the bank wants the card holder
 * (3-D Secure), with the client secret the browser confirms with Stripe.js.
 */
export async function payInvoiceAction(subscriptionId: string, invoiceId: string) {
  return runAction(
    "invoices:write",
    async (ctx) => {
      const r = await payInvoice(ctx.auth, String(invoiceId));
      const last = r.invoice.payments.at(-1);
      return {
        status: r.status,
        clientSecret: r.clientSecret,
        publishableKey: r.publishableKey,
        failureMessage: r.status === "failed" ? (last?.failureMessage ?? null) : null,
      };
    },
    pathsOf(String(subscriptionId)),
  );
}

/**
 * What the card form sends, as the API's paymentMethod: a PaymentMethod id (pm_… from Stripe.js, or a test id such
 * as pm_card_visa) as it is, digits as a test card's number (the test provider only; Stripe refuses a raw number).
 */
function paymentMethodOf(value: unknown): string | { card: { number: string } } {
  const text = typeof value === "string" ? value.trim() : "";
  if (/^pm_\w+$/.test(text)) return text;
  if (/^[\d\s-]+$/.test(text)) return { card: { number: text.replace(/[\s-]/g, "") } };
  throw invalidField(
    "paymentMethod",
    text
      ? "Type a test card number, such as 4242 4242 4242 4242, or a test PaymentMethod id, such as pm_card_visa."
      : "Type a card number or a PaymentMethod id.",
  );
}

/**
 * A new default card for the business: given to its current subscriptions in this environment, whose open
 * invoices it pays at once (`charged`: each invoice and its outcome).
 */
export async function addPaymentMethodAction(subscriptionId: string, paymentMethod: unknown) {
  return runAction(
    "subscriptions:write",
    async (ctx) => {
      const method = await addPaymentMethod(
        ctx.auth,
        PaymentMethodCreate.parse({ paymentMethod: paymentMethodOf(paymentMethod), default: true }),
      );
      return { id: method.id, brand: method.brand, last4: method.last4, charged: method.charged };
    },
    pathsOf(String(subscriptionId)),
  );
}

/** A SetupIntent for Stripe's Payment Element: its client secret and the publishable key Stripe.js starts with. */
export async function setupPaymentMethodAction() {
  return runAction("subscriptions:write", async (ctx) => {
    const intent = await setupPaymentMethod(ctx.auth);
    return { clientSecret: intent.clientSecret, publishableKey: intent.publishableKey };
  });
}
