"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { payInvoiceAction } from "@/app/portal/payment-actions";
import { Button } from "@/components/ui/primitives";
import { STRIPE_UNAVAILABLE, loadStripeJs } from "./stripe-js";

// "Pay now" on an open invoice: POST /v1/invoices/{id}/pay's domain function charges the subscription's card at
// once. When the bank wants the card holder (3-D Secure, with Stripe), the answer is a PaymentIntent's client
// secret: Stripe.js is loaded then (not before) and confirms it in Stripe's dialog, and Stripe's webhook marks the
// invoice paid a moment later, so the page says so and refreshes itself once.

type Note = { tone: "ok" | "error"; text: string };

export function PayInvoiceButton({
  subscriptionId,
  invoiceId,
  label = "Pay now",
  name,
}: {
  subscriptionId: string;
  invoiceId: string;
  label?: string;
  /** The button's accessible name when several are on the page; it starts with the visible label. */
  name?: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<Note | null>(null);

  async function confirmWithStripe(clientSecret: string, publishableKey: string): Promise<Note> {
    const Stripe = await loadStripeJs().catch(() => null);
    if (!Stripe) return { tone: "error", text: STRIPE_UNAVAILABLE };
    const { error, paymentIntent } = await Stripe(publishableKey).confirmCardPayment(clientSecret);
    if (error) return { tone: "error", text: `The payment was not confirmed: ${error.message ?? "your bank refused it"}.` };
    // Stripe's event, not this answer, marks the invoice paid: look again in a few seconds.
    window.setTimeout(() => router.refresh(), 4000);
    return {
      tone: "ok",
      text:
        paymentIntent?.status === "processing"
          ? "Your bank is processing the payment: the invoice shows as paid when Stripe confirms it."
          : "Payment confirmed: the invoice shows as paid when Stripe confirms it, usually within a few seconds.",
    };
  }

  async function pay() {
    setBusy(true);
    setNote(null);
    try {
      const r = await payInvoiceAction(subscriptionId, invoiceId);
      if (!r.ok || !r.data) return setNote({ tone: "error", text: r.error?.message ?? "Could not pay the invoice." });
      const { status, clientSecret, publishableKey, failureMessage } = r.data;
      if (status === "requires_action") {
        if (!clientSecret || !publishableKey)
          return setNote({
            tone: "error",
            text: "Your bank asks you to confirm this payment, but Stripe is not set up on this server (no publishable key).",
          });
        setNote({ tone: "ok", text: "Your bank asks you to confirm the payment: follow Stripe's dialog." });
        return setNote(await confirmWithStripe(clientSecret, publishableKey));
      }
      setNote(
        status === "paid"
          ? { tone: "ok", text: "Paid." }
          : {
              tone: "error",
              text: `The charge failed: ${failureMessage ?? "the card was declined."} Add another card under Payment method: it pays open invoices at once.`,
            },
      );
      router.refresh();
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-1">
      <Button type="button" onClick={pay} disabled={busy} aria-label={name}>
        {busy ? "Paying…" : label}
      </Button>
      {note ? (
        <p
          role={note.tone === "error" ? "alert" : "status"}
          className={`text-sm ${note.tone === "error" ? "text-red-700 dark:text-red-400" : "text-emerald-700 dark:text-emerald-400"}`}
          data-testid={`pay-result-${invoiceId}`}
        >
          {note.text}
        </p>
      ) : null}
    </div>
  );
}
