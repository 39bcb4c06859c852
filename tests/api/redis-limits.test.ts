// The Redis store in real servers: two processes on one Redis (127.0.0.1:6379, under a prefix of this run's own,
// deleted afterwards) share one budget exactly — rate limit, quota and the at-most-once events. And a Redis that
// goes away mid-run: requests keep being served (fail open to per-process limits, with a logged warning), never a
// 500 and never a hang.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import Redis from "ioredis";
import { seedBusiness, client, expectError, type ApiResponse } from "../helpers/api";
import { withinOneWindow } from "../helpers/marketplace";
import {
  createKey,
  deleteRedisPrefix,
  eventRows,
  poll,
  seedRollups,
  settledCount,
  startOwnRedis,
  startSecondServer,
  uniquePrefix,
  type ServerWithLogs,
} from "../helpers/usage-db";

const SHARED_REDIS = "redis://127.0.0.1:6379";
const PREFIX = uniquePrefix("redis-limits");
let A: ServerWithLogs;
let B: ServerWithLogs;

before(async () => {
  [A, B] = await Promise.all([
    startSecondServer({ REDIS_URL: SHARED_REDIS, REDIS_PREFIX: PREFIX }),
    startSecondServer({ REDIS_URL: SHARED_REDIS, REDIS_PREFIX: PREFIX }),
  ]);
  // A new server loads each route on its first request; warm them up so a burst is not spread over seconds of
  // start-up (a 10-per-minute key earns a token every 6 s).
  const warm = await seedBusiness();
  for (const server of [A, B]) {
    for (const path of ["/v1/products", "/v1/usage/quota"]) await client(warm.testKey, server.url).get(path);
  }
});

after(async () => {
  await Promise.all([A?.stop(), B?.stop()]);
  await deleteRedisPrefix(SHARED_REDIS, PREFIX);
});

const remaining = (r: ApiResponse) => r.headers.get("x-ratelimit-remaining");

test("a key with rateLimit 10 admits exactly 10 across two servers together, Remaining counting down on both", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { rateLimit: 10 });
  const results: ApiResponse[] = [];
  // One after another, alternating servers: each process alone would admit 10 (20 in all).
  for (let i = 0; i < 16; i++) results.push(await client(k.key, (i % 2 ? B : A).url).get("/v1/products"));
  const statuses = results.map((r) => r.status);
  assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(6).fill(429)], statuses.join(","));
  assert.deepEqual(results.slice(0, 10).map(remaining), ["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
  for (const r of results.slice(10)) {
    const e = expectError(r, 429, "RATE_LIMIT_EXCEEDED");
    assert.equal(e.limit, 10);
    assert.equal(remaining(r), "0");
  }
});

test("the quota counter is shared: the free plan's 1001st request is refused whichever server gets it", async () => {
  const biz = await seedBusiness("free");
  await seedRollups([{ projectId: biz.projectId, count: 998 }]);
  const onA = client(biz.testKey, A.url);
  const onB = client(biz.testKey, B.url);
  assert.equal((await onA.get("/v1/products")).status, 200, "999");
  assert.equal((await onB.get("/v1/products")).status, 200, "1000");
  expectError(await onA.get("/v1/products"), 429, "QUOTA_EXCEEDED");
  expectError(await onB.get("/v1/products"), 429, "QUOTA_EXCEEDED");
});

test("api.rate_limited is emitted once per key and window across both servers", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { rateLimit: 1 });
  // The event's window is the clock's minute (lib/limits/rate-limit.ts); the refused calls must not straddle two, or
  // each minute rightly gets its own event. Six calls take under a second: none are sent in a minute's last two.
  await withinOneWindow(60, 2_000);
  const statuses = [];
  for (const server of [A, B, A, B, A, B]) statuses.push((await client(k.key, server.url).get("/v1/products")).status);
  assert.deepEqual(statuses, [200, 429, 429, 429, 429, 429]);
  assert.equal(await settledCount(async () => (await eventRows(biz.businessId, "api.rate_limited")).length, 1), 1);
});

/** A GET that fails the test instead of hanging it. */
async function timedGet(base: string, key: string, path = "/v1/products", timeoutMs = 5_000): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function keysUnder(url: string, prefix: string): Promise<string[]> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await r.keys(`${prefix}*`);
  } finally {
    r.disconnect();
  }
}

test("Redis going away mid-run: requests keep being served under per-process limits, never a 500 or a hang", async () => {
  const own = await startOwnRedis();
  const prefix = uniquePrefix("outage");
  // One data-plane process: the fallback's limits are per process, and with a worker a core (the default with Redis)
  // which worker a request reaches depends on its connection. Sharing a limit between workers while Redis is down is
  // issue 41's.
  const server = await startSecondServer({ REDIS_URL: own.url, REDIS_PREFIX: prefix, DATA_PLANE_WORKERS: "1" });
  try {
    const biz = await seedBusiness();
    assert.equal((await timedGet(server.url, biz.testKey, "/v1/products", 20_000)).status, 200, "first request (loads the route)");
    for (let i = 0; i < 3; i++) assert.equal((await timedGet(server.url, biz.testKey)).status, 200);
    assert.ok((await keysUnder(own.url, prefix)).length > 0, "the server keeps its limits in Redis while Redis is up");

    await own.kill();
    for (let i = 0; i < 10; i++) {
      const res = await timedGet(server.url, biz.testKey);
      assert.equal(res.status, 200, `request ${i + 1} with Redis down: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    // Fail open to per-process limits, not to no limits: a key's own rateLimit still holds in this process.
    const k = await createKey(client(biz.testKey, server.url), { rateLimit: 3 });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await timedGet(server.url, k.key)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    // Everything else the server does per request keeps working too.
    assert.equal((await timedGet(server.url, biz.testKey, "/v1/usage/quota")).status, 200);
    assert.equal((await timedGet(server.url, biz.testKey, "/v1/usage/metrics")).status, 200);
    assert.match(server.stderr(), /\[limits\] Redis unavailable, using per-process limits/);

    // Redis comes back: the server reconnects and uses it again.
    const revived = await startOwnRedis(own.port);
    try {
      const back = await poll(
        async () => {
          const res = await timedGet(server.url, biz.testKey);
          assert.equal(res.status, 200, "served while reconnecting");
          return (await keysUnder(revived.url, prefix)).length > 0;
        },
        10_000,
        250,
      );
      assert.ok(back, "the server did not return to Redis within 10 s of it coming back");
    } finally {
      await revived.kill();
    }
  } finally {
    await server.stop();
    await own.kill();
  }
});

test("a server started while Redis is down serves requests from the start", async () => {
  const own = await startOwnRedis();
  await own.kill(); // nothing listens on this port now
  const server = await startSecondServer({ REDIS_URL: own.url, REDIS_PREFIX: uniquePrefix("down") });
  try {
    const biz = await seedBusiness();
    // The very first request also loads the route (slow on a busy machine): it gets longer.
    assert.equal((await timedGet(server.url, biz.testKey, "/v1/products", 20_000)).status, 200);
    const results = await Promise.all(Array.from({ length: 5 }, () => timedGet(server.url, biz.testKey)));
    assert.deepEqual(
      results.map((r) => r.status),
      [200, 200, 200, 200, 200],
    );
    assert.match(server.stderr(), /\[limits\] Redis unavailable, using per-process limits/);
  } finally {
    await server.stop();
  }
});
