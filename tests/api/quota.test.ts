// The monthly request quota: GET /v1/usage/quota, a free project blocked at 100% (429 QUOTA_EXCEEDED) while paid
// plans go on, and the notifyAt thresholds firing once each per period (QuotaAlert rows and
// usage.threshold_reached events), even when two server processes reach a threshold together.
//
// Usage before a test's first request is seeded as rollups: a server seeds a project's counter from them when it
// first meets the project in a period, so they must be written before the project's first request.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, client, expectError } from "../helpers/api";
import { db, eventRows, seedRollups, settledCount, startSecondServer } from "../helpers/usage-db";

function monthBounds(at = new Date()) {
  return {
    key: `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, "0")}`,
    resets: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString(),
  };
}

const alerts = (projectId: string) => db.quotaAlert.findMany({ where: { projectId }, orderBy: { threshold: "asc" } });

test("a free project's quota: 1000 a month, counted from its first request, resetting next month", async () => {
  const biz = await seedBusiness("free");
  const res = await biz.test.get("/v1/usage/quota");
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const q = res.body.data;
  assert.equal(q.limit, 1000);
  assert.equal(q.used, 1, "this request counts");
  assert.equal(q.remaining, 999);
  assert.equal(q.percentage, 0.1);
  assert.equal(q.allowed, true);
  assert.equal(q.period, "month");
  assert.equal(q.resets, monthBounds().resets);
  assert.deepEqual(q.notifyAt, [80, 95, 100]);
  assert.equal(q.plan, "free");
  assert.equal(q.blocksAtLimit, true);
  assert.deepEqual(q.alerts, []);
  const again = await biz.test.get("/v1/usage/quota");
  assert.equal(again.body.data.used, 2);
});

test("plans: starter 100,000, pro 5,000,000, enterprise unlimited", async () => {
  for (const [plan, limit] of [
    ["starter", 100_000],
    ["pro", 5_000_000],
    ["enterprise", null],
  ] as const) {
    const biz = await seedBusiness(plan);
    const q = (await biz.test.get("/v1/usage/quota")).body.data;
    assert.equal(q.limit, limit, plan);
    assert.equal(q.blocksAtLimit, false, plan);
    if (limit === null) {
      assert.equal(q.remaining, null);
      assert.equal(q.percentage, null);
      assert.equal(q.allowed, true);
    } else assert.equal(q.remaining, limit - 1, plan);
  }
});

test("free plan: request 1000 succeeds, 1001 is 429 QUOTA_EXCEEDED; 429s and the other environment do not count", async () => {
  const biz = await seedBusiness("free");
  const p = biz.projectId;
  await seedRollups([
    { projectId: p, count: 990 },
    { projectId: p, count: 9, statusCode: 404, errorType: "not_found_error", endpoint: "/v1/products/{id}" },
    { projectId: p, count: 50, statusCode: 429, errorType: "rate_limit_error" }, // refused, never admitted: not counted
    { projectId: p, environment: "production", count: 10 }, // live traffic has its own allowance
  ]);
  const thousandth = await biz.test.get("/v1/products");
  assert.equal(thousandth.status, 200, `request 1000: ${thousandth.text.slice(0, 300)}`);

  const refused = await biz.test.get("/v1/products");
  const e = expectError(refused, 429, "QUOTA_EXCEEDED");
  assert.equal(e.type, "rate_limit_error");
  assert.equal(e.limit, 1000);
  assert.equal(e.period, "month");
  assert.equal(e.resets, monthBounds().resets);
  const untilReset = (Date.parse(monthBounds().resets) - Date.now()) / 1000;
  assert.ok(Math.abs((e.retryAfter as number) - untilReset) < 60, `retryAfter ${e.retryAfter}, reset in ${untilReset} s`);
  assert.equal(refused.headers.get("retry-after"), String(e.retryAfter));
  expectError(await biz.test.post("/v1/products", { name: "Over quota", type: "API" }), 429, "QUOTA_EXCEEDED");
  assert.equal(await db.product.count({ where: { businessId: biz.businessId } }), 0, "a refused write writes nothing");

  // The live environment is not blocked: it has its own count.
  const live = await biz.live.get("/v1/usage/quota");
  assert.equal(live.status, 200, live.text.slice(0, 200));
  assert.equal(live.body.data.used, 11, "10 seeded live requests and this one");

  // One api.quota_exceeded event, however many refusals.
  assert.equal(await settledCount(async () => (await eventRows(biz.businessId, "api.quota_exceeded")).length, 1), 1);
  const [event] = await eventRows(biz.businessId, "api.quota_exceeded");
  assert.equal((event.data as Record<string, unknown>).projectId, p);
  assert.equal((event.data as Record<string, unknown>).limit, 1000);
  // Request 1000 reached 100%: that threshold fired; 80 and 95 were passed before this process counted.
  assert.deepEqual(
    (await alerts(p)).map((a) => [a.threshold, a.used, a.limit]),
    [[100, 1000, 1000]],
  );
});

test("paid plans are not blocked past 100%", async () => {
  const biz = await seedBusiness("starter");
  await seedRollups([{ projectId: biz.projectId, count: 100_000 }]);
  for (let i = 0; i < 3; i++) {
    const res = await biz.test.get("/v1/products");
    assert.equal(res.status, 200, `request ${100_001 + i}: ${res.text.slice(0, 200)}`);
  }
  const q = (await biz.test.get("/v1/usage/quota")).body.data;
  assert.equal(q.used, 100_004);
  assert.equal(q.remaining, -4);
  assert.ok(q.percentage >= 100, `percentage ${q.percentage}`);
  assert.equal(q.blocksAtLimit, false);
});

test("crossing 80% records one QuotaAlert and one usage.threshold_reached event; repeats add none", async () => {
  const biz = await seedBusiness("free");
  await seedRollups([{ projectId: biz.projectId, count: 799 }]);
  assert.equal((await biz.test.get("/v1/products")).status, 200);
  const count = await settledCount(async () => (await eventRows(biz.businessId, "usage.threshold_reached")).length, 1);
  assert.equal(count, 1);
  for (let i = 0; i < 5; i++) assert.equal((await biz.test.get("/v1/products")).status, 200);
  assert.equal(
    await settledCount(async () => (await eventRows(biz.businessId, "usage.threshold_reached")).length, 1),
    1,
    "no duplicate event",
  );

  const rows = await alerts(biz.projectId);
  assert.deepEqual(
    rows.map((a) => ({ threshold: a.threshold, used: a.used, limit: a.limit, period: a.period, environment: a.environment })),
    [{ threshold: 80, used: 800, limit: 1000, period: monthBounds().key, environment: "test" }],
  );
  const [event] = await eventRows(biz.businessId, "usage.threshold_reached");
  assert.deepEqual(event.data, {
    projectId: biz.projectId,
    period: monthBounds().key,
    threshold: 80,
    used: 800,
    limit: 1000,
    percentage: 80,
  });
  assert.equal(event.environment, "test");

  const q = (await biz.test.get("/v1/usage/quota")).body.data;
  assert.deepEqual(
    q.alerts.map((a: { threshold: number; used: number }) => [a.threshold, a.used]),
    [[80, 800]],
  );
  assert.ok(!Number.isNaN(Date.parse(q.alerts[0].reachedAt)), "reachedAt is a date");
});

test("a project's own notifyAt thresholds are the ones that fire", async () => {
  const biz = await seedBusiness("free");
  await db.project.update({ where: { id: biz.projectId }, data: { quotaNotifyAt: [50, 75] } });
  await seedRollups([{ projectId: biz.projectId, count: 499 }]);
  assert.equal((await biz.test.get("/v1/products")).status, 200);
  assert.equal(await settledCount(async () => (await alerts(biz.projectId)).length, 1), 1);
  assert.deepEqual(
    (await alerts(biz.projectId)).map((a) => a.threshold),
    [50],
  );
  const q = (await biz.test.get("/v1/usage/quota")).body.data;
  assert.deepEqual(q.notifyAt, [50, 75]);
});

test("two server processes reaching 80% together still record one alert and one event", async () => {
  const server = await startSecondServer();
  try {
    const biz = await seedBusiness("starter");
    await seedRollups([{ projectId: biz.projectId, count: 79_999 }]);
    // Each process meets the project for the first time, seeds 79,999 and counts its request as the 80,000th.
    const [a, b] = await Promise.all([biz.test.get("/v1/products"), client(biz.testKey, server.url).get("/v1/products")]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.equal(await settledCount(async () => (await alerts(biz.projectId)).length, 1, 3_000), 1);
    assert.equal(await settledCount(async () => (await eventRows(biz.businessId, "usage.threshold_reached")).length, 1, 3_000), 1);
  } finally {
    await server.stop();
  }
});
