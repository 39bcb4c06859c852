// The Content-Security-Policy with Stripe.js allowed (PAYMENT_PROVIDER=stripe): Stripe's script, frames and API are
// added to the policy security-headers.ts builds, frame-src's 'none' gives way to them, and nothing else changes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { contentSecurityPolicy } from "@/lib/portal/security-headers";
import { allowsStripeJs, withStripeJs } from "@/lib/portal/stripe-js-csp";

const directives = (csp: string) => new Map(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1)] as const));

test("only the stripe payment provider allows Stripe.js", () => {
  assert.equal(allowsStripeJs("stripe"), true);
  assert.equal(allowsStripeJs("test"), false);
  assert.equal(allowsStripeJs(undefined), false);
});

test("Stripe's script, frames and API are added; the nonce, strict-dynamic and every other directive stay", () => {
  const base = contentSecurityPolicy({ nonce: "abc", https: true });
  const before = directives(base);
  const after = directives(withStripeJs(base));
  assert.deepEqual(after.get("script-src"), [...before.get("script-src")!, "https://js.stripe.com", "https://*.js.stripe.com"]);
  assert.ok(after.get("script-src")!.includes("'nonce-abc'") && after.get("script-src")!.includes("'strict-dynamic'"));
  assert.deepEqual(after.get("frame-src"), ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"]);
  assert.deepEqual(after.get("connect-src"), ["'self'", "https://api.stripe.com"]);
  assert.deepEqual(after.get("img-src"), [...before.get("img-src")!, "https://*.stripe.com"]);
  for (const name of ["default-src", "style-src", "object-src", "base-uri", "form-action", "frame-ancestors", "upgrade-insecure-requests"])
    assert.deepEqual(after.get(name), before.get(name), name);
  assert.equal(after.size, before.size);
});
