import { test } from "node:test";
import assert from "node:assert/strict";
import { rateLimit, releaseAdmission } from "@/lib/server/steps/rate-limit";
import { ApiError } from "@/lib/http/errors";
import { testAuth, testContext } from "../../helpers/request-context";

test("rate limit: an admitted call carries the limit headers and its slot is released afterwards", async () => {
  const ctx = testContext({ auth: testAuth({ principal: { kind: "api_key", id: `key_rl_${Date.now()}` } }) });
  await rateLimit(ctx);
  assert.ok(ctx.admission);
  assert.ok(
    Object.keys(ctx.headers).some((h) => /ratelimit/i.test(h)),
    "rate-limit headers on the answer",
  );
  releaseAdmission(ctx);
  assert.equal(ctx.admission, null);
});

test("rate limit: past the key's own limit the call is a 429 with Retry-After", async () => {
  const auth = testAuth({ principal: { kind: "api_key", id: `key_rl2_${Date.now()}` }, plan: "free", rateLimit: 2 });
  let refused: unknown;
  for (let i = 0; i < 50 && !refused; i++) {
    const ctx = testContext({ auth });
    try {
      await rateLimit(ctx);
      releaseAdmission(ctx);
    } catch (e) {
      refused = e;
    }
  }
  assert.ok(refused instanceof ApiError && refused.status === 429 && refused.headers?.["Retry-After"]);
});

test("rate limit: nothing to count without a credential", async () => {
  const ctx = testContext({ auth: null });
  await rateLimit(ctx);
  assert.equal(ctx.admission, null);
});
