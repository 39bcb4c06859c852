import { Badge, Card } from "@/components/ui/primitives";
import type { serializePaymentMethod } from "@/lib/billing/payment-methods";
import { TestPaymentMethodForm } from "./payment-method-form";
import { StripePaymentElement } from "./stripe-payment-element";

// The "Payment method" card of a subscription's page (issue 60): the card this subscription is charged to, the
// business's saved cards, and the form that adds one (POST /v1/payment-methods). Which form depends on the server's
// payment provider: with Stripe, Stripe's Payment Element (Stripe.js is loaded by it, on this page only); with the
// built-in test provider, a test card number or test PaymentMethod id.

export type SavedPaymentMethod = ReturnType<typeof serializePaymentMethod>;

const expiry = (m: SavedPaymentMethod) => (m.expMonth && m.expYear ? `expires ${String(m.expMonth).padStart(2, "0")}/${m.expYear}` : null);

export function PaymentMethodCard({
  provider,
  subscription,
  methods,
  canWrite,
  current,
}: {
  provider: string;
  subscription: { id: string; paymentMethod: { brand: string; last4: string } | null };
  methods: SavedPaymentMethod[];
  canWrite: boolean;
  current: boolean;
}) {
  const card = subscription.paymentMethod;
  return (
    <Card title="Payment method">
      <div className="space-y-4" data-testid="payment-method-card">
        <p className="text-sm" data-testid="subscription-payment-method">
          {card ? (
            <>
              This subscription is charged to{" "}
              <strong>
                {card.brand} ending {card.last4}
              </strong>
              .
            </>
          ) : (
            "This subscription has no card: its invoices cannot be charged until one is added."
          )}
        </p>
        {methods.length ? (
          <div>
            <h3 className="mb-1 text-sm font-semibold">Your business&apos;s cards</h3>
            <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800" data-testid="payment-methods">
              {methods.map((m) => (
                <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-1.5" data-testid="payment-method">
                  <span>
                    {m.brand} ending {m.last4}
                  </span>
                  {expiry(m) ? <span className="text-xs text-slate-600 dark:text-slate-400">{expiry(m)}</span> : null}
                  {m.default ? <Badge tone="info">default</Badge> : null}
                  {m.provider === "test" ? <Badge>test</Badge> : null}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {canWrite && current ? (
          <div className="space-y-2 border-t border-slate-200 pt-4 dark:border-slate-800">
            <h3 className="text-sm font-semibold">Add a card</h3>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              It becomes your business&apos;s default: every current subscription in this environment is charged to it, and their open
              invoices are paid with it at once.
            </p>
            {provider === "stripe" ? (
              <StripePaymentElement subscriptionId={subscription.id} />
            ) : (
              <TestPaymentMethodForm subscriptionId={subscription.id} />
            )}
          </div>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            {current
              ? "An owner or admin of your business can add a card."
              : "The subscription has ended: a new card goes to your current subscriptions only."}
          </p>
        )}
      </div>
    </Card>
  );
}
