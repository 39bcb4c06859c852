// Rate limits per key from the business's plan, against the real server (in-memory store): the burst, a key's own
// lower rateLimit, the concurrency cap, the X-RateLimit-* and IETF headers on every authenticated response, the
// 429 body, and the api.rate_limited event (at most one per key and window).
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, client, expectError, BASE_URL, type ApiResponse } from "../helpers/api";
import { createKey, eventRows, poll, settledCount, sleep, slowPost } from "../helpers/usage-db";

function rateHeaders(res: ApiResponse) {
  const h = (name: string) => res.headers.get(name);
  return {
    limit: h("x-ratelimit-limit"),
    remaining: h("x-ratelimit-remaining"),
    reset: h("x-ratelimit-reset"),
    window: h("x-ratelimit-window"),
    policy: h("ratelimit-policy"),
    state: h("ratelimit"),
    retryAfter: h("retry-after"),
  };
}

/** The X-RateLimit-* set is complete and well-formed: integers, Reset in Unix seconds (not ms) in the near future. */
function assertRateHeaders(res: ApiResponse, where: string) {
  const r = rateHeaders(res);
  for (const [k, v] of Object.entries({ limit: r.limit, remaining: r.remaining, reset: r.reset, window: r.window })) {
    assert.match(v ?? "", /^\d+$/, `${where}: X-RateLimit-${k} is ${v}`);
  }
  const nowS = Date.now() / 1000;
  assert.ok(
    Number(r.reset) >= Math.floor(nowS) - 1 && Number(r.reset) <= nowS + 86_400 + 60,
    `${where}: X-RateLimit-Reset ${r.reset} is not Unix seconds near now`,
  );
  assert.ok(r.policy && r.state, `${where}: RateLimit-Policy and RateLimit missing`);
  return r;
}

test("free plan: 20 requests at once, X-RateLimit-Remaining 19..0, then 429 with Retry-After and the body fields", async () => {
  const biz = await seedBusiness("free");
  const remaining: number[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await biz.test.get("/v1/products");
    assert.equal(res.status, 200, `request ${i + 1}: ${res.text.slice(0, 200)}`);
    const r = assertRateHeaders(res, `request ${i + 1}`);
    assert.equal(r.limit, "20", "the burst is the binding limit");
    assert.equal(r.window, "120", "20 per 120 s: the burst over the time it takes to refill at 10 a minute");
    assert.equal(
      r.policy,
      '"burst";q=20;w=120, "sustained";q=10;w=60, "hour";q=100;w=3600, "day";q=1000;w=86400, "concurrent";q=1;qu="concurrent-requests"',
    );
    assert.match(r.state!, new RegExp(`^"burst";r=${r.remaining};t=\\d+$`));
    remaining.push(Number(r.remaining));
  }
  assert.deepEqual(
    remaining,
    Array.from({ length: 20 }, (_, i) => 19 - i),
  );

  const refused = await biz.test.get("/v1/products");
  const e = expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
  assert.equal(e.type, "rate_limit_error");
  assert.equal(e.limit, 20);
  assert.equal(e.window, 120);
  assert.ok(Number.isInteger(e.retryAfter) && (e.retryAfter as number) >= 1 && (e.retryAfter as number) <= 6, `retryAfter ${e.retryAfter}`);
  const r = assertRateHeaders(refused, "the 429");
  assert.equal(r.retryAfter, String(e.retryAfter), "Retry-After header equals the body's retryAfter");
  assert.equal(r.remaining, "0");
  assert.ok(!/sk_(test|live)_/.test(refused.text), "no key in the error");
});

test("every authenticated response carries the headers: 201, 200, 404, 400 and 204", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { rateLimit: 10 }); // a slow refill (one every 6 s), so the count is exact
  const api = client(k.key);
  const product = await api.post("/v1/products", { name: "Headers", type: "API" });
  assert.equal(product.status, 201);
  const responses: [string, ApiResponse][] = [
    ["201", product],
    ["200", await api.get(`/v1/products/${product.body.data.id}`)],
    ["404", await api.get("/v1/products/prod_00000000000000000000000000")],
    ["400", await api.post("/v1/products", { type: "API" })],
    ["204", await api.delete(`/v1/products/${product.body.data.id}`)],
  ];
  const seen: number[] = [];
  for (const [label, res] of responses) {
    assert.equal(String(res.status), label, res.text.slice(0, 200));
    const r = assertRateHeaders(res, label);
    assert.equal(r.limit, "10");
    seen.push(Number(r.remaining));
  }
  // Failed requests count as well: one token each.
  assert.deepEqual(seen, [9, 8, 7, 6, 5]);
});

test("a key with rateLimit 5 admits exactly 5 at once, and its business's other keys are not affected", async () => {
  const biz = await seedBusiness();
  const limited = await createKey(biz.test, { rateLimit: 5 });
  assert.equal(limited.rateLimit, 5);
  const api = client(limited.key);
  const results = await Promise.all(Array.from({ length: 12 }, () => api.get("/v1/products")));
  const ok = results.filter((r) => r.status === 200);
  const refused = results.filter((r) => r.status === 429);
  assert.equal(ok.length, 5, results.map((r) => r.status).join(","));
  assert.equal(refused.length, 7);
  for (const r of results) assert.equal(rateHeaders(r).limit, "5");
  assert.deepEqual(ok.map((r) => Number(rateHeaders(r).remaining)).sort(), [0, 1, 2, 3, 4], "each admitted request saw its own remaining");
  for (const r of refused) {
    const e = expectError(r, 429, "RATE_LIMIT_EXCEEDED");
    assert.equal(e.limit, 5);
    assert.equal(e.window, 60);
    assert.ok((e.retryAfter as number) >= 1 && (e.retryAfter as number) <= 12, `retryAfter ${e.retryAfter} (one token at 5/min is 12 s)`);
  }
  const other = await biz.test.get("/v1/products");
  assert.equal(other.status, 200, "limits are per key");
  assert.equal(rateHeaders(other).limit, "20000");
});

test("a key's rateLimit can lower the plan's limit but not raise it", async () => {
  const biz = await seedBusiness("free");
  const generous = await createKey(biz.test, { rateLimit: 100_000 });
  const res = await client(generous.key).get("/v1/products");
  assert.equal(res.status, 200);
  assert.equal(rateHeaders(res).limit, "20", "the free plan's burst still binds");
  const stingy = await createKey(biz.test, { rateLimit: 3 });
  const res2 = await client(stingy.key).get("/v1/products");
  assert.equal(rateHeaders(res2).limit, "3");
  assert.equal(rateHeaders(res2).remaining, "2");
});

test("a rateLimit set later by PATCH applies to the key", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test);
  const patched = await biz.test.patch(`/v1/api-keys/${k.id}`, { rateLimit: 2 });
  assert.equal(patched.status, 200, patched.text.slice(0, 300));
  const api = client(k.key);
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await api.get("/v1/products")).status);
  assert.deepEqual(statuses, [200, 200, 429, 429]);
});

test("free plan: one request in flight per key; another meanwhile gets 429 with the headers; the slot is freed after", async () => {
  const biz = await seedBusiness("free");
  assert.equal((await biz.test.get("/v1/products")).status, 200, "the key is known to the server");
  const slow = slowPost(BASE_URL, biz.testKey, "/v1/products", { name: "Slow upload", type: "API" });
  // The POST is admitted before its body is read: give it time to get there (before our probe could take the slot).
  await sleep(300);
  const refused = await poll(
    async () => {
      const r = await biz.test.get("/v1/products");
      return r.status === 429 ? r : null;
    },
    3_000,
    50,
  );
  assert.ok(refused, "a second request while one is in flight was not refused");
  const e = expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
  assert.equal(e.type, "rate_limit_error");
  assert.equal(e.limit, 1, "the concurrency cap of the free plan");
  assert.equal(refused.headers.get("retry-after"), String(e.retryAfter));
  assert.ok((e.retryAfter as number) >= 1, `retryAfter ${e.retryAfter}`);
  const h = assertRateHeaders(refused, "concurrency 429");
  assert.equal(h.limit, "1");
  assert.equal(h.remaining, "0");

  const done = await slow.finish();
  assert.equal(done.status, 201, `the slow request itself is served: ${done.body.slice(0, 200)}`);
  // Its slot was given back: the next request is served.
  const after = await biz.test.get("/v1/products");
  assert.equal(after.status, 200, after.text.slice(0, 200));
});

test("a key with a higher concurrency cap admits that many in flight at once", async () => {
  const biz = await seedBusiness("starter"); // 5 in flight
  assert.equal((await biz.test.get("/v1/products")).status, 200);
  const slow = Array.from({ length: 5 }, (_, i) => slowPost(BASE_URL, biz.testKey, "/v1/products", { name: `Slow ${i}`, type: "API" }));
  await sleep(300);
  const sixth = await poll(
    async () => {
      const r = await biz.test.get("/v1/products");
      return r.status === 429 ? r : null;
    },
    3_000,
    50,
  );
  assert.ok(sixth, "a sixth request with five in flight was not refused");
  assert.equal(expectError(sixth, 429, "RATE_LIMIT_EXCEEDED").limit, 5);
  const done = await Promise.all(slow.map((s) => s.finish()));
  assert.deepEqual(
    done.map((d) => d.status),
    [201, 201, 201, 201, 201],
  );
});

test("429s emit one api.rate_limited event per key and window, not one per refusal", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { rateLimit: 2 });
  const api = client(k.key);
  const statuses = [];
  for (let i = 0; i < 7; i++) statuses.push((await api.get("/v1/products")).status);
  assert.deepEqual(statuses, [200, 200, 429, 429, 429, 429, 429]);
  const count = await settledCount(async () => (await eventRows(biz.businessId, "api.rate_limited")).length, 1);
  assert.equal(count, 1);
  const [event] = await eventRows(biz.businessId, "api.rate_limited");
  const data = event.data as Record<string, unknown>;
  assert.equal(data.apiKey, k.id);
  assert.equal(data.limit, "burst");
  assert.equal(data.max, 2);
  assert.equal(event.environment, "test");
});

test("refused requests do not spend the budget: after Retry-After the key is served again", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { rateLimit: 60 }); // one token a second
  const api = client(k.key);
  const results = await Promise.all(Array.from({ length: 70 }, () => api.get("/v1/products")));
  assert.equal(results.filter((r) => r.status === 200).length >= 60, true);
  const refused = results.filter((r) => r.status === 429);
  assert.ok(refused.length >= 1, "the burst of 60 was exceeded");
  const wait = Math.max(...refused.map((r) => Number(r.headers.get("retry-after"))));
  assert.ok(wait >= 1 && wait <= 2, `Retry-After ${wait} for a 1-per-second refill`);
  await sleep(wait * 1000 + 100);
  const again = await api.get("/v1/products");
  assert.equal(again.status, 200, `still refused after waiting Retry-After: ${again.text.slice(0, 200)}`);
});
