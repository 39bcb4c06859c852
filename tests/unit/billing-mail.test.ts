// The consumer's billing mail (lib/billing/billing-mail.ts) and the platform fee a refund gives back
// (lib/billing/payment-parties.ts feeAfterRefund): pure, so checked here to the word and the minor unit.
import { test } from "node:test";
import assert from "node:assert/strict";
import { billingMail } from "@/lib/billing/billing-mail";
import { feeAfterRefund } from "@/lib/billing/payment-parties";

const invoice = {
  id: "inv_1",
  number: "TEST-0001",
  businessId: "biz_1",
  amountDue: 60,
  currency: "USD",
  failureMessage: "Your card was declined.",
  nextPaymentAttempt: new Date("2026-12-08T10:00:00Z"),
  payPath: "/portal/subscriptions/sub_1",
};

test("each billing mail names the invoice, the amount and where to pay", () => {
  const failed = billingMail("payment_failed", invoice, "https://dev.example");
  assert.equal(failed.subject, "Payment of 0.60 USD for invoice TEST-0001 failed");
  assert.match(failed.text, /\(Your card was declined\.\)\. We will try again on 2026-12-08\./);
  assert.match(failed.text, /https:\/\/dev\.example\/portal\/subscriptions\/sub_1$/);
  const unpaid = billingMail("unpaid", { ...invoice, nextPaymentAttempt: null }, "");
  assert.match(unpaid.subject, /^Invoice TEST-0001 is unpaid/);
  assert.match(unpaid.text, /402 SUBSCRIPTION_UNPAID/);
  assert.match(billingMail("action_required", invoice, "").subject, /^Confirm your payment of 0\.60 USD/);
});

test("a refund gives the platform's fee back in proportion, half up, on the refunded total", () => {
  assert.equal(feeAfterRefund(20, 200, 0), 20);
  assert.equal(feeAfterRefund(20, 200, 50), 15);
  assert.equal(feeAfterRefund(20, 200, 200), 0);
  assert.equal(feeAfterRefund(0, 200, 100), 0);
  // 7 × 1/3 = 2.33 given back: 5 kept; 7 × 1/2 = 3.5 given back rounds half up to 4: 3 kept.
  assert.equal(feeAfterRefund(7, 300, 100), 5);
  assert.equal(feeAfterRefund(7, 200, 100), 3);
});
