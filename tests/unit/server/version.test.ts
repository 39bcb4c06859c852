import { test } from "node:test";
import assert from "node:assert/strict";
import { resolveRequestVersion } from "@/lib/server/steps/version";
import { ApiError } from "@/lib/http/errors";
import { testContext } from "../../helpers/request-context";

test("version: the path's version, and its headers on the answer", () => {
  const ctx = testContext();
  resolveRequestVersion(ctx);
  assert.equal(ctx.version?.version, "v1");
  assert.equal(ctx.headers["Content-Type"], "application/json");
});

test("version: a header asking for another version than the path is a 400 naming the header", () => {
  const ctx = testContext({ headers: { "x-api-version": "v2" } });
  assert.throws(
    () => resolveRequestVersion(ctx),
    (e: unknown) => e instanceof ApiError && e.status === 400 && e.field === "X-API-Version",
  );
});

test("version: a vendor media type answers in the same media type", () => {
  const ctx = testContext({ headers: { accept: "application/vnd.platform.v1+json" } });
  resolveRequestVersion(ctx);
  assert.match(ctx.headers["Content-Type"], /vnd\.platform\.v1\+json/);
});
