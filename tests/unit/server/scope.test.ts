import { test } from "node:test";
import assert from "node:assert/strict";
import { checkScope, subjectOf } from "@/lib/server/steps/scope";
import { ApiError } from "@/lib/http/errors";
import { testAuth, testContext, testRoute } from "../../helpers/request-context";

test("scope: a key without the route's scope is a 403 naming the scope", () => {
  const ctx = testContext({ route: testRoute({ scope: "products:write" }), auth: testAuth({ scopes: ["products:read"] }) });
  assert.throws(
    () => checkScope(ctx),
    (e: unknown) =>
      e instanceof ApiError &&
      e.code === "INSUFFICIENT_SCOPE" &&
      (e.extra as { requiredScope?: string })?.requiredScope === "products:write",
  );
});

test("scope: a granted scope passes", () => {
  checkScope(testContext({ auth: testAuth({ scopes: ["products:read"] }) }));
});

test("scope: an OAuth caller is recorded as its client", () => {
  const subject = subjectOf(testAuth({ oauth: { clientId: "oc_1", grantId: "grant_1", userId: "user_1" } }));
  assert.equal(subject.actorType, "oauth_client");
  assert.equal(subject.actorId, "oc_1");
});
