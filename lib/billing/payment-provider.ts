import { testProvider, type PaymentProvider } from "./card-payments";

// Which payment provider serves this deployment: PAYMENT_PROVIDER=test (the default, card-payments.ts) or stripe
// (stripe/stripe-provider.ts). The interface, the test provider and the declines live in card-payments.ts, which
// both providers import; this file only chooses, so the Stripe provider can import them without a circle.
export * from "./card-payments";

// Stripe's SDK is loaded only where PAYMENT_PROVIDER=stripe asks for it.
const stripe = () => import("./stripe/stripe-provider").then((m) => m.stripeProvider);
const lazyStripeProvider: PaymentProvider = {
  name: "stripe",
  attach: async (given, field, businessId) => (await stripe()).attach(given, field, businessId),
  charge: async (req) => (await stripe()).charge(req),
  refund: async (req) => (await stripe()).refund(req),
  setup: async (businessId) => (await stripe()).setup(businessId),
  startOnSession: async (req) => (await stripe()).startOnSession!(req),
};

const providers: Record<string, PaymentProvider> = { test: testProvider, stripe: lazyStripeProvider };

export const paymentProviderName = () => process.env.PAYMENT_PROVIDER ?? "test";

export function paymentProvider(): PaymentProvider {
  const name = paymentProviderName();
  const provider = providers[name];
  if (!provider) throw new Error(`Unknown PAYMENT_PROVIDER '${name}'`);
  return provider;
}
