// GET /v1/usage/metrics: totals, rates, latency percentiles, errors by type and endpoint, bandwidth, compute,
// unique users, active keys, quota use and the time series. Real latencies cannot be controlled, so percentile
// correctness is checked on rollups seeded with a known distribution (in a past range no live request touches),
// and live traffic is checked for being counted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, expectError } from "../helpers/api";
import { HOUR_MS, hourOf, poll, seedRollups } from "../helpers/usage-db";

test("percentiles, rates, errors and counts over a known distribution (merged from partial rollups)", async () => {
  const biz = await seedBusiness();
  const A = new Date(hourOf(Date.now()).getTime() - 5 * HOUR_MS);
  const B = new Date(A.getTime() + HOUR_MS);
  const p = biz.projectId;
  // 100 requests. Latencies sorted: 5 ms ×8, 10 ×30, 20 ×30, 50 ×20, 100 ×10, 300 ×1, 900 ×1.
  await seedRollups([
    // Hour A, GET /v1/products: two partial rows of one dimension, as two flushes would write them.
    {
      projectId: p,
      hour: A,
      method: "GET",
      endpoint: "/v1/products",
      statusCode: 200,
      apiKey: "key_one",
      principal: "key_one",
      count: 30,
      latencyHist: { "10": 30 },
      latencySum: 300,
      responseBytes: 3000,
      requestBytes: 0,
      computeMs: 30,
      billableCount: 0,
    },
    {
      projectId: p,
      hour: A,
      method: "GET",
      endpoint: "/v1/products",
      statusCode: 200,
      apiKey: "key_one",
      principal: "key_one",
      count: 30,
      latencyHist: { "20": 30 },
      latencySum: 600,
      responseBytes: 3000,
      requestBytes: 0,
      computeMs: 30,
    },
    {
      projectId: p,
      hour: A,
      method: "POST",
      endpoint: "/v1/products",
      statusCode: 201,
      apiKey: "key_two",
      principal: "user_1",
      count: 30,
      latencyHist: { "50": 20, "100": 10 },
      latencySum: 2000,
      requestBytes: 1500,
      responseBytes: 1500,
      computeMs: 100.5,
    },
    {
      projectId: p,
      hour: B,
      method: "GET",
      endpoint: "/v1/products/{id}",
      statusCode: 404,
      errorType: "not_found_error",
      apiKey: "key_one",
      principal: "key_one",
      count: 8,
      latencyHist: { "5": 8 },
      latencySum: 40,
      responseBytes: 800,
    },
    {
      projectId: p,
      hour: B,
      method: "POST",
      endpoint: "/v1/products",
      statusCode: 400,
      errorType: "validation_error",
      apiKey: "key_two",
      principal: "user_2",
      count: 2,
      latencyHist: { "300": 1, "900": 1 },
      latencySum: 1200,
      requestBytes: 100,
      responseBytes: 100,
    },
    // Not this project's test environment: must not count.
    { projectId: p, environment: "production", hour: A, count: 1000, latencyHist: { "999": 1000 }, latencySum: 999_000 },
    { projectId: "proj_someone_else", hour: A, count: 1000, latencyHist: { "999": 1000 }, latencySum: 999_000 },
  ]);
  const from = A.toISOString();
  const to = new Date(B.getTime() + HOUR_MS - 60_000).toISOString();
  const res = await biz.test.get(`/v1/usage/metrics?period=day&from=${from}&to=${to}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const m = res.body.data;
  assert.equal(m.period, "day");
  assert.equal(m.from, from);
  assert.equal(m.to, to);
  assert.equal(m.totalRequests, 100);
  assert.equal(m.successfulRequests, 90);
  assert.equal(m.failedRequests, 10);
  assert.equal(m.successRate, 90);
  assert.equal(m.errorRate, 10);
  assert.equal(m.p50Latency, 20);
  assert.equal(m.p95Latency, 100);
  assert.equal(m.p99Latency, 300);
  assert.equal(m.averageLatency, 41.4);
  assert.deepEqual(m.errorsByType, { not_found_error: 8, validation_error: 2 });
  assert.deepEqual(m.errorsByEndpoint, { "GET /v1/products/{id}": 8, "POST /v1/products": 2 });
  assert.deepEqual(m.requestsByEndpoint, { "GET /v1/products": 60, "POST /v1/products": 32, "GET /v1/products/{id}": 8 });
  assert.equal(m.bandwidthUsed, 3000 + 3000 + 3000 + 800 + 200);
  assert.equal(m.computeTime, 160.5);
  assert.equal(m.uniqueUsers, 3, "key_one, user_1, user_2");
  assert.equal(m.activeAPIKeys, 2);
  assert.equal(m.quotaUsed, null, "enterprise: no quota");

  assert.equal(m.series.length, 2);
  const [a, b] = m.series;
  assert.equal(a.start, A.toISOString());
  assert.equal(a.end, B.toISOString());
  assert.equal(b.start, B.toISOString());
  // Hour A: 10 ×30, 20 ×30, 50 ×20, 100 ×10 (90 requests, all 2xx).
  assert.deepEqual(
    {
      requests: a.requests,
      successRate: a.successRate,
      errorRate: a.errorRate,
      p50: a.p50Latency,
      p95: a.p95Latency,
      p99: a.p99Latency,
      avg: a.averageLatency,
    },
    { requests: 90, successRate: 100, errorRate: 0, p50: 20, p95: 100, p99: 100, avg: 32.22 },
  );
  // Hour B: 5 ×8, 300, 900 (10 requests, all failed).
  assert.deepEqual(
    {
      requests: b.requests,
      failed: b.failed,
      successRate: b.successRate,
      errorRate: b.errorRate,
      p50: b.p50Latency,
      p95: b.p95Latency,
      p99: b.p99Latency,
    },
    { requests: 10, failed: 10, successRate: 0, errorRate: 100, p50: 5, p95: 900, p99: 900 },
  );
});

test("1..100 ms, one request each, spread over hours: p50 50, p95 95, p99 99", async () => {
  const biz = await seedBusiness();
  const start = new Date(hourOf(Date.now()).getTime() - 30 * HOUR_MS);
  await seedRollups(
    Array.from({ length: 100 }, (_, i) => ({
      projectId: biz.projectId,
      hour: new Date(start.getTime() + (i % 10) * HOUR_MS),
      apiKey: `key_${i % 4}`,
      count: 1,
      latencyHist: { [String(i + 1)]: 1 },
      latencySum: i + 1,
    })),
  );
  const to = new Date(start.getTime() + 10 * HOUR_MS - 1).toISOString();
  const res = await biz.test.get(`/v1/usage/metrics?period=day&from=${start.toISOString()}&to=${to}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const m = res.body.data;
  assert.equal(m.totalRequests, 100);
  assert.deepEqual([m.p50Latency, m.p95Latency, m.p99Latency], [50, 95, 99]);
  assert.equal(m.averageLatency, 50.5);
  assert.equal(m.activeAPIKeys, 4);
  assert.equal(m.series.length, 10);
  assert.deepEqual(
    m.series.map((s: { requests: number }) => s.requests),
    Array(10).fill(10),
  );
  // Hour 0 holds 1, 11, 21, ..., 91.
  assert.equal(m.series[0].p50Latency, 41);
  assert.equal(m.series[0].p99Latency, 91);
});

test("a week is in 6-hour buckets and a month in days; the series adds up to the totals", async () => {
  const biz = await seedBusiness();
  const now = hourOf(Date.now()).getTime();
  await seedRollups([
    { projectId: biz.projectId, hour: new Date(now - 2 * 86_400_000), count: 7 },
    { projectId: biz.projectId, hour: new Date(now - 3 * 86_400_000), count: 5, statusCode: 500, errorType: "server_error" },
    { projectId: biz.projectId, hour: new Date(now - 20 * 86_400_000), count: 11 },
  ]);
  for (const [period, bucketMs, spanMs, expectTotal] of [
    ["week", 6 * HOUR_MS, 7 * 86_400_000, 12],
    ["month", 86_400_000, 30 * 86_400_000, 23],
  ] as const) {
    // Up to just before this hour: this test's own requests (metered in this hour) stay out of the numbers.
    const to = new Date(now - 1).toISOString();
    const from = new Date(Date.parse(to) - spanMs).toISOString();
    const res = await biz.test.get(`/v1/usage/metrics?period=${period}&from=${from}&to=${to}`);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    const m = res.body.data;
    assert.equal(m.period, period);
    assert.equal(m.totalRequests, expectTotal, period);
    const series = m.series as { start: string; end: string; requests: number; failed: number }[];
    for (const s of series) assert.equal(Date.parse(s.end) - Date.parse(s.start), bucketMs, `${period} bucket size`);
    for (let i = 1; i < series.length; i++) assert.equal(series[i].start, series[i - 1].end, `${period} buckets are contiguous`);
    assert.ok(
      Date.parse(series[0].start) <= Date.parse(from) && Date.parse(series.at(-1)!.end) > Date.parse(to),
      `${period} series covers the range`,
    );
    assert.equal(
      series.reduce((s, b) => s + b.requests, 0),
      m.totalRequests,
      `${period} series sums to the total`,
    );
    assert.equal(
      series.reduce((s, b) => s + b.failed, 0),
      5,
    );
    assert.deepEqual(m.errorsByType, { server_error: 5 });
  }
});

test("the default period is a day, and an hour-old range has 25 hourly buckets", async () => {
  const biz = await seedBusiness();
  const res = await biz.test.get("/v1/usage/metrics");
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const m = res.body.data;
  assert.equal(m.period, "day");
  assert.equal(Date.parse(m.to) - Date.parse(m.from), 86_400_000);
  assert.equal(m.series.length, 25);
  assert.equal(m.totalRequests, 0, "a new project's first request is not yet in its own metrics");
  assert.equal(m.p50Latency, null);
  assert.equal(m.successRate, 0);
});

test("quotaUsed is the percentage of the monthly quota used", async () => {
  const biz = await seedBusiness("free");
  await seedRollups([{ projectId: biz.projectId, count: 250 }]);
  const res = await biz.test.get("/v1/usage/metrics?period=month");
  assert.equal(res.status, 200, res.text.slice(0, 300));
  // 250 before, plus this request: 251 of 1000.
  assert.equal(res.body.data.quotaUsed, 25.1);
});

test("live traffic is counted: requests, errors by type and endpoint, keys and ordered percentiles", async () => {
  const biz = await seedBusiness();
  for (let i = 0; i < 3; i++) assert.equal((await biz.test.get("/v1/products")).status, 200);
  for (let i = 0; i < 2; i++) assert.equal((await biz.test.get("/v1/products/prod_00000000000000000000000000")).status, 404);
  assert.equal((await biz.test.post("/v1/products", { type: "API" })).status, 400);
  const m = await poll(
    async () => {
      const res = await biz.test.get("/v1/usage/metrics?period=day");
      const d = res.body?.data;
      // Every call counted, the two 404s included: with Redis the data plane runs a worker a core, each flushing its own.
      return d &&
        d.requestsByEndpoint["GET /v1/products"] === 3 &&
        d.errorsByEndpoint["GET /v1/products/{id}"] === 2 &&
        d.errorsByEndpoint["POST /v1/products"] === 1
        ? d
        : null;
    },
    // Another worker's calls reach the metrics when it flushes its rollups (ROLLUP_FLUSH_MS, 5 s by default).
    15_000,
    200,
  );
  assert.ok(m, "the requests did not reach the metrics within 15 s");
  assert.deepEqual(m.errorsByType, { not_found_error: 2, validation_error: 1 });
  assert.deepEqual(m.errorsByEndpoint, { "GET /v1/products/{id}": 2, "POST /v1/products": 1 });
  assert.equal(m.failedRequests, 3);
  assert.equal(m.successfulRequests, m.totalRequests - 3, "everything else (products and metrics calls) succeeded");
  assert.equal(m.successRate, Math.round((m.successfulRequests / m.totalRequests) * 10_000) / 100);
  assert.equal(m.errorRate, Math.round((3 / m.totalRequests) * 10_000) / 100);
  assert.equal(m.activeAPIKeys, 1);
  assert.equal(m.uniqueUsers, 1);
  assert.ok(
    m.p50Latency !== null && m.p50Latency <= m.p95Latency && m.p95Latency <= m.p99Latency,
    `p50 ${m.p50Latency} p95 ${m.p95Latency} p99 ${m.p99Latency}`,
  );
  assert.ok(m.averageLatency > 0, "average latency");
  assert.ok(m.bandwidthUsed > 0, "bandwidth");
  assert.equal(m.billableRequests, 0, "test traffic is not billable");
  assert.equal(
    m.series.reduce((s: number, b: { requests: number }) => s + b.requests, 0),
    m.totalRequests,
    "the series adds up to the total",
  );
});

test("bad metrics input is a 400 envelope", async () => {
  const biz = await seedBusiness();
  const cases: [string, string, string][] = [
    ["period=year", "INVALID_PARAMETER", "period"],
    ["period=", "INVALID_PARAMETER", "period"],
    ["period=DAY", "INVALID_PARAMETER", "period"],
    ["from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z", "INVALID_PARAMETER", "from"],
    ["from=2020-01-01&to=2026-01-01", "INVALID_PARAMETER", "from"],
    ["from=last-week", "INVALID_PARAMETER", "from"],
    ["to=2026-13-45", "INVALID_PARAMETER", "to"],
  ];
  for (const [query, code, field] of cases) {
    const res = await biz.test.get(`/v1/usage/metrics?${query}`);
    const e = expectError(res, 400, code);
    assert.equal(e.type, "validation_error", query);
    assert.equal(e.field, field, query);
  }
  const unknown = await biz.test.get("/v1/usage/metrics?window=day");
  assert.equal(unknown.status, 400, "an unknown parameter is refused");
});

test("a repeated month query (closed days answered from memory) agrees on closed days and adds the open day's new traffic", async () => {
  const biz = await seedBusiness();
  const now = hourOf(Date.now()).getTime();
  await seedRollups([
    { projectId: biz.projectId, hour: new Date(now - 3 * 86_400_000), count: 40, latencyHist: { "7": 40 }, latencySum: 280 },
    {
      projectId: biz.projectId,
      hour: new Date(now - 10 * 86_400_000),
      count: 60,
      statusCode: 404,
      errorType: "not_found_error",
      latencyHist: { "70": 60 },
      latencySum: 4200,
    },
  ]);
  const first = await biz.test.get("/v1/usage/metrics?period=month");
  assert.equal(first.status, 200, first.text.slice(0, 300));
  const a = first.body.data;
  assert.ok(a.totalRequests >= 100, `${a.totalRequests}`);
  for (let i = 0; i < 3; i++) assert.equal((await biz.test.get("/v1/products")).status, 200);
  // The first metrics call and the three reads land in today's (open) bucket.
  const b = await poll(
    async () => {
      const d = (await biz.test.get("/v1/usage/metrics?period=month")).body?.data;
      return d && d.totalRequests >= a.totalRequests + 4 ? d : null;
    },
    5_000,
    200,
  );
  assert.ok(b, "the open day's new requests did not reach the metrics within 5 s");
  const closed = (s: { start: string }[]) => s.filter((x) => Date.parse(x.start) + 86_400_000 <= now - 3_600_000);
  assert.ok(closed(a.series).length >= 29);
  assert.deepEqual(closed(b.series), closed(a.series), "closed days are unchanged");
  assert.equal(
    b.series.reduce((s: number, x: { requests: number }) => s + x.requests, 0),
    b.totalRequests,
    "the series adds up to the total",
  );
  assert.equal(b.errorsByType.not_found_error, 60);
  assert.equal(b.series.find((x: { requests: number; p50Latency: number }) => x.requests === 60)?.p50Latency, 70);
});
