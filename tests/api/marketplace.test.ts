// Two real accounts on the suite's server: provider A publishes an API product with two plans; developer B
// finds it in the catalogue, subscribes with a test card, and its key is verified and metered by A; the money
// shows on B's invoice and in A's revenue. Then the refusals: private, inactive and unknown products, inactive
// prices, declined cards, a second subscription, and each side reading what is not its own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, expectError, createProduct, request, type ApiClient } from "../helpers/api";
import { db, poll } from "../helpers/usage-db";
import { withinOneWindow } from "../helpers/marketplace";

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

async function publishApi(api: ApiClient, name = `Weather ${Date.now().toString(36)}`) {
  const product = await createProduct(api, {
    name,
    type: "API",
    description: "Forecasts by city",
    api: { upstreamUrl: "http://127.0.0.1:9/v1", secretHeaders: { "X-Upstream-Key": "upstream-secret-value" } },
  });
  const basic = await api.post(`/v1/products/${product.id}/prices`, {
    name: "Basic",
    type: "usage",
    currency: "USD",
    amount: 0.002,
    rateLimit: { limit: 3, windowSeconds: 60 },
    monthlyQuota: 1000,
  });
  assert.equal(basic.status, 201, basic.text);
  const pro = await api.post(`/v1/products/${product.id}/prices`, {
    name: "Pro",
    type: "subscription",
    currency: "USD",
    baseSubscription: { amount: 49, interval: "month", includedQuota: 100000 },
    overageRate: 0.001,
  });
  assert.equal(pro.status, 201, pro.text);
  const published = await api.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  return { product: published.body.data, basic: basic.body.data, pro: pro.body.data };
}

test("publishing: needs an active price, makes a slug, seals the secret headers and validates the api block", async () => {
  const a = await seedBusiness();
  const product = await createProduct(a.test, { name: "Bare API", type: "API" });
  const early = expectError(await a.test.patch(`/v1/products/${product.id}`, { visibility: "public" }), 400, "INVALID_FIELD");
  assert.equal(early.field, "visibility");
  assert.match(early.message, /active price/);
  assert.equal(
    expectError(
      await a.test.post("/v1/products", { name: "S", type: "SaaS", api: { upstreamUrl: "http://127.0.0.1:9" } }),
      400,
      "INVALID_FIELD",
    ).field,
    "api",
  );
  // The webhook SSRF rules: a forbidden (here reserved) address is refused even with ALLOW_PRIVATE_URLS=true.
  const forbiddenUrl = { api: { upstreamUrl: "http://240.0.0.1/latest" } };
  assert.equal(expectError(await a.test.patch(`/v1/products/${product.id}`, forbiddenUrl), 400, "INVALID_FIELD").field, "api.upstreamUrl");
  assert.equal(
    expectError(await a.test.patch(`/v1/products/${product.id}`, { slug: "Not A Slug" }), 400, "INVALID_FIELD").field ?? "slug",
    "slug",
  );

  const { product: published } = await publishApi(a.test, "Forecast Service");
  assert.equal(published.visibility, "public");
  assert.match(published.slug, /^forecast-service/);
  assert.ok(published.publishedAt);
  assert.deepEqual(published.api.secretHeaderNames, ["X-Upstream-Key"]);
  assert.ok(!JSON.stringify(published).includes("upstream-secret-value"), "secret header values are never returned");
  const row = await db.product.findUniqueOrThrow({ where: { id: published.id } });
  assert.ok(row.apiSecretHeaders && !row.apiSecretHeaders.includes("upstream-secret-value"), "stored sealed");

  const other = await publishApi(a.test);
  expectError(await a.test.patch(`/v1/products/${other.product.id}`, { slug: published.slug }), 409, "ALREADY_EXISTS");
});

test("the walk-through: B finds A's product, subscribes, A verifies B's key and meters usage; B's invoice equals A's revenue", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { product, basic, pro } = await publishApi(a.test);

  // The catalogue: any valid key, and no key at all for the public page's data.
  const found = await b.test.get(`/v1/catalog/products?q=${encodeURIComponent(product.name.split(" ")[1])}`);
  assert.equal(found.status, 200, found.text);
  assert.deepEqual(
    found.body.data.map((p: { id: string }) => p.id),
    [product.id],
  );
  const listed = found.body.data[0];
  assert.equal(listed.provider.name, (await db.business.findUniqueOrThrow({ where: { id: a.businessId } })).name);
  assert.deepEqual(listed.prices.map((p: { name: string }) => p.name).sort(), ["Basic", "Pro"]);
  assert.deepEqual(listed.prices.find((p: { name: string }) => p.name === "Basic").rateLimit, { limit: 3, windowSeconds: 60 });
  assert.ok(!JSON.stringify(listed).includes("127.0.0.1:9"), "the upstream address is the provider's business");
  assert.equal((await b.test.get(`/v1/catalog/products/${product.slug}`)).body.data.id, product.id);
  assert.equal((await b.test.get(`/v1/catalog/products?type=API&provider=${a.businessId}`)).body.data.length, 1);

  // B subscribes its test project to the Basic plan with a test card; B's key may call the product.
  const created = await b.test.post("/v1/subscriptions", { priceId: basic.id, paymentMethod: CARD });
  assert.equal(created.status, 201, created.text);
  const sub = created.body.data;
  assert.equal(sub.providerId, a.businessId);
  assert.equal(sub.productId, product.id);
  assert.equal(sub.environment, "test");
  expectError(await b.test.post("/v1/subscriptions", { priceId: pro.id, paymentMethod: CARD }), 409, "ALREADY_EXISTS");

  // Both sides hear about it.
  const providerEvents = await poll(async () => {
    const r = await a.test.get("/v1/events?type=subscription.created");
    return r.body.data.length ? r.body.data : null;
  });
  assert.equal(providerEvents[0].data.id, sub.id);
  assert.equal((await b.test.get("/v1/events?type=subscription.created")).body.data[0].data.id, sub.id);

  // A verifies B's key: valid, with the consumer, plan and limits; each verification is a call of the product.
  await withinOneWindow(60); // four verifications in one of the plan's one-minute windows: the fourth is refused
  const verified = await a.test.post("/v1/keys/verify", { key: b.testKey, product: product.id });
  assert.equal(verified.status, 200, verified.text);
  const v = verified.body.data;
  assert.equal(v.valid, true);
  assert.equal(v.code, "VALID");
  assert.equal(v.consumer.businessId, b.businessId);
  assert.equal(v.subscription, sub.id);
  assert.equal(v.price, basic.id);
  assert.equal(v.environment, "test");
  assert.equal(v.ratelimit.limit, 3);
  assert.equal(v.ratelimit.remaining, 2);
  assert.deepEqual([v.quota.limit, v.quota.remaining], [1000, 999]);
  assert.deepEqual(v.cost, { amount: "0.002", currency: "USD" });
  await a.test.post("/v1/keys/verify", { key: b.testKey, product: product.slug });
  await a.test.post("/v1/keys/verify", { key: b.testKey, product: product.id });
  const limited = (await a.test.post("/v1/keys/verify", { key: b.testKey, product: product.id })).body.data;
  assert.equal(limited.valid, false);
  assert.equal(limited.code, "RATE_LIMIT_EXCEEDED", "the plan's 3 calls a minute");
  assert.ok(limited.retryAfter >= 1);

  // Refusals name why, without an error status: the provider asked a question and got the answer.
  assert.equal(
    (await a.test.post("/v1/keys/verify", { key: "sk_test_" + "x".repeat(40), product: product.id })).body.data.code,
    "INVALID_API_KEY",
  );
  const stranger = await seedBusiness();
  assert.equal(
    (await a.test.post("/v1/keys/verify", { key: stranger.testKey, product: product.id })).body.data.code,
    "PRODUCT_NOT_SUBSCRIBED",
  );
  assert.equal(
    (await a.test.post("/v1/keys/verify", { key: b.liveKey, product: product.id })).body.data.code,
    "PRODUCT_NOT_SUBSCRIBED",
    "live is another environment",
  );
  // B verifying against A's product is a 404: only the provider verifies for its products.
  assert.equal(
    expectError(await b.test.post("/v1/keys/verify", { key: b.testKey, product: product.id }), 404, "RESOURCE_NOT_FOUND").field,
    "product",
  );

  // A reports metered usage: rated, idempotent by identifier, refused outside the open period.
  const meter = await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 250, identifier: "batch-1" });
  assert.equal(meter.status, 201, meter.text);
  assert.equal(meter.body.data.quantity, 250);
  assert.deepEqual(meter.body.data.cost, { amount: "0.5", currency: "USD" });
  const again = await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 250, identifier: "batch-1" });
  assert.equal(again.body.data.id, meter.body.data.id, "the same identifier records nothing new");
  const byKey = await a.test.post("/v1/meter-events", { product: product.slug, key: b.testKey, quantity: 10, identifier: "batch-2" });
  assert.equal(byKey.status, 201, byKey.text);
  assert.equal(
    expectError(
      await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 1, timestamp: "2020-01-01T00:00:00Z" }),
      400,
      "INVALID_FIELD",
    ).field,
    "timestamp",
  );
  expectError(await b.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 1 }), 404, "RESOURCE_NOT_FOUND");

  // B's upcoming invoice: 3 verified calls + 260 metered units at 0.002, sold by A.
  const upcoming = await poll(async () => {
    const r = await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`);
    return r.status === 200 && r.body.data.lines[0]?.quantity === 263 ? r.body.data : null;
  });
  assert.equal(upcoming.seller.id, a.businessId);
  assert.ok(upcoming.seller.name.length > 0);
  assert.equal(upcoming.lines[0].exactAmount, "0.526");
  assert.equal(upcoming.total, 53);

  // A's views: the customer with its plan and this period's calls and amount, its usage, the revenue.
  const customers = await a.test.get("/v1/customers");
  assert.equal(customers.status, 200, customers.text);
  assert.equal(customers.body.data.length, 1);
  const c = customers.body.data[0];
  assert.equal(c.id, b.businessId);
  assert.equal(c.subscriptions[0].id, sub.id);
  assert.equal(c.subscriptions[0].periodCalls, 263);
  assert.equal(c.subscriptions[0].periodAmount, 53);
  assert.deepEqual(c.subscriptions[0].paymentMethod, { brand: "visa", last4: "4242" });
  const usage = await a.test.get(`/v1/customers/${b.businessId}/usage`);
  assert.equal(usage.status, 200, usage.text);
  const productUsage = usage.body.data.products.find((p: { productId: string }) => p.productId === product.id);
  assert.equal(productUsage.units, 263);
  const revenue = await a.test.get("/v1/revenue");
  assert.equal(revenue.status, 200, revenue.text);
  const line = revenue.body.data.data.find((r: { productId: string }) => r.productId === product.id);
  assert.equal(line.upcoming, upcoming.total, "the provider's revenue is the consumer's bill");
  assert.equal(line.customers, 1);

  // B's /v1 calls are control plane: counted in usage, never rated as product usage.
  const controlPlane = await b.test.get("/v1/products");
  assert.equal(controlPlane.headers.get("x-request-cost"), null);

  // Isolation: neither side reads the other's records.
  expectError(await b.test.get(`/v1/customers/${a.businessId}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await stranger.test.get(`/v1/customers/${b.businessId}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await a.test.get(`/v1/subscriptions/${sub.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.get(`/v1/products/${product.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await b.test.get("/v1/revenue")).body.data.data.length, 0);
  assert.ok(!JSON.stringify((await a.test.get(`/v1/customers/${b.businessId}`)).body).includes(b.testKey.slice(-8)));
});

test("subscribing: private, inactive or unknown products are 404; inactive prices 400; declined cards 402 with nothing created", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { product, basic } = await publishApi(a.test);
  const privateProduct = await createProduct(a.test, { name: "Internal API", type: "API" });
  const privatePrice = (
    await a.test.post(`/v1/products/${privateProduct.id}/prices`, { name: "P", type: "usage", currency: "USD", amount: 0.01 })
  ).body.data;
  expectError(await b.test.post("/v1/subscriptions", { priceId: privatePrice.id, paymentMethod: CARD }), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.get(`/v1/catalog/products/${privateProduct.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await a.test.get(`/v1/catalog/products/${privateProduct.id}`)).status, 200, "a provider previews its own");
  expectError(
    await b.test.post("/v1/subscriptions", { priceId: "price_00000000000000000000000000", paymentMethod: CARD }),
    404,
    "RESOURCE_NOT_FOUND",
  );
  assert.equal(
    expectError(await b.test.post("/v1/subscriptions", { priceId: basic.id }), 400, "MISSING_REQUIRED_FIELD").field,
    "paymentMethod",
  );

  const declined = await b.test.post("/v1/subscriptions", {
    priceId: basic.id,
    paymentMethod: { card: { number: "4000000000000002", expMonth: 12, expYear: 2030, cvc: "123" } },
  });
  expectError(declined, 402, "CARD_DECLINED");
  assert.equal(await db.subscription.count({ where: { businessId: b.businessId } }), 0, "nothing created");

  const retired = await a.test.post(`/v1/products/${product.id}/prices`, {
    name: "Old",
    type: "usage",
    currency: "USD",
    amount: 0.5,
    isActive: false,
  });
  assert.equal(
    expectError(await b.test.post("/v1/subscriptions", { priceId: retired.body.data.id, paymentMethod: CARD }), 400, "INVALID_FIELD").field,
    "priceId",
  );

  await a.test.post(`/v1/products/${product.id}/deactivate`);
  expectError(await b.test.post("/v1/subscriptions", { priceId: basic.id, paymentMethod: CARD }), 404, "RESOURCE_NOT_FOUND");
  assert.equal(
    (await b.test.get(`/v1/catalog/products?provider=${a.businessId}`)).body.data.length,
    0,
    "inactive products leave the catalogue",
  );
});

test("a key limited by call: scopes may call only those products; a canceled subscription stops verification", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const first = await publishApi(a.test);
  const second = await publishApi(a.test);
  for (const p of [first, second])
    assert.equal((await b.test.post("/v1/subscriptions", { priceId: p.basic.id, paymentMethod: CARD })).status, 201);
  const narrow = await b.test.post("/v1/api-keys", { name: "only first", scopes: [`call:${first.product.id}`] });
  assert.equal(narrow.status, 201, narrow.text);
  const key = narrow.body.data.key;
  assert.equal((await a.test.post("/v1/keys/verify", { key, product: first.product.id })).body.data.valid, true);
  assert.equal((await a.test.post("/v1/keys/verify", { key, product: second.product.id })).body.data.code, "PRODUCT_NOT_SUBSCRIBED");
  expectError(await b.test.post("/v1/api-keys", { name: "bad", scopes: ["call:not-a-product"] }), 400, "INVALID_FIELD");

  const subs = (await b.test.get("/v1/subscriptions")).body.data as { id: string; productId: string }[];
  const firstSub = subs.find((s) => s.productId === first.product.id)!;
  assert.equal((await b.test.post(`/v1/subscriptions/${firstSub.id}/cancel`, {})).status, 200);
  const after = (await a.test.post("/v1/keys/verify", { key, product: first.product.id })).body.data;
  assert.equal(after.valid, false);
  assert.equal(after.code, "SUBSCRIPTION_INACTIVE");
  const canceledEvents = await poll(async () => {
    const r = await a.test.get("/v1/events?type=subscription.canceled");
    return r.body.data.length ? r.body.data : null;
  });
  assert.equal(canceledEvents[0].data.id, firstSub.id, "the provider hears of its customer's cancellation");
});

test("the catalogue API needs a valid key: a bad one is a 401", async () => {
  const res = await request("GET", "/v1/catalog/products", { key: "sk_test_" + "y".repeat(40) });
  expectError(res, 401, "INVALID_API_KEY");
});
