import { test } from "node:test";
import assert from "node:assert/strict";
import { checkQuota } from "@/lib/server/steps/quota";
import { testContext } from "../../helpers/request-context";

test("quota: a public call has no project to count against", async () => {
  const ctx = testContext({ auth: null });
  await checkQuota(ctx);
  assert.equal(ctx.response, null);
  assert.equal(ctx.error, null);
});
