"use client";
import { useState, useTransition, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { addPaymentMethodAction } from "@/app/portal/payment-actions";
import { Button, Field, Input } from "@/components/ui/primitives";

// The card form of the built-in test payment provider (PAYMENT_PROVIDER=test): a test card number or one of Stripe's
// test PaymentMethod ids, sent to POST /v1/payment-methods' domain function. With Stripe the form is Stripe's own
// Payment Element (stripe-payment-element.tsx), and no number is ever typed into this app's pages.

export interface SavedCard {
  brand: string;
  last4: string;
  charged: { invoiceId: string; outcome: string }[];
}

/** What saving a card did, in words: the card, and the open invoices it was charged for at once. */
export function savedCardMessage(card: SavedCard): string {
  const paid = card.charged.filter((c) => c.outcome === "paid").length;
  const failed = card.charged.filter((c) => c.outcome === "failed").length;
  const invoices = (n: number) => (n === 1 ? "1 open invoice" : `${n} open invoices`);
  return [
    `Saved ${card.brand} ending ${card.last4}: your current subscriptions are charged to it from now on.`,
    paid ? `It paid ${invoices(paid)}.` : "",
    failed ? `${invoices(failed)} could not be charged to it: see the invoices' attempts.` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

export function TestPaymentMethodForm({ subscriptionId }: { subscriptionId: string }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const id = `payment-method-${subscriptionId}`;

  function submit(e: FormEvent<HTMLFormElement>) {
    // Not a form action: React resets a form after its action, and a refused number would be typed again.
    e.preventDefault();
    const form = e.currentTarget;
    const value = String(new FormData(form).get("paymentMethod") ?? "");
    start(async () => {
      const r = await addPaymentMethodAction(subscriptionId, value);
      if (!r.ok || !r.data) {
        setSaved(null);
        return setError(r.error?.message ?? "Could not save the card.");
      }
      setError(null);
      setSaved(savedCardMessage(r.data));
      form.reset();
      router.refresh();
    });
  }

  return (
    <form method="post" noValidate onSubmit={submit} className="space-y-2" aria-label="Add a card">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-full min-w-0 sm:w-80">
          <Field
            label="Test card number or PaymentMethod id"
            htmlFor={id}
            error={error}
            hint="Test mode: 4242 4242 4242 4242 or pm_card_visa succeed; 4000 0000 0000 0341 is saved and then every charge fails."
          >
            <Input id={id} name="paymentMethod" autoComplete="off" spellCheck={false} placeholder="pm_card_visa" invalid={!!error} />
          </Field>
        </div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Use this card"}
        </Button>
      </div>
      <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400" data-testid="payment-method-saved">
        {saved ?? ""}
      </p>
    </form>
  );
}
