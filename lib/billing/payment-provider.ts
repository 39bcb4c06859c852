import { ApiError, invalidField } from "@/lib/http/errors";

// Payments go through one small interface, so a real processor (Stripe, Adyen) is one more implementation.
// The built-in provider is a test provider: it takes Stripe's test card numbers and succeeds or fails by number,
// and takes nothing else. It is the only one built in, for live subscriptions as well (PAYMENT_PROVIDER=test).

export interface CardInput {
  number: string;
  expMonth?: number;
  expYear?: number;
  cvc?: string;
}
export interface StoredPaymentMethod {
  provider: string;
  type: "card";
  brand: string;
  last4: string;
  token: string;
}

export interface ChargeRequest {
  amount: number;
  currency: string;
  paymentMethod: StoredPaymentMethod;
  idempotencyKey: string;
  description: string;
}
export type ChargeResult =
  | { status: "succeeded"; providerRef: string }
  | { status: "failed"; providerRef: string | null; failureCode: string; failureMessage: string };

export interface PaymentProvider {
  name: string;
  /**
   * Validates a card and returns what may be stored (never the full number); throws a 400 naming the field for a
   * malformed card, a 402 CARD_DECLINED for one the processor declines. Called before anything is written.
   */
  tokenize(card: CardInput, field: string): StoredPaymentMethod;
  charge(req: ChargeRequest): Promise<ChargeResult>;
}

/** Why a card is declined: Stripe's error `code` (the payment's failureCode) and its `decline_code`. */
export interface Decline {
  code: string;
  declineCode: string;
  message: string;
}

/**
 * Stripe's test cards and what each does. `declinesOnAttach`: Stripe refuses the card when it is attached to a
 * customer (a SetupIntent checks it), so it is refused where it is given and nothing is stored; only
 * 4000000000000341 attaches and then fails every charge.
 */
export const TEST_CARDS: Record<string, { brand: string; outcome: "succeeded" | Decline; declinesOnAttach?: true }> = {
  "4242424242424242": { brand: "visa", outcome: "succeeded" },
  "4000056655665556": { brand: "visa", outcome: "succeeded" },
  "5555555555554444": { brand: "mastercard", outcome: "succeeded" },
  "378282246310005": { brand: "amex", outcome: "succeeded" },
  "4000000000000341": {
    brand: "visa",
    outcome: { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
  },
  "4000000000000002": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "card_declined", declineCode: "generic_decline", message: "Your card was declined." },
  },
  "4000000000009995": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "insufficient_funds", declineCode: "insufficient_funds", message: "Your card has insufficient funds." },
  },
  "4000000000009987": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "card_declined", declineCode: "lost_card", message: "Your card was declined: it was reported lost." },
  },
  "4000000000009979": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "card_declined", declineCode: "stolen_card", message: "Your card was declined: it was reported stolen." },
  },
  "4000000000000069": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "expired_card", declineCode: "expired_card", message: "Your card has expired." },
  },
  "4000000000000127": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "incorrect_cvc", declineCode: "incorrect_cvc", message: "Your card's security code is incorrect." },
  },
  "4000000000000119": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: {
      code: "processing_error",
      declineCode: "processing_error",
      message: "An error occurred while processing your card. Try again in a little bit.",
    },
  },
  "4000000000006975": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: {
      code: "card_declined",
      declineCode: "card_velocity_exceeded",
      message: "Your card was declined for making repeated attempts too frequently or exceeding its amount limit.",
    },
  },
  "4100000000000019": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "card_declined", declineCode: "fraudulent", message: "Your card was declined." },
  },
  "4242424242424241": {
    brand: "visa",
    declinesOnAttach: true,
    outcome: { code: "incorrect_number", declineCode: "incorrect_number", message: "Your card number is incorrect." },
  },
};

/** The card's field a decline points at, as Stripe's `param` does. */
function declinedField(field: string, d: Decline): string {
  if (d.declineCode === "incorrect_cvc") return `${field}.cvc`;
  if (d.declineCode === "expired_card") return `${field}.expYear`;
  return `${field}.number`;
}

export function cardDeclined(field: string, d: Decline): ApiError {
  return new ApiError({
    status: 402,
    type: "card_error",
    code: "CARD_DECLINED",
    field: declinedField(field, d),
    message: d.message,
    suggestion: d.declineCode === "processing_error" ? "Try again, or use another card." : "Use another card.",
    extra: { declineCode: d.declineCode },
  });
}

let counter = 0;

export const testProvider: PaymentProvider = {
  name: "test",
  tokenize(card, field) {
    const number = String(card.number ?? "").replace(/[\s-]/g, "");
    if (!/^\d{12,19}$/.test(number)) throw invalidField(`${field}.number`, "A card number is 12 to 19 digits.");
    if (!TEST_CARDS[number]) {
      throw invalidField(
        `${field}.number`,
        "The built-in test payment provider accepts only test card numbers.",
        "Use 4242424242424242 (succeeds) or 4000000000000341 (charges fail); see the billing docs for the list.",
      );
    }
    const known = TEST_CARDS[number];
    if (known.declinesOnAttach && known.outcome !== "succeeded") throw cardDeclined(field, known.outcome);
    return { provider: "test", type: "card", brand: known.brand, last4: number.slice(-4), token: `tok_test_${number}` };
  },
  async charge(req) {
    const number = req.paymentMethod.token.replace(/^tok_test_/, "");
    const card = TEST_CARDS[number];
    const providerRef = `ch_test_${Date.now().toString(36)}${(++counter).toString(36)}`;
    if (!card)
      return { status: "failed", providerRef: null, failureCode: "invalid_payment_method", failureMessage: "Unknown payment method." };
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
