// The usage journal's line encoder (lib/usage/journal-line.ts): compiled from the recorder's columns, it must write
// exactly what JSON.stringify writes for the same columns, whatever the values hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonLineEncoder } from "@/lib/usage/journal-line";
import { USAGE_COLUMNS } from "@/lib/usage/recorder";

const line = jsonLineEncoder(USAGE_COLUMNS);
/** JSON.stringify of the row's columns, in the columns' order. */
const expected = (row: Record<string, unknown>) => JSON.stringify(Object.fromEntries(Object.keys(USAGE_COLUMNS).map((c) => [c, row[c]])));

const usageRow = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: "use_01KB6XYZABCDEFGHJKMNPQRSTV",
  timestamp: new Date("2026-11-30T01:02:03.004Z"),
  businessId: "biz_1",
  projectId: "prj_1",
  environment: "live",
  apiKey: "key_1",
  userId: null,
  method: "GET",
  endpoint: "/gw/forecast/{path}",
  path: "/gw/forecast/v1/today?city=Z%C3%BCrich",
  statusCode: 200,
  errorType: null,
  latency: 1.23,
  requestSize: 0,
  responseSize: 68,
  computeTime: 0.41,
  cost: 0.001,
  billable: true,
  ip: "127.0.0.1",
  userAgent: "curl/8.5.0",
  region: "local",
  productId: "prod_1",
  subscriptionId: "sub_1",
  providerId: "biz_2",
  quantity: 1,
  identifier: null,
  paidByCredits: false,
  quantities: undefined,
  ...over,
});

test("a gateway call's usage row is written byte for byte as JSON.stringify writes its columns", () => {
  const row = usageRow();
  assert.equal(line(row), expected(row));
  assert.deepEqual(JSON.parse(line(row)), JSON.parse(JSON.stringify(row)));
});

test("strings that need escaping, numbers that are not finite, odd types, nulls and undefined are written as JSON.stringify writes them", () => {
  const cases: Record<string, unknown>[] = [
    { path: '/a"b\\c', userAgent: "tab\there\nnewline\u0001", errorType: "emoji 😀 and é" },
    { userAgent: "lone \ud800 surrogate", path: "\udfff" },
    { latency: Number.NaN, computeTime: Number.POSITIVE_INFINITY, cost: -0, requestSize: 1e21, responseSize: 5e-7 },
    { statusCode: "200", billable: 1, paidByCredits: null, quantity: null },
    { quantities: { input_tokens: 12, output_tokens: 345, label: 'a"b' }, identifier: "idem-1" },
    { timestamp: new Date(Number.NaN) },
    { timestamp: new Date(-1) },
    { timestamp: new Date(Date.UTC(10000, 0, 1)) },
    { timestamp: "2026-11-30T01:02:03.004Z" },
    { userId: undefined, apiKey: undefined, cost: undefined },
  ];
  for (const over of cases) {
    const row = usageRow(over);
    assert.equal(line(row), expected(row), JSON.stringify(over));
  }
});

test("dates across minutes and days are written as toJSON writes them", () => {
  for (let ms = Date.UTC(2026, 11, 31, 23, 58, 59, 990); ms < Date.UTC(2027, 0, 1, 0, 0, 1); ms += 13) {
    const row = usageRow({ timestamp: new Date(ms) });
    assert.equal(line(row), expected(row));
  }
});

test("a row without its id is JSON.stringify's own line; a column name that is not an identifier is refused", () => {
  const row = usageRow({ id: undefined, extra: "kept" });
  assert.equal(line(row), JSON.stringify(row));
  assert.throws(() => jsonLineEncoder({ "id); process.exit(": "text" }), /bad column name/);
});
