import { test } from "node:test";
import assert from "node:assert/strict";
import { identifyRequest } from "@/lib/server/steps/identify";
import { testContext } from "../../helpers/request-context";

test("identify gives each request its own id and the answer's base headers", () => {
  const a = testContext();
  const b = testContext();
  identifyRequest(a);
  identifyRequest(b);
  assert.match(a.requestId, /^req_/);
  assert.notEqual(a.requestId, b.requestId);
  assert.equal(a.headers["X-Request-Id"], a.requestId);
  assert.equal(a.headers["Cache-Control"], "no-store");
  assert.equal(a.headers["Content-Type"], "application/json");
});

test("identify reads the caller's address from the server's own header, not X-Forwarded-For", () => {
  const ctx = testContext({ headers: { "x-platform-client-ip": "127.0.0.9", "x-forwarded-for": "203.0.113.7" } });
  identifyRequest(ctx);
  assert.equal(ctx.ip, "127.0.0.9");
});
