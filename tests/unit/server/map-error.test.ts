import { test } from "node:test";
import assert from "node:assert/strict";
import { mapError } from "@/lib/server/steps/map-error";
import { ApiError, invalidParameter } from "@/lib/http/errors";
import { testContext } from "../../helpers/request-context";

test("map error: an ApiError becomes the spec's envelope with its status and headers, plus the answer's own", async () => {
  const ctx = testContext();
  ctx.headers["X-RateLimit-Limit"] = "10";
  await mapError(
    ctx,
    new ApiError({
      status: 429,
      type: "rate_limit_error",
      code: "RATE_LIMIT_EXCEEDED",
      message: "slow down",
      headers: { "Retry-After": "3" },
    }),
  );
  assert.equal(ctx.response?.status, 429);
  assert.equal(ctx.response?.headers["Retry-After"], "3");
  assert.equal(ctx.response?.headers["X-RateLimit-Limit"], "10");
  const body = JSON.parse(ctx.response!.body!);
  assert.equal(body.error.code, "RATE_LIMIT_EXCEEDED");
  assert.equal(body.error.documentation, "http://api.test/docs/errors#RATE_LIMIT_EXCEEDED");
  assert.equal(body.meta.requestId, "req_test");
  assert.equal(ctx.error?.code, "RATE_LIMIT_EXCEEDED");
});

test("map error: anything else is a 500 that names only the request id", async () => {
  const ctx = testContext();
  const original = console.error;
  console.error = () => {};
  try {
    await mapError(ctx, new Error("secret internals"));
  } finally {
    console.error = original;
  }
  assert.equal(ctx.response?.status, 500);
  assert.doesNotMatch(ctx.response!.body!, /secret internals/);
  assert.match(ctx.response!.body!, /req_test/);
});

test("map error: a deprecation warning stays in meta on errors too", async () => {
  const ctx = testContext();
  ctx.version = { version: "v1", headers: {}, contentType: "application/json", warning: "v1 is deprecated", record: {} as never };
  await mapError(ctx, invalidParameter("limit", "bad"));
  assert.equal(JSON.parse(ctx.response!.body!).meta.warning, "v1 is deprecated");
});
