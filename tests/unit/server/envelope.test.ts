import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { writeEnvelope } from "@/lib/server/steps/envelope";
import { testContext, testRoute } from "../../helpers/request-context";

test("envelope: a single resource in data + meta with the route's status", () => {
  const ctx = testContext({ route: testRoute({ response: { kind: "single", status: 201, schema: z.object({}) } }) });
  ctx.result = { id: "wid_1" };
  writeEnvelope(ctx);
  assert.equal(ctx.response?.status, 201);
  const body = JSON.parse(ctx.response!.body!);
  assert.deepEqual(body.data, { id: "wid_1" });
  assert.equal(body.meta.requestId, "req_test");
});

test("envelope: a collection carries its pagination", () => {
  const ctx = testContext({ route: testRoute({ response: { kind: "collection", schema: z.object({}) } }) });
  ctx.result = { data: [{ id: 1 }], pagination: { limit: 20, hasMore: false, total: 1 } };
  writeEnvelope(ctx);
  const body = JSON.parse(ctx.response!.body!);
  assert.equal(body.data.length, 1);
  assert.equal(body.pagination.total, 1);
});

test("envelope: 204 has no body and no Content-Type; text keeps its own type", () => {
  const empty = testContext({ route: testRoute({ response: { kind: "empty" } }) });
  empty.headers["Content-Type"] = "application/json";
  writeEnvelope(empty);
  assert.equal(empty.response?.status, 204);
  assert.equal(empty.response?.body, null);
  assert.equal(empty.response?.headers["Content-Type"], undefined);
  const csv = testContext({ route: testRoute({ response: { kind: "text", contentType: "text/csv", description: "csv" } }) });
  csv.result = "a,b\n";
  writeEnvelope(csv);
  assert.equal(csv.response?.headers["Content-Type"], "text/csv");
  assert.equal(csv.response?.body, "a,b\n");
});
