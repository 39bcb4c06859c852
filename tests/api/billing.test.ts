// Billing on the suite's server: subscriptions (create, read, list, change, cancel) and their events, the cost of
// every rated product call (key verifications and meter events here; usage event cost, billingAmount), that
// control-plane calls of /v1 are never rated, the upcoming invoice, test mode, and bad
// input (negative or non-numeric amounts, unknown currencies, tiers out of order or with a gap, an inactive
// product, cancelling twice) answered with the error envelope naming the field.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, expectError, createProduct, type ApiClient } from "../helpers/api";
import { db, poll, settledCount } from "../helpers/usage-db";

async function priceOn(api: ApiClient, body: Record<string, unknown>) {
  const product = await createProduct(api, { name: "Billed API" });
  const res = await api.post(`/v1/products/${product.id}/prices`, { name: "Plan", currency: "USD", ...body });
  assert.equal(res.status, 201, res.text);
  return { product, price: res.body.data };
}

/**
 * One call of `productId` as the product's provider counts it: the business verifies its own key for its own
 * product (POST /v1/keys/verify), which its project subscribes to. Answers the call's cost as "0.0015 USD", or null.
 */
async function productCall(api: ApiClient, key: string, productId: string): Promise<string | null> {
  const res = await api.post("/v1/keys/verify", { key, product: productId });
  assert.equal(res.status, 200, res.text);
  const cost = res.body.data.cost;
  return cost ? `${cost.amount} ${cost.currency}` : null;
}

async function subscribe(api: ApiClient, priceId: string, extra: Record<string, unknown> = {}) {
  const res = await api.post("/v1/subscriptions", { priceId, ...extra });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

test("a project subscribes to a price: the subscription, its period and subscription.created", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, { type: "usage", amount: 0.001 });
  const sub = await subscribe(biz.test, price.id, {
    paymentMethod: { card: { number: "4242 4242 4242 4242", expMonth: 12, expYear: 2030, cvc: "123" } },
    metadata: { team: "core" },
  });
  assert.match(sub.id, /^sub_/);
  assert.equal(sub.status, "active");
  assert.equal(sub.projectId, biz.projectId);
  assert.equal(sub.productId, product.id);
  assert.equal(sub.priceId, price.id);
  assert.equal(sub.environment, "test");
  assert.deepEqual(sub.paymentMethod, { type: "card", brand: "visa", last4: "4242" }, "never the full number");
  assert.deepEqual(sub.metadata, { team: "core" });
  const start = new Date(sub.currentPeriodStart);
  const end = new Date(sub.currentPeriodEnd);
  assert.equal(end.getUTCMonth(), (start.getUTCMonth() + 1) % 12, "a monthly period");

  assert.deepEqual((await biz.test.get(`/v1/subscriptions/${sub.id}`)).body.data, sub);
  const list = await biz.test.get("/v1/subscriptions?status=active");
  assert.deepEqual(
    list.body.data.map((s: { id: string }) => s.id),
    [sub.id],
  );
  assert.equal((await biz.live.get("/v1/subscriptions")).body.data.length, 0, "live keys do not see test subscriptions");

  const events = await biz.test.get("/v1/events?type=subscription.created");
  assert.equal(events.body.data.length, 1);
  assert.equal(events.body.data[0].data.id, sub.id);
  assert.ok(!JSON.stringify(events.body.data[0]).includes("4242424242424242"));

  expectError(await biz.test.post("/v1/subscriptions", { priceId: price.id }), 409, "ALREADY_EXISTS");
});

test("every rated product call says its cost; usage events carry it and metrics sum it into billingAmount", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.live, { type: "usage", amount: 1.5, includedQuantity: 2 });
  await subscribe(biz.live, price.id, { paymentMethod: { card: { number: "4242424242424242" } } });
  const costs: (string | null)[] = [];
  for (let i = 0; i < 5; i++) costs.push(await productCall(biz.live, biz.liveKey, product.id));
  assert.deepEqual(costs, ["0 USD", "0 USD", "1.5 USD", "1.5 USD", "1.5 USD"], "two included, then 1.5 each");
  const stranger = await seedBusiness();
  assert.equal(await productCall(biz.live, stranger.liveKey, product.id), null, "refused calls are not rated");
  assert.equal((await biz.live.get("/v1/products?limit=1")).headers.get("x-request-cost"), null, "the control plane is never rated");

  const rows = () =>
    db.usageEvent.findMany({
      where: { projectId: biz.projectId, environment: "production", statusCode: 200, productId: product.id },
      orderBy: { timestamp: "asc" },
    });
  await settledCount(async () => (await rows()).length, 5);
  assert.deepEqual(
    (await rows()).map((r) => r.cost),
    [0, 0, 1.5, 1.5, 1.5],
  );
  const usage = await biz.live.get(`/v1/usage?productId=${product.id}&statusCode=200&sort=timestamp`);
  assert.deepEqual(
    usage.body.data.map((u: { cost: number }) => u.cost),
    [0, 0, 1.5, 1.5, 1.5],
  );

  // Rollups are flushed every few seconds; the metric is the exact sum.
  let billing = 0;
  for (let i = 0; i < 40 && billing < 4.5; i++) {
    billing = (await biz.live.get("/v1/usage/metrics?period=day")).body.data.billingAmount;
    if (billing < 4.5) await new Promise((r) => setTimeout(r, 250));
  }
  assert.equal(billing, 4.5, "the metric sums the product calls' costs");
});

test("a project without a subscription is not rated", async () => {
  const biz = await seedBusiness();
  const res = await biz.live.get("/v1/products");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("x-request-cost"), null);
  expectError(await biz.live.get("/v1/invoices/upcoming"), 404, "RESOURCE_NOT_FOUND");
});

test("the upcoming invoice rates the running period: base fee and overage, lines linked to their usage", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, {
    type: "subscription",
    baseSubscription: { amount: 29.99, interval: "month", includedQuota: 3 },
    overageRate: 0.25,
  });
  const sub = await subscribe(biz.test, price.id);
  for (let i = 0; i < 5; i++) await productCall(biz.test, biz.testKey, product.id);
  for (let i = 0; i < 3; i++) await biz.test.get("/v1/products?limit=1");
  const res = await biz.test.get("/v1/invoices/upcoming");
  assert.equal(res.status, 200, res.text);
  const inv = res.body.data;
  assert.equal(inv.id, null);
  assert.equal(inv.status, "upcoming");
  assert.equal(inv.subscriptionId, sub.id);
  assert.equal(inv.productId, product.id);
  assert.equal(inv.seller.id, biz.businessId, "its own product: the business sells to itself");
  assert.equal(inv.currency, "USD");
  const [base, overage] = inv.lines;
  assert.deepEqual([base.type, base.amount, base.unitAmount], ["subscription", 2999, "29.99"]);
  assert.equal(overage.type, "usage");
  assert.equal(overage.quantity, 5, "the product's calls only: control-plane calls of /v1 are never billed");
  assert.equal(overage.includedQuantity, 3);
  assert.equal(overage.billableQuantity, 2);
  assert.equal(overage.unitAmount, "0.25");
  assert.equal(overage.amount, 50);
  assert.equal(inv.total, 2999 + 50);
  assert.equal(inv.totalDecimal, "30.49");
  assert.match(overage.usage.events, /^\/v1\/usage\?subscriptionId=sub_/);
  const events = await poll(async () => {
    const r = await biz.test.get(overage.usage.events);
    return r.status === 200 && r.body.pagination.total === 5 ? r : null;
  });
  assert.ok(events!.body.data.every((e: { subscriptionId: string }) => e.subscriptionId === sub.id));
});

test("test mode: test subscriptions rate test calls into test invoices, never live ones", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, { type: "usage", amount: 1 });
  await subscribe(biz.test, price.id);
  assert.equal(await productCall(biz.test, biz.testKey, product.id), "1 USD");
  assert.equal(await productCall(biz.test, biz.liveKey, product.id), null, "the live environment has no subscription");
  await settledCount(() => db.usageEvent.count({ where: { projectId: biz.projectId, environment: "test", cost: { gt: 0 } } }), 1);
  const rows = await db.usageEvent.findMany({ where: { projectId: biz.projectId, environment: "test" } });
  assert.ok(rows.length > 0 && rows.every((r) => r.billable === false), "test traffic is never billable");
});

test("PATCH: a new price takes over at renewal; cancelAtPeriodEnd; a new card; subscription.updated", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, { type: "usage", amount: 0.01 });
  const other = (await biz.test.post(`/v1/products/${product.id}/prices`, { name: "Pro", type: "usage", currency: "USD", amount: 0.005 }))
    .body.data;
  const sub = await subscribe(biz.test, price.id);
  const res = await biz.test.patch(`/v1/subscriptions/${sub.id}`, {
    priceId: other.id,
    cancelAtPeriodEnd: true,
    paymentMethod: { card: { number: "5555555555554444" } },
  });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.priceId, price.id, "the running period keeps its price");
  assert.equal(res.body.data.pendingPriceId, other.id);
  assert.equal(res.body.data.cancelAtPeriodEnd, true);
  assert.deepEqual(res.body.data.paymentMethod, { type: "card", brand: "mastercard", last4: "4444" });
  const updated = (await biz.test.get("/v1/events?type=subscription.updated")).body.data;
  assert.equal(updated.length, 1);
  assert.equal(updated[0].previousAttributes.cancelAtPeriodEnd, false);
  assert.equal(updated[0].previousAttributes.pendingPriceId, null);
});

test("cancel at period end, then again: 409 naming the field; cancel now: canceled with a final invoice", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, { type: "usage", amount: 0.5 });
  const sub = await subscribe(biz.test, price.id, { paymentMethod: { card: { number: "4242424242424242" } } });
  const later = await biz.test.post(`/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: true });
  assert.equal(later.status, 200, later.text);
  assert.equal(later.body.data.status, "active");
  assert.equal(later.body.data.cancelAtPeriodEnd, true);
  assert.equal(
    expectError(await biz.test.post(`/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: true }), 409, "STATE_CONFLICT").field,
    "atPeriodEnd",
  );

  await productCall(biz.test, biz.testKey, product.id);
  await productCall(biz.test, biz.testKey, product.id);
  const now = await biz.test.post(`/v1/subscriptions/${sub.id}/cancel`);
  assert.equal(now.status, 200, now.text);
  assert.equal(now.body.data.status, "canceled");
  assert.ok(now.body.data.endedAt);
  const twice = expectError(await biz.test.post(`/v1/subscriptions/${sub.id}/cancel`), 409, "STATE_CONFLICT");
  assert.equal(twice.field, "status");
  expectError(await biz.test.patch(`/v1/subscriptions/${sub.id}`, { cancelAtPeriodEnd: false }), 409, "STATE_CONFLICT");

  const invoices = (await biz.test.get("/v1/invoices")).body.data;
  assert.equal(invoices.length, 1);
  const inv = invoices[0];
  assert.equal(inv.subscriptionId, sub.id);
  assert.equal(inv.periodEnd, now.body.data.endedAt);
  assert.equal(inv.lines[0].quantity, 2, "the calls of the period so far");
  assert.equal(inv.total, 100);
  assert.equal(inv.status, "paid");
  const full = (await biz.test.get(`/v1/invoices/${inv.id}`)).body.data;
  assert.equal(full.payments.length, 1);
  assert.equal(full.payments[0].status, "succeeded");
  assert.equal(full.amountPaid, inv.total);
  const types = (await biz.test.get("/v1/events?limit=100")).body.data.map((e: { type: string }) => e.type);
  assert.ok(types.includes("subscription.canceled"));
  assert.ok(types.includes("payment.succeeded"));
  // Once canceled, the product's calls are refused and not rated; the project may subscribe again.
  const refused = (await biz.test.post("/v1/keys/verify", { key: biz.testKey, product: product.id })).body.data;
  assert.deepEqual([refused.valid, refused.code, refused.cost ?? null], [false, "SUBSCRIPTION_INACTIVE", null]);
  await subscribe(biz.test, price.id);
});

test("bad input: the error envelope names the field", async () => {
  const biz = await seedBusiness();
  const product = await createProduct(biz.test);
  const post = (body: Record<string, unknown>) =>
    biz.test.post(`/v1/products/${product.id}/prices`, { name: "x", currency: "USD", ...body });
  assert.equal(expectError(await post({ type: "usage", amount: -0.01 }), 400, "INVALID_FIELD").field, "amount");
  assert.equal(expectError(await post({ type: "usage", amount: "ten" }), 400, "INVALID_FIELD").field, "amount");
  assert.equal(
    expectError(await post({ type: "usage", amount: 0.0000000001 }), 400, "INVALID_FIELD").field,
    "amount",
    "more than 9 decimals",
  );
  assert.equal(expectError(await post({ type: "usage", amount: 1, currency: "ABC" }), 400, "INVALID_FIELD").field, "currency");
  assert.equal(
    expectError(
      await post({
        type: "usage",
        tiers: [
          { upTo: 100, amount: 1 },
          { upTo: 50, amount: 1 },
          { upTo: null, amount: 1 },
        ],
      }),
      400,
      "INVALID_FIELD",
    ).field,
    "tiers[1].upTo",
  );
  assert.equal(
    expectError(
      await post({
        type: "usage",
        tiers: [
          { upTo: 100, amount: 1 },
          { upTo: 500, amount: 0.5 },
        ],
      }),
      400,
      "INVALID_FIELD",
    ).field,
    "tiers[1].upTo",
    "a gap after the last tier",
  );
  assert.equal(
    expectError(await post({ type: "usage", tiers: [{ upTo: null, amount: 1 }], tiersMode: "stairs" }), 400, "INVALID_FIELD").field,
    "tiersMode",
  );
  assert.equal(expectError(await post({ type: "usage", amount: 1, tiersMode: "volume" }), 400, "INVALID_FIELD").field, "tiersMode");
  assert.equal(
    expectError(
      await post({ type: "subscription", baseSubscription: { amount: -5, interval: "month", includedQuota: 0 } }),
      400,
      "INVALID_FIELD",
    ).field,
    "baseSubscription.amount",
  );
  assert.equal(
    expectError(await post({ type: "metered", metrics: [{ name: "tokens", amount: "cheap", unit: "1K tokens" }] }), 400, "INVALID_FIELD")
      .field,
    "metrics[0].amount",
  );
  const volume = await post({
    type: "usage",
    tiers: [
      { upTo: 100, amount: 1 },
      { upTo: null, amount: 0.5 },
    ],
    tiersMode: "volume",
  });
  assert.equal(volume.status, 201, volume.text);
  assert.equal(volume.body.data.tiersMode, "volume");
  const graduated = await post({
    type: "usage",
    tiers: [
      { upTo: 100, amount: 1 },
      { upTo: "inf", amount: 0.5 },
    ],
  });
  assert.equal(graduated.body.data.tiersMode, "graduated", "the default");

  // Subscriptions.
  assert.equal(expectError(await biz.test.post("/v1/subscriptions", {}), 400, "MISSING_REQUIRED_FIELD").field, "priceId");
  assert.equal(
    expectError(await biz.test.post("/v1/subscriptions", { priceId: "price_00000000000000000000000000" }), 404, "RESOURCE_NOT_FOUND").field,
    "priceId",
  );
  const inactive = await priceOn(biz.test, { type: "usage", amount: 1 });
  await biz.test.post(`/v1/products/${inactive.product.id}/deactivate`);
  assert.equal(
    expectError(await biz.test.post("/v1/subscriptions", { priceId: inactive.price.id }), 409, "STATE_CONFLICT").field,
    "priceId",
  );
  const off = await priceOn(biz.test, { type: "usage", amount: 1 });
  await biz.test.patch(`/v1/prices/${off.price.id}`, { isActive: false });
  assert.equal(expectError(await biz.test.post("/v1/subscriptions", { priceId: off.price.id }), 400, "INVALID_FIELD").field, "priceId");
  const ok = await priceOn(biz.test, { type: "usage", amount: 1 });
  assert.equal(
    expectError(
      await biz.test.post("/v1/subscriptions", { priceId: ok.price.id, paymentMethod: { card: { number: "1234567812345678" } } }),
      400,
      "INVALID_FIELD",
    ).field,
    "paymentMethod.card.number",
  );
  assert.equal(
    expectError(
      await biz.test.post("/v1/subscriptions", { priceId: ok.price.id, projectId: "proj_00000000000000000000000000" }),
      404,
      "RESOURCE_NOT_FOUND",
    ).field,
    "projectId",
  );
  assert.equal(
    expectError(await biz.test.post("/v1/subscriptions", { priceId: ok.price.id, bogus: 1 }), 400, "INVALID_FIELD").field,
    "bogus",
  );
  const other = await seedBusiness();
  expectError(await other.test.post("/v1/subscriptions", { priceId: ok.price.id }), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.live.post("/v1/subscriptions", { priceId: ok.price.id }), 404, "RESOURCE_NOT_FOUND");
});

test("subscribing at once from many requests makes one subscription", async () => {
  const biz = await seedBusiness();
  const { price } = await priceOn(biz.test, { type: "usage", amount: 0.01 });
  const results = await Promise.all(Array.from({ length: 6 }, () => biz.test.post("/v1/subscriptions", { priceId: price.id })));
  assert.deepEqual(
    results.map((r) => r.status).sort(),
    [201, 409, 409, 409, 409, 409],
    results.map((r) => r.text.slice(0, 120)).join("\n"),
  );
  for (const r of results.filter((x) => x.status === 409)) assert.equal(r.body.error.code, "ALREADY_EXISTS");
  assert.equal((await biz.test.get("/v1/subscriptions")).body.data.length, 1);
});

test("a meter event's quantity is rated by a metered price's per-unit metric, once per identifier", async () => {
  const biz = await seedBusiness();
  const { product, price } = await priceOn(biz.test, { type: "metered", metrics: [{ name: "requests", amount: 0.01, unit: "request" }] });
  const sub = await subscribe(biz.test, price.id);
  const body = { product: product.id, subscription: sub.id, quantity: 1234, identifier: "nightly-2026-11-25" };
  const first = await biz.test.post("/v1/meter-events", body);
  assert.equal(first.status, 201, first.text);
  assert.deepEqual(first.body.data.cost, { amount: "12.34", currency: "USD" });
  assert.equal((await biz.test.post("/v1/meter-events", body)).body.data.id, first.body.data.id);
  const inv = (await biz.test.get("/v1/invoices/upcoming")).body.data;
  assert.equal(inv.lines[0].quantity, 1234);
  assert.equal(inv.total, 1234);
});
