import { test } from "node:test";
import assert from "node:assert/strict";
import { claimIdempotencyKey, storeIdempotentResponse } from "@/lib/server/steps/idempotency";
import { ApiError } from "@/lib/http/errors";
import { testAuth, testContext, testRoute } from "../../helpers/request-context";

const post = testRoute({ method: "POST", path: "/v1/widgets" });

test("idempotency: a GET, or a POST without the header, claims nothing", async () => {
  const get = testContext({ auth: testAuth(), headers: { "idempotency-key": "k1" } });
  await claimIdempotencyKey(get);
  assert.equal(get.idempotencyClaim, null);
  const bare = testContext({ route: post, auth: testAuth() });
  await claimIdempotencyKey(bare);
  assert.equal(bare.idempotencyClaim, null);
  await storeIdempotentResponse(bare); // nothing claimed: nothing to store
});

test("idempotency: a malformed key is a 400 naming the header, before any write", async () => {
  const ctx = testContext({ route: post, auth: testAuth(), headers: { "idempotency-key": "bad key\u0001" } });
  await assert.rejects(
    claimIdempotencyKey(ctx),
    (e: unknown) => e instanceof ApiError && e.status === 400 && e.field === "Idempotency-Key",
  );
});
