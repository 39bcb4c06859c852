import type Stripe from "stripe";
import { processSingleton } from "@/lib/process-state";

// The official Stripe SDK, one client per process, configured from the environment (PAYMENT_PROVIDER=stripe;
// scripts/lib/payment-settings.mjs checks the settings when `npm start` begins). STRIPE_API_BASE points it at a
// Stripe-compatible server (the tests' own, tests/helpers/stripe-server.ts), since Stripe itself is out of reach
// there; in production it is unset and the SDK talks to api.stripe.com. The SDK is imported when first used, so a
// deployment on the test provider never loads it (the data plane's memory is counted).

const state = processSingleton("stripe-client", () => ({ client: null as Stripe | null, key: "" }));

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`PAYMENT_PROVIDER=stripe needs ${name}`);
  return value;
}

export async function stripeClient(): Promise<Stripe> {
  const key = required("STRIPE_SECRET_KEY");
  // A process keeps one client for its settings (the key and where the API is); other settings, another client.
  const settings = `${key} ${process.env.STRIPE_API_BASE ?? ""}`;
  if (state.client && state.key === settings) return state.client;
  const base = process.env.STRIPE_API_BASE ? new URL(process.env.STRIPE_API_BASE) : null;
  const { default: StripeSdk } = await import("stripe");
  state.client = new StripeSdk(key, {
    ...(base
      ? {
          host: base.hostname,
          port: Number(base.port || (base.protocol === "https:" ? 443 : 80)),
          protocol: base.protocol === "https:" ? "https" : "http",
        }
      : {}),
    // The SDK repeats a request that met a network error with the same Idempotency-Key: never a second charge.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: "developer-platform" },
  });
  state.key = settings;
  return state.client;
}

export const stripeWebhookSecret = () => required("STRIPE_WEBHOOK_SECRET");
