import { test } from "node:test";
import assert from "node:assert/strict";
import { rateCost, requestBytes } from "@/lib/server/steps/rate-cost";
import { testAuth, testContext } from "../../helpers/request-context";

test("rate cost: bytes in are the declared length, else the body read", () => {
  assert.equal(requestBytes(testContext({ headers: { "content-length": "42" } })), 42);
  const ctx = testContext();
  ctx.rawBody = "héllo";
  assert.equal(requestBytes(ctx), 6);
});

test("rate cost: failed and anonymous calls are not rated", async () => {
  const failed = testContext({ auth: testAuth() });
  failed.response = { status: 404, headers: {}, body: "{}" };
  await rateCost(failed);
  assert.equal(failed.response.headers["X-Request-Cost"], undefined);
  assert.equal(failed.cost, null);
  const anonymous = testContext({ auth: null });
  anonymous.response = { status: 200, headers: {}, body: "{}" };
  await rateCost(anonymous);
  assert.equal(anonymous.cost, null);
});
