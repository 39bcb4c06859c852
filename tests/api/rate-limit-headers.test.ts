// The rate-limit headers say what a client can do. The free plan admits bursts of 20 refilled at 10 a minute, so
// the headers must not read "20 per 60 s": RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers) names the burst,
// the sustained rate, the hour and day windows and the concurrency cap; RateLimit gives the binding policy's state;
// X-RateLimit-* describe that same policy, on admitted requests and on the 429 that policy answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, client, expectError, type ApiResponse } from "../helpers/api";
import { createKey } from "../helpers/usage-db";

interface Item {
  name: string;
  params: Record<string, string>;
}

/** A Structured Fields list of string items with parameters, as the draft's two fields are (RFC 9651 §3.1). */
function sfList(value: string | null): Item[] {
  assert.ok(value, "field missing");
  return value.split(/\s*,\s*/).map((member) => {
    const [name, ...params] = member.split(";");
    assert.match(name, /^"[a-z]+"$/, `item ${member} is not a string`);
    for (const p of params) assert.match(p, /^[a-z]+=(\d+|"[a-z-]+")$/, `parameter ${p} of ${member}`);
    return { name: name.slice(1, -1), params: Object.fromEntries(params.map((p) => p.split("=") as [string, string])) };
  });
}

function headers(res: ApiResponse) {
  const h = (n: string) => res.headers.get(n);
  return {
    limit: Number(h("x-ratelimit-limit")),
    remaining: Number(h("x-ratelimit-remaining")),
    window: Number(h("x-ratelimit-window")),
    reset: Number(h("x-ratelimit-reset")),
    policy: sfList(h("ratelimit-policy")),
    state: sfList(h("ratelimit")),
    retryAfter: h("retry-after"),
  };
}

/** X-RateLimit-* describe the policy RateLimit names: its quota and window, and the state's remaining. */
function assertConsistent(res: ApiResponse, where: string) {
  const r = headers(res);
  assert.equal(r.state.length, 1, `${where}: one service limit item`);
  const item = r.state[0];
  const policy = r.policy.find((p) => p.name === item.name);
  assert.ok(policy, `${where}: RateLimit names '${item.name}', which RateLimit-Policy does not list`);
  assert.equal(r.limit, Number(policy.params.q), `${where}: X-RateLimit-Limit is not the quota of '${item.name}'`);
  assert.equal(r.window, Number(policy.params.w), `${where}: X-RateLimit-Window is not the window of '${item.name}'`);
  assert.equal(r.remaining, Number(item.params.r), `${where}: X-RateLimit-Remaining differs from RateLimit's r`);
  assert.match(item.params.t ?? "", /^\d+$/, `${where}: no effective window t`);
  return { ...r, item, policyItem: policy };
}

test("free plan: the policy lists the burst, the sustained rate, the windows and the concurrency cap", async () => {
  const biz = await seedBusiness("free");
  const res = await biz.test.get("/v1/products");
  assert.equal(res.status, 200);
  assert.equal(
    res.headers.get("ratelimit-policy"),
    '"burst";q=20;w=120, "sustained";q=10;w=60, "hour";q=100;w=3600, "day";q=1000;w=86400, "concurrent";q=1;qu="concurrent-requests"',
  );
  const r = assertConsistent(res, "first request");
  assert.equal(r.item.name, "burst");
  assert.equal(r.limit, 20);
  // 20 per 120 s is the sustained 10 a minute: never the burst over a minute.
  assert.equal(r.window, 120);
  assert.equal(r.remaining, 19);
  assert.equal(r.item.params.t, "6", "the next token comes in 6 s: until then, 19 is all there is");
  assert.ok((r.limit * 60) / r.window <= 10, `X-RateLimit-* promise ${r.limit} per ${r.window} s, more than 10 a minute`);
});

test("draining the burst: every response consistent, and the 429 describes the policy that refused it", async () => {
  const biz = await seedBusiness("free");
  for (let i = 0; i < 20; i++) {
    const res = await biz.test.get("/v1/products");
    assert.equal(res.status, 200, `request ${i + 1}`);
    const r = assertConsistent(res, `request ${i + 1}`);
    assert.equal(r.remaining, 19 - i);
  }
  const refused = await biz.test.get("/v1/products");
  const e = expectError(refused, 429, "RATE_LIMIT_EXCEEDED");
  const r = assertConsistent(refused, "the 429");
  assert.equal(r.item.name, "burst");
  assert.equal(r.remaining, 0);
  assert.equal(e.limit, r.limit, "the body's limit is the refusing policy's quota");
  assert.equal(e.window, r.window, "the body's window is the refusing policy's window");
  assert.equal(e.policy, "burst");
  assert.ok(
    Number(r.retryAfter) >= Number(r.item.params.t),
    `Retry-After ${r.retryAfter} ends before the effective window t=${r.item.params.t}`,
  );
  assert.ok(Number(r.retryAfter) >= 1 && Number(r.retryAfter) <= 6);
  assert.match(e.message, /20 .*10 (a|per) minute/);
});

test("a key's own rateLimit shows in the policy it lowers", async () => {
  const biz = await seedBusiness("free");
  const k = await createKey(biz.test, { rateLimit: 4 });
  const res = await client(k.key).get("/v1/products");
  assert.equal(res.status, 200);
  const r = assertConsistent(res, "rateLimit 4");
  assert.equal(
    res.headers.get("ratelimit-policy"),
    '"burst";q=4;w=60, "sustained";q=4;w=60, "hour";q=100;w=3600, "day";q=1000;w=86400, "concurrent";q=1;qu="concurrent-requests"',
  );
  assert.equal(r.limit, 4);
  assert.equal(r.window, 60);
  assert.equal(r.remaining, 3);
});
