// Stripe's declining test cards are refused where the card is given, as Stripe refuses to attach them: subscribing
// (or replacing the card) with one answers 402 CARD_DECLINED with the reason in `declineCode`, and creates or changes
// nothing: no subscription, no invoice, no stored payment method, no event. 4000000000000341 is the one card that
// attaches and only fails when charged.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, expectError, createProduct, type ApiClient } from "../helpers/api";
import { db } from "../helpers/usage-db";

const DECLINING: [string, string][] = [
  ["4000 0000 0000 0002", "generic_decline"],
  ["4000000000009995", "insufficient_funds"],
  ["4000000000009987", "lost_card"],
  ["4000000000009979", "stolen_card"],
  ["4000000000000069", "expired_card"],
  ["4000000000000127", "incorrect_cvc"],
  ["4000000000000119", "processing_error"],
  ["4000-0000-0000-6975", "card_velocity_exceeded"],
  ["4242424242424241", "incorrect_number"],
];

async function priceOn(api: ApiClient) {
  const product = await createProduct(api, { name: "Billed API" });
  const res = await api.post(`/v1/products/${product.id}/prices`, { name: "Plan", currency: "USD", type: "usage", amount: 0.001 });
  assert.equal(res.status, 201, res.text);
  return res.body.data as { id: string };
}

async function billingState(api: ApiClient, businessId: string) {
  return {
    subscriptions: (await api.get("/v1/subscriptions")).body.data.length as number,
    invoices: (await api.get("/v1/invoices")).body.data.length as number,
    subscriptionEvents: (await api.get("/v1/events?type=subscription.created,subscription.updated")).body.data.length as number,
    paymentEvents: (await api.get("/v1/events?type=payment.succeeded,payment.failed")).body.data.length as number,
    paymentRows: await db.payment.count({ where: { businessId } }),
  };
}

test("subscribing with a declining test card is a 402 CARD_DECLINED saying why, and creates nothing", async () => {
  const biz = await seedBusiness();
  const price = await priceOn(biz.test);
  const before = await billingState(biz.test, biz.businessId);
  for (const [number, declineCode] of DECLINING) {
    const res = await biz.test.post("/v1/subscriptions", {
      priceId: price.id,
      paymentMethod: { card: { number, expMonth: 12, expYear: 2030, cvc: "123" } },
    });
    const e = expectError(res, 402, "CARD_DECLINED");
    assert.equal(e.declineCode, declineCode, number);
    assert.match(e.message, /card/i);
    assert.match(e.field ?? "", /^paymentMethod\.card/, number);
    assert.match(e.documentation ?? "", /\/docs\/errors#CARD_DECLINED$/);
    assert.ok(!res.text.includes(number.replace(/\D/g, "")), "the card number is not echoed");
  }
  assert.deepEqual(await billingState(biz.test, biz.businessId), before, "a declined card left something behind");
  assert.equal(await db.subscription.count({ where: { businessId: biz.businessId } }), 0);

  // The card that attaches but fails when charged is accepted here (its failure comes with the first invoice).
  const attaches = await biz.test.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4000000000000341" } } });
  assert.equal(attaches.status, 201, attaches.text.slice(0, 300));
});

test("replacing a subscription's card with a declining one is a 402 and keeps the old card", async () => {
  const biz = await seedBusiness();
  const price = await priceOn(biz.test);
  const created = await biz.test.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4242424242424242" } } });
  assert.equal(created.status, 201, created.text.slice(0, 300));
  const id = created.body.data.id as string;
  const before = await billingState(biz.test, biz.businessId);
  for (const [number, declineCode] of DECLINING.slice(0, 3)) {
    const e = expectError(
      await biz.test.patch(`/v1/subscriptions/${id}`, { paymentMethod: { card: { number } }, metadata: { changed: "yes" } }),
      402,
      "CARD_DECLINED",
    );
    assert.equal(e.declineCode, declineCode);
  }
  const after = (await biz.test.get(`/v1/subscriptions/${id}`)).body.data;
  assert.deepEqual(after.paymentMethod, { type: "card", brand: "visa", last4: "4242" });
  assert.deepEqual(after.metadata, {}, "nothing of the refused update was applied");
  assert.deepEqual(await billingState(biz.test, biz.businessId), before);
});

test("CARD_DECLINED is documented on the errors page", async () => {
  const biz = await seedBusiness();
  const res = await fetch(`${process.env.BASE_URL ?? "http://127.0.0.1:3000"}/docs/errors`);
  assert.equal(res.status, 200);
  assert.match(await res.text(), /id="CARD_DECLINED"/);
  assert.ok(biz.businessId);
});
