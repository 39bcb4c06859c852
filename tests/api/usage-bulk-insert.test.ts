// The recorder writes usage events, request logs and rollups with lib/db/bulk-insert.ts (straight into SQLite, or
// a raw multi-row INSERT on PostgreSQL) instead of Prisma's createMany: what it stores must read back through
// Prisma exactly as createMany's rows do (dates, booleans, JSON, nulls, floats), on whichever database runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { bulkInsert } from "@/lib/db/bulk-insert";
// The recorder's own column lists: the test writes exactly what the recorder writes.
import { LOG_COLUMNS as LOG, ROLLUP_COLUMNS as ROLLUP, USAGE_COLUMNS as USAGE } from "@/lib/usage/recorder";
import { newId } from "@/lib/ids";
import { db } from "../helpers/db";

test("bulk-inserted rollups read back through Prisma with the values given, and range queries on dates find them", async () => {
  const projectId = newId("project");
  const hour = new Date(Date.UTC(2026, 10, 22, 12));
  const rows = Array.from({ length: 3 }, (_, i) => ({
    id: newId("rollup"),
    projectId,
    environment: "test",
    hour: new Date(hour.getTime() + i * 3_600_000),
    endpoint: "/v1/products/{id}",
    method: "GET",
    statusCode: 200 + i,
    errorType: i === 2 ? "not_found_error" : null,
    apiKey: "key_a",
    principal: `user_${i}`,
    count: 10 + i,
    billableCount: i,
    latencySum: 123.45 + i,
    latencyHist: { "5": 3, "1250": 7 + i },
    requestBytes: 100,
    responseBytes: 2000,
    computeMs: 1.5,
    cost: 0.25 * i,
    compacted: i === 1,
    productId: i === 1 ? "prod_x" : null,
  }));
  await bulkInsert("UsageRollup", ROLLUP, rows);
  const back = await db.usageRollup.findMany({ where: { projectId }, orderBy: { hour: "asc" } });
  assert.deepEqual(back, rows);
  // Prisma's own date comparisons must see the stored dates (same text format on SQLite).
  const inRange = await db.usageRollup.count({
    where: { projectId, hour: { gte: new Date(hour.getTime() + 3_600_000), lt: new Date(hour.getTime() + 3 * 3_600_000) } },
  });
  assert.equal(inRange, 2);
});

test("bulk-inserted usage events and logs read back exactly, nulls and unicode included", async () => {
  const projectId = newId("project");
  const at = new Date(Date.UTC(2026, 10, 22, 12, 34, 56, 789));
  const usage = [
    {
      id: newId("usage"),
      timestamp: at,
      businessId: "biz_x",
      projectId,
      environment: "production",
      apiKey: "key_a",
      userId: null,
      method: "GET",
      endpoint: "/v1/products",
      path: "/v1/products?q=caf\u00e9",
      statusCode: 200,
      errorType: null,
      latency: 12.34,
      requestSize: 0,
      responseSize: 512,
      computeTime: 3.21,
      cost: null,
      billable: true,
      ip: "127.0.0.1",
      userAgent: "ua \u2603",
      region: null,
      productId: null,
      subscriptionId: null,
      providerId: null,
      quantity: 1,
      identifier: null,
      paidByCredits: false,
      quantities: null,
      correctionOf: null,
      correctedBy: null,
      correctionReason: null,
    },
    {
      id: newId("usage"),
      timestamp: new Date(at.getTime() + 1),
      businessId: "biz_x",
      projectId,
      environment: "test",
      apiKey: "key_a",
      userId: "user_1",
      method: "POST",
      endpoint: "/v1/products",
      path: "/v1/products",
      statusCode: 400,
      errorType: "validation_error",
      latency: 1,
      requestSize: 10,
      responseSize: 20,
      computeTime: null,
      cost: 0.5,
      billable: false,
      ip: null,
      userAgent: null,
      region: "eu",
      productId: "prod_x",
      subscriptionId: "sub_x",
      providerId: "biz_y",
      quantity: 250,
      identifier: "batch \u2603",
      paidByCredits: true,
      quantities: { "output tokens": 350, "caf\u00e9 rows": 2 },
      correctionOf: null,
      correctedBy: null,
      correctionReason: null,
    },
  ];
  await bulkInsert("UsageEvent", USAGE, usage);
  assert.deepEqual(await db.usageEvent.findMany({ where: { projectId }, orderBy: { timestamp: "asc" } }), usage);
  // A journal line written before paidByCredits existed (replayed after an upgrade) inserts, as false.
  const { paidByCredits: _, ...older } = { ...usage[0], id: newId("usage") };
  await bulkInsert("UsageEvent", USAGE, [older]);
  assert.equal((await db.usageEvent.findFirst({ where: { id: older.id } }))?.paidByCredits, false);

  const logs = [
    {
      id: newId("request"),
      timestamp: at,
      businessId: "biz_x",
      projectId,
      environment: "test",
      apiKey: "key_a",
      method: "POST",
      endpoint: "/v1/products",
      path: "/v1/products",
      statusCode: 201,
      latency: 4.5,
      ip: null,
      userAgent: null,
      requestHeaders: { authorization: "[REDACTED]", "content-type": "application/json", quote: 'a "b" \\ c' },
      requestBody: '{"name":"x"}',
      responseHeaders: {},
      responseBody: null,
      productId: null,
    },
    {
      id: newId("request"),
      timestamp: new Date(at.getTime() + 1),
      businessId: "biz_x",
      projectId,
      environment: "test",
      apiKey: "key_a",
      method: "GET",
      endpoint: "/gw/tides",
      path: "/gw/tides/oslo",
      statusCode: 200,
      latency: 7.25,
      ip: "127.0.0.1",
      userAgent: null,
      requestHeaders: {},
      requestBody: null,
      responseHeaders: { "server-timing": "gateway;dur=1.20, upstream;dur=6.05" },
      responseBody: null,
      productId: "prod_x",
    },
  ];
  await bulkInsert("RequestLog", LOG, logs);
  assert.deepEqual(await db.requestLog.findMany({ where: { projectId }, orderBy: { timestamp: "asc" } }), logs);
});
