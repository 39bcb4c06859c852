// Stripe.js in the browser, loaded from Stripe (never bundled or self-hosted, as Stripe requires) and only by the
// components that need it: the card form in stripe mode and "Pay now" when the bank asks for the card holder.
// The types are the few calls those components make, not Stripe's whole surface (no @stripe/stripe-js dependency).
// The page's CSP lets the script run through 'strict-dynamic' (it is added by this app's own, trusted code) and
// allows Stripe's frames and API in stripe mode (lib/portal/stripe-js-csp.ts).

export const STRIPE_JS_URL = "https://js.stripe.com/v3/";

export interface StripeError {
  type?: string;
  code?: string;
  message?: string;
}

export interface StripeSetupIntent {
  id: string;
  status: string;
  payment_method: string | { id: string } | null;
}

export interface StripePaymentIntent {
  id: string;
  status: string;
}

export interface StripeAppearance {
  theme: "stripe" | "night";
}

export interface StripePaymentElement {
  mount(target: HTMLElement): void;
  destroy(): void;
  on(event: "ready" | "loaderror" | "change", handler: (e: { error?: StripeError; complete?: boolean }) => void): void;
}

export interface StripeElements {
  create(type: "payment", options?: Record<string, unknown>): StripePaymentElement;
  update(options: { appearance: StripeAppearance }): void;
}

export interface StripeInstance {
  elements(options: { clientSecret: string; appearance?: StripeAppearance }): StripeElements;
  confirmSetup(options: {
    elements: StripeElements;
    redirect: "if_required";
    confirmParams?: { return_url: string };
  }): Promise<{ error?: StripeError; setupIntent?: StripeSetupIntent }>;
  retrieveSetupIntent(clientSecret: string): Promise<{ error?: StripeError; setupIntent?: StripeSetupIntent }>;
  confirmCardPayment(clientSecret: string): Promise<{ error?: StripeError; paymentIntent?: StripePaymentIntent }>;
}

export type StripeConstructor = (publishableKey: string) => StripeInstance;

declare global {
  interface Window {
    Stripe?: StripeConstructor;
  }
}

/** What a person reads when Stripe.js did not arrive (offline, blocked by an extension or a network filter). */
export const STRIPE_UNAVAILABLE =
  "Stripe's card form could not load: check your connection or content blocker; your card is never sent to this server.";

let loading: Promise<StripeConstructor> | null = null;

/**
 * window.Stripe, after adding Stripe's script to the page once; rejects when it fails to load or has not run within
 * `timeoutMs` (a blocked request can hang rather than fail), and a later call then tries again.
 */
export function loadStripeJs(timeoutMs = 20_000): Promise<StripeConstructor> {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  if (loading) return loading;
  const attempt = new Promise<StripeConstructor>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = STRIPE_JS_URL;
    script.async = true;
    const timer = window.setTimeout(() => fail(new Error("Stripe.js did not load in time")), timeoutMs);
    function fail(error: Error) {
      window.clearTimeout(timer);
      script.remove();
      reject(error);
    }
    script.addEventListener("load", () => {
      window.clearTimeout(timer);
      if (window.Stripe) resolve(window.Stripe);
      else fail(new Error("Stripe.js loaded without defining window.Stripe"));
    });
    script.addEventListener("error", () => fail(new Error("Stripe.js failed to load")));
    document.head.appendChild(script);
  });
  loading = attempt;
  attempt.catch(() => {
    if (loading === attempt) loading = null;
  });
  return attempt;
}

/** Stripe's form in the page's colours: the portal follows the system's light or dark setting. */
export function stripeAppearance(): StripeAppearance {
  return { theme: window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "night" : "stripe" };
}
