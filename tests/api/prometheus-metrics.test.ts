// GET /metrics (issue 41, item 4; GET /v1/usage/metrics is tests/api/metrics.test.ts): Prometheus text behind
// METRICS_TOKEN, for the whole deployment whichever data-plane worker answers (the supervisor sums them). Off
// without the setting.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, client } from "../helpers/api";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";

const BASE_URL = process.env.BASE_URL!;
const TOKEN = `metrics-${Date.now().toString(36)}-secret`;
let server: ServerWithLogs;

before(async () => {
  // Two data-plane workers where the store allows it (Redis), so the count below only adds up when summed.
  server = await startSecondServer({ METRICS_TOKEN: TOKEN, ...(process.env.REDIS_URL ? { DATA_PLANE_WORKERS: "2" } : {}) });
});
after(() => server?.stop());

/** The value of one sample line (`name{labels} value`), or 0 when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const [series, value] = [line.slice(0, line.lastIndexOf(" ")), line.slice(line.lastIndexOf(" ") + 1)];
    if (want.every((w) => series.includes(w))) return Number(value);
  }
  return 0;
}

test("GET /metrics is off without METRICS_TOKEN: 404 in the envelope", async () => {
  const res = await fetch(`${BASE_URL}/metrics`);
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, "METRICS_DISABLED");
});

test("GET /metrics refuses a missing or wrong token with 401 and WWW-Authenticate", async () => {
  for (const authorization of [undefined, "Bearer nope", `Bearer ${TOKEN}x`, TOKEN]) {
    const res = await fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
    assert.equal(res.status, 401, String(authorization));
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.equal((await res.json()).error.code, "METRICS_TOKEN_INVALID");
  }
});

test("GET /metrics counts every answered request by route pattern and status, summed over the workers", async () => {
  const biz = await seedBusiness();
  const api = client(biz.testKey, server.url);
  const read = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const text = await res.text();
    assert.equal(res.status, 200, text);
    assert.match(res.headers.get("content-type") ?? "", /^text\/plain/);
    return text;
  };
  const before = await read();
  const ok = { kind: "api", route: "/v1/products", method: "GET", status: "200" };
  const missing = { kind: "api", route: "/v1/products/{id}", method: "GET", status: "404" };
  const base = { ok: sample(before, "platform_http_requests_total", ok), missing: sample(before, "platform_http_requests_total", missing) };
  // Separate connections, so with two workers both take some.
  for (let i = 0; i < 12; i++) {
    const res = await fetch(`${server.url}/v1/products`, { headers: { authorization: `Bearer ${biz.testKey}`, connection: "close" } });
    assert.equal(res.status, 200);
    await res.arrayBuffer();
  }
  assert.equal((await api.get("/v1/products/prod_doesnotexist")).status, 404);
  const text = await read();
  assert.equal(sample(text, "platform_http_requests_total", ok) - base.ok, 12, "every GET /v1/products, whichever worker took it");
  assert.equal(sample(text, "platform_http_requests_total", missing) - base.missing, 1, "a 404 under its route's pattern, not its id");
  assert.ok(!text.includes("prod_doesnotexist"), "no raw path or id as a label");
  assert.ok(sample(text, "platform_http_request_duration_seconds_count", { kind: "api", route: "/v1/products" }) >= 12);
  for (const name of [
    "platform_limiter_degraded",
    "platform_usage_recorder_queue",
    "platform_usage_journal_pending",
    "platform_webhook_deliveries_pending",
    "platform_key_cache_lookups_total",
    "platform_gateway_upstream_duration_seconds",
  ])
    assert.match(text, new RegExp(`^# TYPE ${name} `, "m"), name);
  assert.equal(Number(/^platform_limiter_degraded (\d+)/m.exec(text)?.[1]), 0, "limits are not degraded");
  assert.ok(Number(/^platform_key_cache_lookups_total\{result="hit"\} (\d+)/m.exec(text)?.[1]) >= 1, "key cache hits counted");
});
