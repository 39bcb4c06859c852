// Billing periods (calendar months and years from the subscription's anchor) and the test payment provider
// (Stripe's test cards succeed or fail by number; nothing else is accepted, and no full number is kept).
import { test } from "node:test";
import assert from "node:assert/strict";
import { addInterval, periodContaining } from "@/lib/billing/periods";
import { testProvider } from "@/lib/billing/payment-provider";
import { ApiError } from "@/lib/http/errors";

test("a monthly period is a calendar month; the 31st ends on the last day of a short month", () => {
  assert.equal(addInterval(new Date("2026-01-15T10:00:00Z"), "month", 1).toISOString(), "2026-02-15T10:00:00.000Z");
  assert.equal(addInterval(new Date("2026-01-31T00:00:00Z"), "month", 1).toISOString(), "2026-02-28T00:00:00.000Z");
  assert.equal(addInterval(new Date("2026-01-31T00:00:00Z"), "month", 2).toISOString(), "2026-03-31T00:00:00.000Z");
  assert.equal(addInterval(new Date("2026-11-30T00:00:00Z"), "month", 3).toISOString(), "2027-02-28T00:00:00.000Z");
  assert.equal(addInterval(new Date("2024-02-29T00:00:00Z"), "year", 1).toISOString(), "2025-02-28T00:00:00.000Z");
});

test("the period containing a moment", () => {
  const anchor = new Date("2026-01-31T12:00:00Z");
  const p = periodContaining(anchor, "month", new Date("2026-03-05T00:00:00Z"));
  assert.equal(p.start.toISOString(), "2026-02-28T12:00:00.000Z");
  assert.equal(p.end.toISOString(), "2026-03-31T12:00:00.000Z");
  assert.equal(p.index, 1);
  assert.equal(periodContaining(anchor, "month", anchor).index, 0);
});

const expectField = (promise: Promise<unknown>, field: string) =>
  assert.rejects(promise, (e) => e instanceof ApiError && e.status === 400 && e.field === field);
const card = (number: string) => ({ card: { number } });

test("the test provider takes test cards only and keeps brand and last four", async () => {
  const pm = await testProvider.attach(card("4242 4242 4242 4242"), "paymentMethod", "biz_1");
  assert.deepEqual({ brand: pm.brand, last4: pm.last4, provider: pm.provider }, { brand: "visa", last4: "4242", provider: "test" });
  await expectField(testProvider.attach(card("4111111111111111"), "paymentMethod", "biz_1"), "paymentMethod.card.number");
  await expectField(testProvider.attach(card("abc"), "pm", "biz_1"), "pm.card.number");
});

test("the test provider reads Stripe's test PaymentMethod ids as their cards, and refuses others", async () => {
  assert.equal((await testProvider.attach("pm_card_visa", "paymentMethod", "biz_1")).last4, "4242");
  assert.equal((await testProvider.attach("pm_card_mastercard", "paymentMethod", "biz_1")).brand, "mastercard");
  assert.equal((await testProvider.attach("pm_card_chargeCustomerFail", "paymentMethod", "biz_1")).last4, "0341");
  await assert.rejects(
    testProvider.attach("pm_card_chargeDeclined", "paymentMethod", "biz_1"),
    (e) => e instanceof ApiError && e.status === 402,
  );
  await expectField(testProvider.attach("pm_1NotATestOne", "paymentMethod", "biz_1"), "paymentMethod");
});

test("charges succeed or fail by card number", async () => {
  const charge = async (number: string) =>
    testProvider.charge({
      amount: 100,
      currency: "USD",
      idempotencyKey: "k",
      description: "d",
      paymentMethod: await testProvider.attach(card(number), "card", "biz_1"),
    });
  assert.equal((await charge("4242424242424242")).status, "succeeded");
  assert.equal((await charge("5555555555554444")).status, "succeeded");
  const declined = await charge("4000000000000341");
  assert.equal(declined.status, "failed");
  assert.equal(declined.status === "failed" && declined.failureCode, "card_declined");
  // A declining card never gets stored (attach refuses it); one stored before that change still fails its charge.
  const stored = { provider: "test", type: "card" as const, brand: "visa", last4: "9995", token: "tok_test_4000000000009995" };
  const funds = await testProvider.charge({ amount: 100, currency: "USD", idempotencyKey: "k", description: "d", paymentMethod: stored });
  assert.equal(funds.status === "failed" && funds.failureCode, "insufficient_funds");
});

test("declining cards are refused when given: 402 CARD_DECLINED with the decline code, the field pointing at the cause", async () => {
  const declined = (number: string, code: string, field: string) =>
    assert.rejects(
      testProvider.attach(card(number), "paymentMethod", "biz_1"),
      (e) => e instanceof ApiError && e.status === 402 && e.code === "CARD_DECLINED" && e.extra?.declineCode === code && e.field === field,
    );
  await declined("4000000000000002", "generic_decline", "paymentMethod.card.number");
  await declined("4000000000009995", "insufficient_funds", "paymentMethod.card.number");
  await declined("4000000000000127", "incorrect_cvc", "paymentMethod.card.cvc");
  await declined("4000000000000069", "expired_card", "paymentMethod.card.expYear");
  assert.equal(
    (await testProvider.attach(card("4000000000000341"), "card", "biz_1")).last4,
    "0341",
    "0341 attaches; only its charges fail",
  );
});
