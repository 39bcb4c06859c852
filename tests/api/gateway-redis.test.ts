// Two servers on one database and one Redis (127.0.0.1:6379): a plan's rate limit and monthly quota on gateway
// calls are exact across them, as /v1's limits are, because both count in Redis under the deployment's prefix.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe, withinOneWindow } from "../helpers/marketplace";
import { startSecondServer, uniquePrefix, deleteRedisPrefix, type ServerWithLogs } from "../helpers/usage-db";

const SHARED_REDIS = "redis://127.0.0.1:6379";
const PREFIX = uniquePrefix("gateway");
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
  const { slug, price } = await publishApiProduct(client(provider.testKey, A.url), { upstreamUrl, price: { amount: 0.001, ...plan } });
  const consumer = await seedBusiness();
  await subscribe(client(consumer.testKey, A.url), price.id);
  return { slug, key: consumer.testKey };
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
  await withinOneWindow(3600);
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
