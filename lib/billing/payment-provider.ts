import { invalidField } from "@/lib/http/errors";

// Payments go through one small interface, so a real processor (Stripe, Adyen) is one more implementation.
// The built-in provider is a test provider: it takes Stripe's test card numbers and succeeds or fails by number,
// and takes nothing else. It is the only one built in, for live subscriptions as well (PAYMENT_PROVIDER=test).

export interface CardInput { number: string; expMonth?: number; expYear?: number; cvc?: string }
export interface StoredPaymentMethod { provider: string; type: "card"; brand: string; last4: string; token: string }

export interface ChargeRequest { amount: number; currency: string; paymentMethod: StoredPaymentMethod; idempotencyKey: string; description: string }
export type ChargeResult =
  | { status: "succeeded"; providerRef: string }
  | { status: "failed"; providerRef: string | null; failureCode: string; failureMessage: string };

export interface PaymentProvider {
  name: string;
  /** Validates a card and returns what may be stored (never the full number); throws a 400 naming the field. */
  tokenize(card: CardInput, field: string): StoredPaymentMethod;
  charge(req: ChargeRequest): Promise<ChargeResult>;
}

/** Stripe's test cards: what a charge to each one does. */
export const TEST_CARDS: Record<string, { brand: string; outcome: "succeeded" | { code: string; message: string } }> = {
  "4242424242424242": { brand: "visa", outcome: "succeeded" },
  "4000056655665556": { brand: "visa", outcome: "succeeded" },
  "5555555555554444": { brand: "mastercard", outcome: "succeeded" },
  "378282246310005": { brand: "amex", outcome: "succeeded" },
  "4000000000000002": { brand: "visa", outcome: { code: "card_declined", message: "Your card was declined." } },
  "4000000000009995": { brand: "visa", outcome: { code: "insufficient_funds", message: "Your card has insufficient funds." } },
  "4000000000000069": { brand: "visa", outcome: { code: "expired_card", message: "Your card has expired." } },
  "4000000000000127": { brand: "visa", outcome: { code: "incorrect_cvc", message: "Your card's security code is incorrect." } },
  "4000000000000341": { brand: "visa", outcome: { code: "card_declined", message: "Your card was declined." } },
};

let counter = 0;

export const testProvider: PaymentProvider = {
  name: "test",
  tokenize(card, field) {
    const number = String(card.number ?? "").replace(/[\s-]/g, "");
    if (!/^\d{12,19}$/.test(number)) throw invalidField(`${field}.number`, "A card number is 12 to 19 digits.");
    if (!TEST_CARDS[number]) {
      throw invalidField(`${field}.number`, "The built-in test payment provider accepts only test card numbers.",
        "Use 4242424242424242 (succeeds) or 4000000000000341 (charges fail); see the billing docs for the list.");
    }
    return { provider: "test", type: "card", brand: TEST_CARDS[number].brand, last4: number.slice(-4), token: `tok_test_${number}` };
  },
  async charge(req) {
    const number = req.paymentMethod.token.replace(/^tok_test_/, "");
    const card = TEST_CARDS[number];
    const providerRef = `ch_test_${Date.now().toString(36)}${(++counter).toString(36)}`;
    if (!card) return { status: "failed", providerRef: null, failureCode: "invalid_payment_method", failureMessage: "Unknown payment method." };
    if (card.outcome === "succeeded") return { status: "succeeded", providerRef };
    return { status: "failed", providerRef, failureCode: card.outcome.code, failureMessage: card.outcome.message };
  },
};

const providers: Record<string, PaymentProvider> = { test: testProvider };

export function paymentProvider(): PaymentProvider {
  const name = process.env.PAYMENT_PROVIDER ?? "test";
  const provider = providers[name];
  if (!provider) throw new Error(`Unknown PAYMENT_PROVIDER '${name}'`);
  return provider;
}
