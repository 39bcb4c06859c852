// PAYMENT_PROVIDER=stripe's settings (scripts/lib/payment-settings.mjs): what `npm start` refuses, in one line that
// names the setting, before it installs or builds anything; and the platform's fee, exact to the minor unit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { platformFee } from "@/lib/billing/payment-parties";
import { maxAttempts, nextRetryDelayMs, retryDays } from "@/lib/billing/dunning";
// @ts-expect-error: plain ESM script without types
import { paymentSettingsError } from "../../scripts/lib/payment-settings.mjs";

const STRIPE = {
  PAYMENT_PROVIDER: "stripe",
  STRIPE_SECRET_KEY: "sk_test_0123456789abcdef",
  STRIPE_WEBHOOK_SECRET: "whsec_c2VjcmV0LXNlY3JldA==",
  STRIPE_PUBLISHABLE_KEY: "pk_test_0123456789abcdef",
};

test("the test provider needs nothing; stripe needs its three keys, well formed and of one mode", () => {
  assert.equal(paymentSettingsError({}), null);
  assert.equal(paymentSettingsError({ PAYMENT_PROVIDER: "test" }), null);
  assert.equal(paymentSettingsError(STRIPE), null);
  assert.equal(paymentSettingsError({ ...STRIPE, STRIPE_API_BASE: "http://127.0.0.1:12111" }), null);
  assert.match(paymentSettingsError({ PAYMENT_PROVIDER: "paypal" }), /^PAYMENT_PROVIDER must be test or stripe/);
  for (const name of ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PUBLISHABLE_KEY"]) {
    const missing = paymentSettingsError({ ...STRIPE, [name]: "" });
    assert.match(missing, new RegExp(`needs ${name}`), name);
    assert.match(paymentSettingsError({ ...STRIPE, [name]: "nonsense" }), new RegExp(`^${name} is malformed`), name);
    assert.doesNotMatch(missing, /\n/, "one line");
  }
  assert.match(paymentSettingsError({ ...STRIPE, STRIPE_PUBLISHABLE_KEY: "pk_live_0123456789abcdef" }), /one mode/);
  assert.match(paymentSettingsError({ ...STRIPE, STRIPE_API_BASE: "not a url" }), /^STRIPE_API_BASE must be a URL/);
  assert.match(paymentSettingsError({ ...STRIPE, STRIPE_API_BASE: "http://127.0.0.1:1/v1" }), /without a path/);
  assert.match(paymentSettingsError({ PLATFORM_FEE_PERCENT: "101" }), /^PLATFORM_FEE_PERCENT/);
  assert.match(paymentSettingsError({ PLATFORM_FEE_PERCENT: "-1" }), /^PLATFORM_FEE_PERCENT/);
  assert.equal(paymentSettingsError({ PLATFORM_FEE_PERCENT: "2.9" }), null);
});

test("PAYMENT_RETRY_DAYS: days above 0, comma-separated; the dunning schedule reads the same value", () => {
  for (const ok of ["1,3,5", "2", "0.5, 1", "1,2,3,4,5,6,7,8,9,10"])
    assert.equal(paymentSettingsError({ PAYMENT_RETRY_DAYS: ok }), null, ok);
  for (const bad of ["0", "1,0,3", "a", "1;3", "-1", "1,,3", "1,2,3,4,5,6,7,8,9,10,11"])
    assert.match(paymentSettingsError({ PAYMENT_RETRY_DAYS: bad }), /^PAYMENT_RETRY_DAYS must be/, bad);
  assert.deepEqual(retryDays(undefined), [1, 3, 5]);
  assert.deepEqual(retryDays("0.5, 1"), [0.5, 1]);
  assert.equal(maxAttempts([0.5, 1]), 3);
  assert.equal(nextRetryDelayMs(1, [0.5, 1]), 43_200_000);
  assert.equal(nextRetryDelayMs(2, [0.5, 1]), 86_400_000);
  assert.equal(nextRetryDelayMs(3, [0.5, 1]), null, "no retry after the last attempt");
});

test("the platform's fee is the percent of the amount, half up at the minor unit, in integers", () => {
  assert.equal(platformFee(200, "10"), 20);
  assert.equal(platformFee(200, "0"), 0);
  assert.equal(platformFee(5, "10"), 1, "0.5 rounds up");
  assert.equal(platformFee(4, "10"), 0, "0.4 rounds down");
  assert.equal(platformFee(1999, "2.9"), 58, "57.971 → 58");
  assert.equal(platformFee(1000, "0.0001"), 0);
  assert.equal(platformFee(333, "33.3333"), 111, "110.99989 → 111");
  assert.equal(platformFee(12345, "100"), 12345);
});
