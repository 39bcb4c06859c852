// The in-memory limiter store, driven with explicit times: the plan's token bucket (burst = capacity, per minute =
// refill), the hour and day sliding windows, the concurrency cap, and the headers built from a decision.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { MemoryStore } from "@/lib/limits/memory-store";
import { keyPolicy, PLAN_LIMITS, type KeyPolicy } from "@/lib/limits/plans";
import { rateLimitHeaders } from "@/lib/limits/rate-limit";
import { fixedClock, resetClock, setClock } from "@/lib/clock";
import type { Decision } from "@/lib/limits/store";

const HOUR = 3_600_000;
const DAY = 86_400_000;
// A fixed instant 10 minutes into an hour (and into neither the first nor last hour of its day).
const T0 = Date.UTC(2026, 2, 10, 12, 10, 0);

after(() => resetClock());

const remaining = (d: Decision) => Math.min(...d.limits.map((l) => l.remaining));

test("plan tiers: burst is the bucket's capacity and per minute its refill", () => {
  assert.deepEqual(keyPolicy("free", null), { capacity: 20, refillPerMinute: 10, perHour: 100, perDay: 1000, concurrent: 1 });
  assert.deepEqual(keyPolicy("starter", null), { capacity: 200, refillPerMinute: 100, perHour: 5000, perDay: 50_000, concurrent: 5 });
  assert.deepEqual(keyPolicy("pro", null), { capacity: 2000, refillPerMinute: 1000, perHour: 50_000, perDay: 1_000_000, concurrent: 20 });
  assert.deepEqual(keyPolicy("enterprise", null), {
    capacity: 20_000,
    refillPerMinute: 10_000,
    perHour: null,
    perDay: null,
    concurrent: 100,
  });
  assert.equal(PLAN_LIMITS.enterprise.perDay, null, "enterprise: unlimited per day");
});

test("a key's own rateLimit lowers its rate and burst, never raises them", () => {
  assert.deepEqual(keyPolicy("enterprise", 5), { capacity: 5, refillPerMinute: 5, perHour: null, perDay: null, concurrent: 100 });
  assert.deepEqual(keyPolicy("free", 15), { capacity: 15, refillPerMinute: 10, perHour: 100, perDay: 1000, concurrent: 1 });
  assert.deepEqual(keyPolicy("free", 1_000_000), keyPolicy("free", null));
});

test("an unknown plan gets the free plan's limits", () => {
  assert.deepEqual(keyPolicy("platinum", null), keyPolicy("free", null));
});

test("free plan: 20 at once with remaining 19..0, then the 21st is refused for 6 seconds by the burst limit", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("free", null);
  const seen: number[] = [];
  for (let i = 0; i < 20; i++) {
    const d = await store.consume("k", policy, T0);
    assert.equal(d.allowed, true, `request ${i + 1}`);
    seen.push(remaining(d));
  }
  assert.deepEqual(
    seen,
    Array.from({ length: 20 }, (_, i) => 19 - i),
  );
  const refused = await store.consume("k", policy, T0);
  assert.equal(refused.allowed, false);
  assert.equal(refused.refusedBy, "burst");
  assert.equal(refused.retryAfterSeconds, 6, "one token at 10 per minute takes 6 s");
  assert.equal(remaining(refused), 0);
});

test("waiting Retry-After is enough, and a refused request does not use up the refill", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("enterprise", 5);
  for (let i = 0; i < 5; i++) assert.equal((await store.consume("k", policy, T0)).allowed, true);
  const refused = await store.consume("k", policy, T0);
  assert.equal(refused.retryAfterSeconds, 12);
  // Refusals in between do not push the next token further away.
  for (let t = T0 + 1000; t < T0 + 12_000; t += 1000) assert.equal((await store.consume("k", policy, t)).allowed, false);
  assert.equal((await store.consume("k", policy, T0 + refused.retryAfterSeconds * 1000)).allowed, true);
  assert.equal((await store.consume("k", policy, T0 + refused.retryAfterSeconds * 1000)).allowed, false, "one token, one request");
});

test("after the burst, the sustained rate is the plan's per-minute rate", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("free", null);
  for (let i = 0; i < 20; i++) await store.consume("k", policy, T0);
  let admitted = 0;
  // A client hammering every 100 ms for the next minute gets 10 more: one every 6 s.
  for (let t = T0 + 100; t <= T0 + 60_000; t += 100) if ((await store.consume("k", policy, t)).allowed) admitted++;
  assert.equal(admitted, 10);
});

test("the bucket refills to its capacity and no further", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("free", null);
  await store.consume("k", policy, T0);
  let admitted = 0;
  for (let i = 0; i < 30; i++) if ((await store.consume("k", policy, T0 + DAY / 2)).allowed) admitted++;
  assert.equal(admitted, 20, "a long pause earns at most the burst");
});

test("keys have separate budgets", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("enterprise", 2);
  assert.equal((await store.consume("a", policy, T0)).allowed, true);
  assert.equal((await store.consume("a", policy, T0)).allowed, true);
  assert.equal((await store.consume("a", policy, T0)).allowed, false);
  assert.equal((await store.consume("b", policy, T0)).allowed, true);
});

const hourly: KeyPolicy = { capacity: 1000, refillPerMinute: 1000, perHour: 100, perDay: null, concurrent: 1 };

test("per hour: the 101st request in an hour is refused by the hour limit, even with tokens in the bucket", async () => {
  const store = new MemoryStore();
  for (let i = 0; i < 100; i++) assert.equal((await store.consume("k", hourly, T0 + i)).allowed, true, `request ${i + 1}`);
  const refused = await store.consume("k", hourly, T0 + 100);
  assert.equal(refused.allowed, false);
  assert.equal(refused.refusedBy, "hour");
  const hour = refused.limits.find((l) => l.name === "hour")!;
  assert.equal(hour.remaining, 0);
  assert.equal(hour.limit, 100);
  assert.equal(hour.windowSeconds, 3600);
});

test("per hour is a sliding window: last hour's requests weigh less as the hour passes", async () => {
  const store = new MemoryStore();
  const start = Date.UTC(2026, 2, 10, 12, 0, 0);
  for (let i = 0; i < 100; i++) await store.consume("k", hourly, start + HOUR - 1000 + i); // all in the last second of the hour
  // Just after the hour rolls the previous hour still counts almost whole.
  assert.equal((await store.consume("k", hourly, start + HOUR + 1000)).allowed, false);
  // Half-way through the next hour it counts half: 50 more fit, not 100.
  let admitted = 0;
  for (let i = 0; i < 100; i++) if ((await store.consume("k", hourly, start + HOUR + HOUR / 2 + i)).allowed) admitted++;
  assert.equal(admitted, 50);
});

test("the hour limit's Retry-After is when a request fits again", async () => {
  const store = new MemoryStore();
  for (let i = 0; i < 100; i++) await store.consume("k", hourly, T0 + i);
  const refused = await store.consume("k", hourly, T0 + 100);
  const retryAt = T0 + 100 + refused.retryAfterSeconds * 1000;
  assert.equal(
    (await store.consume("k", hourly, retryAt)).allowed,
    true,
    `refused ${refused.retryAfterSeconds} s after being told to retry then`,
  );
});

test("Retry-After of a sliding window counts the previous window's weight", async () => {
  const store = new MemoryStore();
  const start = Date.UTC(2026, 2, 10, 12, 0, 0);
  for (let i = 0; i < 100; i++) await store.consume("k", hourly, start + HOUR - 1000 + i);
  const refused = await store.consume("k", hourly, start + HOUR + 1000);
  assert.equal(refused.allowed, false);
  const retryAt = start + HOUR + 1000 + refused.retryAfterSeconds * 1000;
  assert.equal((await store.consume("k", hourly, retryAt)).allowed, true, `still refused ${refused.retryAfterSeconds} s later`);
  // And not much earlier: the advice is not needlessly long either.
  assert.equal((await store.consume("k", hourly, retryAt - 2000)).allowed, false);
});

test("per day: the free plan's 1001st request in a day is refused by the day limit", async () => {
  const store = new MemoryStore();
  const daily: KeyPolicy = { capacity: 10_000, refillPerMinute: 10_000, perHour: null, perDay: 1000, concurrent: 1 };
  const start = Date.UTC(2026, 2, 10, 1, 0, 0);
  for (let i = 0; i < 1000; i++) assert.equal((await store.consume("k", daily, start + i)).allowed, true);
  const refused = await store.consume("k", daily, start + 1000);
  assert.equal(refused.refusedBy, "day");
  assert.equal(refused.limits.find((l) => l.name === "day")!.windowSeconds, 86_400);
  const retryAt = start + 1000 + refused.retryAfterSeconds * 1000;
  assert.equal((await store.consume("k", daily, retryAt)).allowed, true);
});

test("a refused request counts against no window", async () => {
  const store = new MemoryStore();
  const policy = keyPolicy("free", null);
  for (let i = 0; i < 20; i++) await store.consume("k", policy, T0);
  for (let i = 0; i < 50; i++) await store.consume("k", policy, T0); // all refused by the bucket
  const next = await store.consume("k", policy, T0 + 6000);
  assert.equal(next.allowed, true);
  assert.equal(next.limits.find((l) => l.name === "hour")!.remaining, 100 - 21);
  assert.equal(next.limits.find((l) => l.name === "day")!.remaining, 1000 - 21);
});

test("remaining reaches 0 exactly when the next request would be refused (random traffic, every plan)", async () => {
  let seed = 99;
  const random = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const policies: KeyPolicy[] = [
    keyPolicy("free", null),
    keyPolicy("enterprise", 3),
    hourly,
    { ...hourly, capacity: 5, refillPerMinute: 30, perDay: 120 },
  ];
  for (const policy of policies) {
    const store = new MemoryStore();
    let t = T0;
    let checked = 0;
    for (let i = 0; i < 1500; i++) {
      t += Math.floor(random() ** 4 * 20_000);
      const d = await store.consume("k", policy, t);
      if (!d.allowed) continue;
      const next = await store.consume("k", policy, t); // the next request, at the same instant
      assert.equal(
        next.allowed,
        remaining(d) > 0,
        `remaining ${remaining(d)} but next ${next.allowed ? "admitted" : "refused"} (${JSON.stringify(policy)})`,
      );
      checked++;
    }
    assert.ok(checked > 50, `only ${checked} admitted requests checked`);
  }
});

test("headers describe the binding policy, in Unix seconds, with the IETF fields beside them", async () => {
  const clock = fixedClock(new Date(T0));
  setClock(clock);
  const store = new MemoryStore();
  const policy = keyPolicy("free", null);
  let d = await store.consume("k", policy, T0);
  let h = rateLimitHeaders(d, policy);
  assert.equal(h["X-RateLimit-Limit"], "20");
  assert.equal(h["X-RateLimit-Remaining"], "19");
  // The burst's window is the time an empty bucket takes to refill: 20 per 120 s is the sustained 10 a minute.
  assert.equal(h["X-RateLimit-Window"], "120");
  // The bucket is full again after one token's refill: 6 s.
  assert.equal(h["X-RateLimit-Reset"], String(Math.ceil((T0 + 6000) / 1000)));
  assert.equal(
    h["RateLimit-Policy"],
    '"burst";q=20;w=120, "sustained";q=10;w=60, "hour";q=100;w=3600, "day";q=1000;w=86400, "concurrent";q=1;qu="concurrent-requests"',
  );
  assert.equal(h.RateLimit, '"burst";r=19;t=6');

  // Half a token in: the next whole one is 3 s away, the full bucket 117 s away.
  for (let i = 0; i < 18; i++) d = await store.consume("k", policy, T0);
  setClock(fixedClock(new Date(T0 + 3000)));
  d = await store.consume("k", policy, T0 + 3000);
  assert.equal(d.allowed, true);
  h = rateLimitHeaders(d, policy);
  assert.equal(h.RateLimit, '"burst";r=0;t=3');
  assert.equal(h["X-RateLimit-Remaining"], "0");
  const refused = await store.consume("k", policy, T0 + 3000);
  h = rateLimitHeaders(refused, policy);
  assert.equal(h.RateLimit, `"burst";r=0;t=${refused.retryAfterSeconds}`, "t of a refusal is its Retry-After");

  // 95 more requests spread over the hour: now the hour window binds.
  const hourly2: KeyPolicy = { ...policy, capacity: 1000, refillPerMinute: 1000 };
  for (let i = 0; i < 95; i++) d = await store.consume("h", hourly2, T0 + i);
  h = rateLimitHeaders(d, hourly2);
  assert.equal(h["X-RateLimit-Limit"], "100");
  assert.equal(h["X-RateLimit-Remaining"], "5");
  assert.equal(h["X-RateLimit-Window"], "3600");
  assert.equal(h["X-RateLimit-Reset"], String(Date.UTC(2026, 2, 10, 13, 0, 0) / 1000), "the hour window rolls at the top of the hour");
  assert.match(h.RateLimit, /^"hour";r=5;t=\d+$/);

  // Both the bucket and the hour empty: the headers describe the one that refused, as the 429's body does.
  const both: KeyPolicy = { ...policy, capacity: 3, refillPerMinute: 1, perHour: 3 };
  for (let i = 0; i < 3; i++) await store.consume("b", both, T0);
  const r = await store.consume("b", both, T0);
  assert.equal(r.allowed, false);
  h = rateLimitHeaders(r, both);
  assert.equal(h.RateLimit.split(";")[0], `"${r.refusedBy}"`);
  assert.equal(h["X-RateLimit-Limit"], "3");
  assert.equal(h["X-RateLimit-Window"], String(r.limits.find((l) => l.name === r.refusedBy)!.windowSeconds));
});

test("concurrency: at most `limit` in flight per key; a release frees one slot", async () => {
  const store = new MemoryStore();
  assert.equal(await store.acquire("k", 2), true);
  assert.equal(await store.acquire("k", 2), true);
  assert.equal(await store.acquire("k", 2), false);
  assert.equal(await store.acquire("other", 2), true, "another key has its own slots");
  await store.release("k");
  assert.equal(await store.acquire("k", 2), true);
  assert.equal(await store.acquire("k", 2), false);
  await store.release("k");
  await store.release("k");
  await store.release("k"); // one release too many does not create a spare slot
  assert.equal(await store.acquire("k", 2), true);
  assert.equal(await store.acquire("k", 2), true);
  assert.equal(await store.acquire("k", 2), false);
});

test("a counter is seeded once, even when two requests meet it at the same time", async () => {
  const store = new MemoryStore();
  let seeded = 0;
  const init = async () => {
    seeded++;
    await new Promise((r) => setTimeout(r, 20));
    return 999;
  };
  const [a, b] = await Promise.all([store.incrementCounter("q", 1, init, 60_000), store.incrementCounter("q", 1, init, 60_000)]);
  assert.deepEqual([a, b].sort(), [1000, 1001]);
  assert.equal(await store.incrementCounter("q", -1, init, 60_000), 1000);
  assert.equal(await store.incrementCounter("q", 0, init, 60_000), 1000);
  assert.ok(seeded >= 1, "init was called");
});

test("setOnce: the first caller wins until the flag expires", async () => {
  const store = new MemoryStore();
  assert.equal(await store.setOnce("f", 60_000), true);
  assert.equal(await store.setOnce("f", 60_000), false);
  assert.equal(await store.setOnce("g", 60_000), true);
  assert.equal(await store.setOnce("short", 1), true);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(await store.setOnce("short", 1), true, "after its TTL the flag can be set again");
});
