// The Redis limiter store against the local server (127.0.0.1:6379) under a key prefix of its own, deleted
// afterwards. The same rules as the memory store, and atomic: several connections (as several server processes
// would hold) share one budget exactly. Also: with Redis unreachable, the limiter fails open to per-process limits.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { RedisStore } from "@/lib/limits/redis-store";
import { keyPolicy, type KeyPolicy } from "@/lib/limits/plans";
import type { Decision } from "@/lib/limits/store";
import { limiterStore, setLimiterStore } from "@/lib/limits/limiter";
import { redis } from "@/lib/redis/client";
import { startOwnRedis } from "../helpers/usage-db";

const REDIS = "redis://127.0.0.1:6379";
const PREFIX = `test-limits-unit-${process.pid}-${randomBytes(4).toString("hex")}:`;
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 2, 10, 12, 10, 0);

// Two connections: two "processes" sharing one Redis.
const connA = new Redis(REDIS, { maxRetriesPerRequest: 1 });
const connB = new Redis(REDIS, { maxRetriesPerRequest: 1 });
const storeA = new RedisStore(connA, PREFIX);
const storeB = new RedisStore(connB, PREFIX);

let n = 0;
/** A key of its own for each test, so the tests do not share budgets. */
const key = () => `key_${++n}`;
const remaining = (d: Decision) => Math.min(...d.limits.map((l) => l.remaining));

async function ourKeys(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = "0";
  do {
    const [next, batch] = await connA.scan(cursor, "MATCH", `${PREFIX}*`, "COUNT", 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== "0");
  return keys;
}

after(async () => {
  const keys = await ourKeys();
  if (keys.length) await connA.del(...keys);
  await connA.quit();
  await connB.quit();
});

test("free plan: 20 at once with remaining 19..0, then refused for 6 s by the burst limit", async () => {
  const k = key();
  const policy = keyPolicy("free", null);
  const seen: number[] = [];
  for (let i = 0; i < 20; i++) {
    const d = await storeA.consume(k, policy, T0);
    assert.equal(d.allowed, true, `request ${i + 1}`);
    seen.push(remaining(d));
  }
  assert.deepEqual(
    seen,
    Array.from({ length: 20 }, (_, i) => 19 - i),
  );
  const refused = await storeA.consume(k, policy, T0);
  assert.equal(refused.allowed, false);
  assert.equal(refused.refusedBy, "burst");
  assert.equal(refused.retryAfterSeconds, 6);
  assert.equal(remaining(refused), 0);
});

test("the bucket refills at the per-minute rate, up to the burst", async () => {
  const k = key();
  const policy = keyPolicy("enterprise", 5);
  for (let i = 0; i < 5; i++) await storeA.consume(k, policy, T0);
  const refused = await storeA.consume(k, policy, T0);
  assert.equal(refused.retryAfterSeconds, 12);
  assert.equal((await storeA.consume(k, policy, T0 + 11_900)).allowed, false);
  assert.equal((await storeA.consume(k, policy, T0 + 12_000)).allowed, true);
  assert.equal((await storeA.consume(k, policy, T0 + 12_000)).allowed, false);
  let admitted = 0;
  for (let i = 0; i < 10; i++) if ((await storeA.consume(k, policy, T0 + HOUR)).allowed) admitted++;
  assert.equal(admitted, 5, "a long pause earns at most the burst");
});

const hourly: KeyPolicy = { capacity: 1000, refillPerMinute: 1000, perHour: 100, perDay: null, concurrent: 1 };

test("per hour: the 101st request is refused by the hour window, and its Retry-After is honest", async () => {
  const k = key();
  for (let i = 0; i < 100; i++) assert.equal((await storeA.consume(k, hourly, T0 + i)).allowed, true);
  const refused = await storeA.consume(k, hourly, T0 + 100);
  assert.equal(refused.allowed, false);
  assert.equal(refused.refusedBy, "hour");
  assert.equal(refused.limits.find((l) => l.name === "hour")!.remaining, 0);
  const retryAt = T0 + 100 + refused.retryAfterSeconds * 1000;
  assert.equal((await storeA.consume(k, hourly, retryAt)).allowed, true);
});

test("per hour is a sliding window: half-way through the next hour, last hour counts half", async () => {
  const k = key();
  const start = Date.UTC(2026, 2, 10, 12, 0, 0);
  for (let i = 0; i < 100; i++) await storeA.consume(k, hourly, start + HOUR - 1000 + i);
  assert.equal((await storeA.consume(k, hourly, start + HOUR + 1000)).allowed, false);
  let admitted = 0;
  for (let i = 0; i < 100; i++) if ((await storeA.consume(k, hourly, start + HOUR + HOUR / 2 + i)).allowed) admitted++;
  assert.equal(admitted, 50);
});

test("per day: the 1001st request in a day is refused by the day window", async () => {
  const k = key();
  const daily: KeyPolicy = { capacity: 10_000, refillPerMinute: 10_000, perHour: null, perDay: 1000, concurrent: 1 };
  const start = Date.UTC(2026, 2, 10, 1, 0, 0);
  const results = await Promise.all(Array.from({ length: 1000 }, (_, i) => storeA.consume(k, daily, start + i)));
  assert.equal(results.filter((d) => d.allowed).length, 1000);
  const refused = await storeA.consume(k, daily, start + 1000);
  assert.equal(refused.refusedBy, "day");
});

test("two connections share one budget exactly, however the requests interleave", async () => {
  const k = key();
  const policy = keyPolicy("enterprise", 25);
  const results = await Promise.all(Array.from({ length: 80 }, (_, i) => (i % 2 ? storeA : storeB).consume(k, policy, T0)));
  assert.equal(results.filter((d) => d.allowed).length, 25);
  // Every admitted request saw a different remaining count: 24..0, none twice.
  const seen = results
    .filter((d) => d.allowed)
    .map(remaining)
    .sort((a, b) => a - b);
  assert.deepEqual(
    seen,
    Array.from({ length: 25 }, (_, i) => i),
  );
});

test("the hour window is shared exactly too", async () => {
  const k = key();
  const results = await Promise.all(Array.from({ length: 150 }, (_, i) => (i % 2 ? storeA : storeB).consume(k, hourly, T0 + i)));
  assert.equal(results.filter((d) => d.allowed).length, 100);
});

test("remaining reaches 0 exactly when the next request would be refused (random traffic)", async () => {
  let seed = 5;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  for (const policy of [keyPolicy("free", null), { ...hourly, capacity: 5, refillPerMinute: 30, perDay: 120 }]) {
    const k = key();
    let t = T0;
    let checked = 0;
    for (let i = 0; i < 400; i++) {
      t += Math.floor(random() ** 4 * 20_000);
      const d = await storeA.consume(k, policy, t);
      if (!d.allowed) continue;
      const next = await storeB.consume(k, policy, t);
      assert.equal(next.allowed, remaining(d) > 0, `remaining ${remaining(d)} but next ${next.allowed ? "admitted" : "refused"}`);
      checked++;
    }
    assert.ok(checked > 20, `only ${checked} admitted requests checked`);
  }
});

test("concurrency slots are shared across connections", async () => {
  const k = key();
  const got = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? storeA : storeB).acquire(k, 3)));
  assert.equal(got.filter(Boolean).length, 3);
  await storeB.release(k);
  assert.equal(await storeA.acquire(k, 3), true);
  assert.equal(await storeA.acquire(k, 3), false);
});

test("a quota counter is seeded once and then counts every increment from both connections", async () => {
  const k = key();
  let seeded = 0;
  const init = async () => {
    seeded++;
    return 500;
  };
  const values = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? storeA : storeB).incrementCounter(k, 1, init, 60_000)));
  assert.deepEqual(
    [...values].sort((a, b) => a - b),
    Array.from({ length: 30 }, (_, i) => 501 + i),
  );
  assert.equal(await storeA.incrementCounter(k, -1, init, 60_000), 529);
  assert.equal(await storeB.incrementCounter(k, 0, init, 60_000), 529);
  assert.ok(seeded >= 1, "init was called");
});

test("setOnce: exactly one winner among many callers on both connections", async () => {
  const k = key();
  const won = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? storeA : storeB).setOnce(k, 60_000)));
  assert.equal(won.filter(Boolean).length, 1);
});

test("a prefix keeps one deployment's budgets apart from another's", async () => {
  const k = key();
  const other = new RedisStore(connA, `${PREFIX}other:`);
  const policy = keyPolicy("enterprise", 1);
  assert.equal((await storeA.consume(k, policy, T0)).allowed, true);
  assert.equal((await storeA.consume(k, policy, T0)).allowed, false);
  assert.equal((await other.consume(k, policy, T0)).allowed, true);
});

test("every key the store writes expires: Redis does not fill up with old budgets", async () => {
  const k = key();
  await storeA.consume(k, keyPolicy("free", null), Date.now());
  await storeA.acquire(k, 1);
  await storeA.incrementCounter(k, 1, async () => 0, 60_000);
  await storeA.setOnce(k, 60_000);
  const keys = (await ourKeys()).filter((x) => x.includes(`:${k}`));
  assert.ok(keys.length >= 5, `expected the bucket, both windows, the slot, the counter and the flag: ${keys.join(", ")}`);
  for (const x of keys) {
    const ttl = await connA.pttl(x);
    assert.ok(ttl > 0, `${x} has no expiry (pttl ${ttl})`);
  }
});

test("one release too many does not create a spare slot", async () => {
  const k = key();
  await storeA.release(k);
  await storeA.release(k);
  assert.equal(await storeA.acquire(k, 1), true);
  assert.equal(await storeB.acquire(k, 1), false, "a limit of 1 admitted two");
});

test("a refused acquire does not keep a lost slot alive: it expires a minute after the last admitted one", async () => {
  const k = key();
  assert.equal(await storeA.acquire(k, 1), true); // its release is lost (say, Redis timed out then)
  await connA.pexpire(`${PREFIX}cc:${k}`, 5_000); // as if most of the minute had passed
  assert.equal(await storeB.acquire(k, 1), false);
  const ttl = await connA.pttl(`${PREFIX}cc:${k}`);
  assert.ok(ttl > 0 && ttl <= 5_000, `a refused attempt extended the lost slot's life to ${ttl} ms`);
});

// limiterStore(): the store a server uses, chosen from REDIS_URL on first use. Each test below starts it afresh.
function freshLimiter(url: string, prefix: string) {
  const clients = (globalThis as { __platformRedis?: Map<string, Redis> }).__platformRedis;
  clients?.get("limits")?.disconnect();
  clients?.delete("limits");
  setLimiterStore(null);
  // A new process has not warned yet.
  const warned = (globalThis as { __platformState?: Map<string, { last: number }> }).__platformState?.get("limiter-warnings");
  if (warned) warned.last = 0;
  process.env.REDIS_URL = url;
  process.env.REDIS_PREFIX = prefix;
  return limiterStore();
}

function endLimiter() {
  redis("limits")?.disconnect();
  (globalThis as { __platformRedis?: Map<string, Redis> }).__platformRedis?.delete("limits");
  setLimiterStore(null);
  delete process.env.REDIS_URL;
  delete process.env.REDIS_PREFIX;
}

/** console.warn lines while `f` runs. */
async function capturingWarnings(f: (warnings: string[]) => Promise<void>) {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (...a: unknown[]) => {
    warnings.push(a.join(" "));
  };
  try {
    await f(warnings);
  } finally {
    console.warn = warn;
  }
}

test("a process's very first requests already use Redis, not its own memory", async () => {
  const prefix = `${PREFIX}first:`;
  try {
    await capturingWarnings(async (warnings) => {
      const store = freshLimiter(REDIS, prefix);
      const k = key();
      await store.acquire(k, 5);
      await store.consume(k, keyPolicy("free", null), T0);
      assert.deepEqual(
        warnings.filter((w) => w.includes("[limits]")),
        [],
        "fell back to memory while connecting",
      );
      assert.equal(await connA.get(`${prefix}cc:${k}`), "1", "the slot is in Redis");
      assert.equal(await connA.exists(`${prefix}rl:${k}:bucket`), 1, "the bucket is in Redis");
      await store.release(k);
      assert.equal(await connA.get(`${prefix}cc:${k}`), "0");
    });
  } finally {
    endLimiter();
  }
});

test("Redis unreachable: the limiter fails open to this process's limits, with a warning, without hanging", async () => {
  const own = await startOwnRedis();
  await own.kill(); // nothing listens there now
  try {
    await capturingWarnings(async (warnings) => {
      const store = freshLimiter(own.url, `${PREFIX}down:`);
      assert.equal(store.kind, "redis", "REDIS_URL selects the Redis store");
      const k = key();
      const policy = keyPolicy("enterprise", 3);
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await store.consume(k, policy, T0));
      // Still limited, per process: 3 admitted, then refused (not everything admitted, nothing thrown).
      assert.deepEqual(
        results.map((d) => d.allowed),
        [true, true, true, false, false],
      );
      assert.equal(await store.acquire(k, 1), true);
      assert.equal(await store.acquire(k, 1), false);
      await store.release(k);
      assert.equal(await store.acquire(k, 1), true, "the slot was given back");
      await store.release(k);
      assert.equal(await store.incrementCounter(k, 1, async () => 41, 60_000), 42);
      assert.equal(await store.setOnce(k, 60_000), true);
      assert.equal(await store.setOnce(k, 60_000), false);
      const ours = warnings.filter((w) => w.includes("[limits]"));
      assert.ok(
        ours.some((w) => /per-process/.test(w)),
        `no fail-open warning among: ${warnings.join(" | ")}`,
      );
      assert.equal(ours.length, 1, "one warning, not one per request");
    });
  } finally {
    endLimiter();
  }
});

test("a slot taken while Redis was down is given back to this process, not to Redis when it returns", async () => {
  const own = await startOwnRedis();
  const port = own.port;
  await own.kill();
  let revived: Awaited<ReturnType<typeof startOwnRedis>> | undefined;
  try {
    await capturingWarnings(async () => {
      const store = freshLimiter(`redis://127.0.0.1:${port}`, `${PREFIX}back:`);
      const k = key();
      assert.equal(await store.acquire(k, 1), true); // from this process's memory: Redis is down
      revived = await startOwnRedis(port);
      const client = redis("limits")!;
      for (let i = 0; i < 100 && client.status !== "ready"; i++) await new Promise((r) => setTimeout(r, 100));
      assert.equal(client.status, "ready", "the limiter reconnected to Redis");
      await store.release(k); // ends the request that took the slot while Redis was down
      assert.equal(await store.acquire(k, 1), true);
      assert.equal(await store.acquire(k, 1), false, "a limit of 1 admitted two requests at once");
      await store.release(k);
    });
  } finally {
    endLimiter();
    await revived?.kill();
  }
});
