import { test } from "node:test";
import assert from "node:assert/strict";
import { authenticate } from "@/lib/server/steps/authenticate";
import { ApiError } from "@/lib/http/errors";
import { testContext, testRoute } from "../../helpers/request-context";

test("authenticate: a public route needs no credential", async () => {
  const ctx = testContext({ route: testRoute({ auth: "none" }) });
  await authenticate(ctx);
  assert.equal(ctx.auth, null);
});

test("authenticate: no credential is a 401 INVALID_API_KEY with WWW-Authenticate", async () => {
  const ctx = testContext();
  await assert.rejects(
    async () => authenticate(ctx),
    (e: unknown) => e instanceof ApiError && e.status === 401 && e.code === "INVALID_API_KEY" && !!e.headers?.["WWW-Authenticate"],
  );
  assert.equal(ctx.auth, null);
});

test("authenticate: a malformed key is refused before any lookup", async () => {
  const ctx = testContext({ headers: { authorization: "Bearer not-a-key" } });
  await assert.rejects(
    async () => authenticate(ctx),
    (e: unknown) => e instanceof ApiError && e.status === 401,
  );
});
