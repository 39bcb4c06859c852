// Two servers on one database and one Redis (127.0.0.1:6379): a plan's rate limit and monthly quota on gateway
// calls are exact across them, as /v1's limits are, because both count in Redis under the deployment's prefix.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { client, seedBusiness, createProduct } from "../helpers/api";
import { startSecondServer, uniquePrefix, deleteRedisPrefix, type ServerWithLogs } from "../helpers/usage-db";

const SHARED_REDIS = "redis://127.0.0.1:6379";
const PREFIX = uniquePrefix("gateway");
const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };
let A: ServerWithLogs;
let B: ServerWithLogs;
let upstream: http.Server;
let upstreamUrl = "";

before(async () => {
  upstream = http.createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const env = { REDIS_URL: SHARED_REDIS, REDIS_PREFIX: PREFIX, ALLOW_PRIVATE_URLS: "true" };
  [A, B] = await Promise.all([startSecondServer(env), startSecondServer(env)]);
});
after(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  upstream?.close();
  await deleteRedisPrefix(SHARED_REDIS, PREFIX).catch(() => {});
});

async function productWithPlan(plan: Record<string, unknown>) {
  const provider = await seedBusiness();
  const api = client(provider.testKey, A.url);
  const product = await createProduct(api, { name: `Shared ${Math.random().toString(36).slice(2, 8)}`, type: "API", api: { upstreamUrl } });
  const price = await api.post(`/v1/products/${product.id}/prices`, {
    name: "Plan",
    type: "usage",
    currency: "USD",
    amount: 0.001,
    ...plan,
  });
  assert.equal(price.status, 201, price.text);
  const published = await api.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  const consumer = await seedBusiness();
  const sub = await client(consumer.testKey, A.url).post("/v1/subscriptions", { priceId: price.body.data.id, paymentMethod: CARD });
  assert.equal(sub.status, 201, sub.text);
  return { slug: published.body.data.slug as string, key: consumer.testKey };
}

async function fire(slug: string, key: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${i % 2 ? B.url : A.url}/gw/${slug}/x`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      statuses.push(res.status);
    }),
  );
  return statuses;
}

test("a plan's rate limit is exact over two servers", async () => {
  const { slug, key } = await productWithPlan({ rateLimit: { limit: 20, windowSeconds: 3600 } });
  const statuses = await fire(slug, key, 40);
  assert.equal(statuses.filter((s) => s === 200).length, 20, `A: ${A.stderr().slice(-800)}\nB: ${B.stderr().slice(-800)}`);
  assert.equal(statuses.filter((s) => s === 429).length, 20);
});

test("a plan's monthly quota is exact over two servers", async () => {
  const { slug, key } = await productWithPlan({ monthlyQuota: 15 });
  const statuses = await fire(slug, key, 30);
  assert.equal(statuses.filter((s) => s === 200).length, 15);
  assert.equal(statuses.filter((s) => s === 429).length, 15);
});
