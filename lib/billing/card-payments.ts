import { ApiError, invalidField } from "@/lib/http/errors";

// Payments go through one small interface (here; payment-provider.ts chooses the provider) with two implementations:
// the built-in test provider (PAYMENT_PROVIDER=test, the default, offline: Stripe's test card numbers, and Stripe's
// test PaymentMethod ids such as pm_card_visa, succeed or fail by number) and Stripe (PAYMENT_PROVIDER=stripe, lib/billing/stripe/stripe-provider.ts: the official SDK,
// PaymentMethod ids from Stripe.js only, Connect destination charges).

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
  /** The provider's handle of the card: a test token, or Stripe's PaymentMethod id. */
  token: string;
  /** Stripe's Customer the PaymentMethod is attached to. */
  customer?: string;
  expMonth?: number;
  expYear?: number;
}

/** A payment method as a request gives it: a card (test provider only) or a PaymentMethod id from Stripe.js. */
export type PaymentMethodGiven = { card: CardInput } | string;

export interface ChargeRequest {
  amount: number;
  currency: string;
  paymentMethod: StoredPaymentMethod;
  /** Derived from what is paid and the attempt (`inv_…:2`), so a retry after a crash never charges twice. */
  idempotencyKey: string;
  description: string;
  /** What the charge pays: `invoice_id` or `purchase_id`, and the businesses (Stripe's metadata). */
  metadata?: Record<string, string>;
  /** The seller's connected account and the platform's fee in minor units (a destination charge). */
  destination?: string;
  applicationFee?: number;
}
export type ChargeResult =
  | { status: "succeeded"; providerRef: string; transferId?: string | null }
  | { status: "failed"; providerRef: string | null; failureCode: string; failureMessage: string; declineCode?: string };

export interface RefundRequest {
  /** The payment's reference at the processor (Stripe's PaymentIntent). */
  paymentRef: string;
  amount: number;
  reason?: string;
  /** A destination charge: the seller's transfer and the platform's fee are given back in proportion. */
  reverseTransfer: boolean;
  idempotencyKey: string;
  metadata?: Record<string, string>;
}

export type RefundResult = { status: "succeeded"; providerRef: string } | { status: "failed"; failureCode: string; failureMessage: string };

/** A payment the consumer confirms in the browser (Stripe.js), for an invoice whose off-session charge needed them. */
export interface OnSessionRequest {
  amount: number;
  currency: string;
  paymentMethod: StoredPaymentMethod;
  idempotencyKey: string;
  metadata: Record<string, string>;
  destination?: string;
  applicationFee?: number;
}

export interface PaymentProvider {
  name: string;
  /**
   * Validates a payment method and returns what may be stored (never the full number); throws a 400 naming the field
   * for a malformed one, a 402 CARD_DECLINED for one the processor declines. Called before anything is written.
   * `businessId`: the business that pays (Stripe attaches the method to its Customer).
   */
  attach(given: PaymentMethodGiven, field: string, businessId: string): Promise<StoredPaymentMethod>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  refund(req: RefundRequest): Promise<RefundResult>;
  /** A SetupIntent's client secret for Stripe.js to collect a card for later, off-session charges. */
  setup(businessId: string): Promise<{ id: string; clientSecret: string }>;
  /** Stripe only: a PaymentIntent for the consumer to confirm on-session (3-D Secure); its event settles the invoice. */
  startOnSession?(req: OnSessionRequest): Promise<{ id: string; clientSecret: string; status: string }>;
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

/** Stripe's test PaymentMethod ids, as the test provider reads them: the test card each stands for. */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: "4242424242424242",
  pm_card_mastercard: "5555555555554444",
  pm_card_amex: "378282246310005",
  pm_card_chargeDeclined: "4000000000000002",
  pm_card_chargeCustomerFail: "4000000000000341",
};

function tokenizeTestCard(card: CardInput, field: string): StoredPaymentMethod {
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
}

export const testProvider: PaymentProvider = {
  name: "test",
  async attach(given, field) {
    if (typeof given !== "string") return tokenizeTestCard(given.card, `${field}.card`);
    const number = TEST_PAYMENT_METHODS[given];
    if (!number)
      throw invalidField(
        field,
        `The built-in test payment provider knows no PaymentMethod '${given.slice(0, 60)}'.`,
        `Use one of: ${Object.keys(TEST_PAYMENT_METHODS).join(", ")}.`,
      );
    return tokenizeTestCard({ number }, field);
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
  async refund() {
    return { status: "succeeded", providerRef: `re_test_${Date.now().toString(36)}${(++counter).toString(36)}` };
  },
  // Shaped as Stripe's, for a client written against it; with this provider a card is given directly (test ids).
  async setup() {
    const id = `seti_test_${Date.now().toString(36)}${(++counter).toString(36)}`;
    return { id, clientSecret: `${id}_secret_test` };
  },
};
