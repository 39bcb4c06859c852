import { test } from "node:test";
import assert from "node:assert/strict";
import { recordCall, requestBytes } from "@/lib/server/steps/record";
import { queuedCounts, recorderStats } from "@/lib/usage/recorder";
import { testContext } from "../../helpers/request-context";

test("record: a call without a credential (a public route, a refused key) queues no usage or log row", () => {
  const before = { ...recorderStats, ...queuedCounts() };
  const ctx = testContext({ auth: null });
  ctx.response = { status: 401, headers: {}, body: "{}" };
  recordCall(ctx);
  const noResponse = testContext({ auth: null });
  recordCall(noResponse);
  assert.equal(recorderStats.recorded, before.recorded);
  assert.equal(queuedCounts().usage, before.usage);
  assert.equal(queuedCounts().logs, before.logs);
});
test("record: bytes in are the declared length, else the body read", () => {
  assert.equal(requestBytes(testContext({ headers: { "content-length": "42" } })), 42);
  const ctx = testContext();
  ctx.rawBody = "héllo";
  assert.equal(requestBytes(ctx), 6);
});
