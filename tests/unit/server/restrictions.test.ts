import { test } from "node:test";
import assert from "node:assert/strict";
import { checkRestrictions } from "@/lib/server/steps/restrictions";
import { ApiError } from "@/lib/http/errors";
import { testAuth, testContext } from "../../helpers/request-context";

test("restrictions: an address outside the key's allow-list is a 403 IP_NOT_ALLOWED", () => {
  const ctx = testContext({ auth: testAuth({ restrictions: { ipWhitelist: ["10.0.0.0/8"] } }) });
  ctx.ip = "192.0.2.1";
  assert.throws(
    () => checkRestrictions(ctx),
    (e: unknown) => e instanceof ApiError && e.code === "IP_NOT_ALLOWED",
  );
});

test("restrictions: an address inside it passes, and no credential means nothing to check", () => {
  const ctx = testContext({ auth: testAuth({ restrictions: { ipWhitelist: ["10.0.0.0/8"] } }) });
  ctx.ip = "10.1.2.3";
  checkRestrictions(ctx);
  checkRestrictions(testContext({ auth: null }));
});
