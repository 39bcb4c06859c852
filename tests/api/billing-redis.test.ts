// Two servers on one database and one Redis (127.0.0.1:6379): a subscription made through one is rating product
// calls on the other at once, because the change is announced over Redis pub/sub (without Redis the other server would
// go on with its cached "no subscription" for BILLING_CACHE_TTL_MS, set to 10 minutes here so only pub/sub can help).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, client, createProduct } from "../helpers/api";
import { startSecondServer, uniquePrefix, deleteRedisPrefix, poll, type ServerWithLogs } from "../helpers/usage-db";

const SHARED_REDIS = "redis://127.0.0.1:6379";
const PREFIX = uniquePrefix("billing");
let A: ServerWithLogs;
let B: ServerWithLogs;

before(async () => {
  const env = { REDIS_URL: SHARED_REDIS, REDIS_PREFIX: PREFIX, BILLING_CACHE_TTL_MS: "600000" };
  [A, B] = await Promise.all([startSecondServer(env), startSecondServer(env)]);
});
after(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await deleteRedisPrefix(SHARED_REDIS, PREFIX).catch(() => {});
});

test("a subscription made on one server is rated on the other at once; canceling stops it there too", async () => {
  const biz = await seedBusiness();
  const onA = client(biz.testKey, A.url);
  const onB = client(biz.testKey, B.url);
  const product = await createProduct(onA);
  // A product call on B: the business verifies its own key for its own product.
  const callOnB = async () => (await onB.post("/v1/keys/verify", { key: biz.testKey, product: product.id })).body.data;
  assert.equal((await callOnB()).code, "PRODUCT_NOT_SUBSCRIBED", "B caches: no subscription");
  const price = (await onA.post(`/v1/products/${product.id}/prices`, { name: "Flat", type: "usage", currency: "USD", amount: 0.02 })).body
    .data;
  const sub = await onA.post("/v1/subscriptions", { priceId: price.id });
  assert.equal(sub.status, 201, sub.text);
  const rated = await poll(async () => (await callOnB()).cost?.amount ?? null, 8_000, 100);
  assert.equal(rated, "0.02", `A: ${A.stderr().slice(-1500)}\nB: ${B.stderr().slice(-1500)}`);

  assert.equal((await onA.post(`/v1/subscriptions/${sub.body.data.id}/cancel`, {})).status, 200);
  const stopped = await poll(async () => (await callOnB()).code === "SUBSCRIPTION_INACTIVE", 8_000, 100);
  assert.equal(stopped, true, "still rated on B after the cancel");
});
