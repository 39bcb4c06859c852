// The pages that load Stripe.js (a subscription's page in the portal: its card form, and "Pay now" when the bank
// asks for the card holder) need more of the Content-Security-Policy than security-headers.ts gives: Stripe's
// script, its frames (the Payment Element, the bank's dialog) and its API, as Stripe's security guide lists them.
// Only when the payment provider is Stripe; with the test provider every page keeps the policy unchanged
// (frame-src 'none', connections to this origin only). In stripe mode it is every HTML page, not the subscription
// page alone: a document keeps the policy it was first served with, and the App Router reaches the subscription page
// from any other page without loading a new document (a link, the subscribe form's redirect). Nothing of Stripe's
// is loaded anywhere else: the policy only allows it.

const STRIPE_SOURCES: Record<string, string[]> = {
  // With 'strict-dynamic' the script already runs because this app's own code adds it; the host is for browsers
  // that know only CSP level 2.
  "script-src": ["https://js.stripe.com", "https://*.js.stripe.com"],
  "frame-src": ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  "connect-src": ["https://api.stripe.com"],
  "img-src": ["https://*.stripe.com"],
};

/** Whether pages may load Stripe.js: with PAYMENT_PROVIDER=stripe. */
export const allowsStripeJs = (provider = process.env.PAYMENT_PROVIDER): boolean => provider === "stripe";

/** The policy `csp` (directives joined by "; ") with Stripe's sources added; a directive's 'none' gives way to them. */
export function withStripeJs(csp: string): string {
  return csp
    .split(";")
    .map((d) => d.trim())
    .filter(Boolean)
    .map((directive) => {
      const [name, ...sources] = directive.split(/\s+/);
      const extra = STRIPE_SOURCES[name];
      return extra ? [name, ...sources.filter((s) => s !== "'none'"), ...extra].join(" ") : directive;
    })
    .join("; ");
}
