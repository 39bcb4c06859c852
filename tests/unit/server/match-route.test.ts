import { test } from "node:test";
import assert from "node:assert/strict";
import { RouteMatcher } from "@/lib/server/match-route";
import { ApiError } from "@/lib/http/errors";
import { testRoute } from "../../helpers/request-context";

const matcher = new RouteMatcher([
  testRoute({ method: "GET", path: "/v1/invoices/{id}" }),
  testRoute({ method: "GET", path: "/v1/invoices/upcoming" }),
  testRoute({ method: "GET", path: "/v1/invoices/{id}/lines/{lineId}/usage" }),
  testRoute({ method: "POST", path: "/v1/invoices" }),
]);

test("match: a literal segment beats a parameter; parameters are decoded", () => {
  const upcoming = matcher.match("GET", "/v1/invoices/upcoming");
  assert.equal(upcoming.kind === "route" && upcoming.route.path, "/v1/invoices/upcoming");
  const one = matcher.match("GET", "/v1/invoices/inv%20a");
  assert.ok(one.kind === "route");
  assert.deepEqual(one.params, { id: "inv a" });
  const deep = matcher.match("GET", "/v1/invoices/inv_1/lines/li_2/usage");
  assert.ok(deep.kind === "route");
  assert.deepEqual(deep.params, { id: "inv_1", lineId: "li_2" });
});

test("match: a known path with another method is a 405 listing the allowed ones; HEAD is GET", () => {
  const m = matcher.match("DELETE", "/v1/invoices");
  assert.equal(m.kind, "method");
  assert.deepEqual(m.kind === "method" && m.allow, ["POST"]);
  assert.equal(matcher.match("HEAD", "/v1/invoices/upcoming").kind, "route");
});

test("match: unknown paths match nothing", () => {
  assert.equal(matcher.match("GET", "/v1/nothing").kind, "none");
  assert.equal(matcher.match("GET", "/v1/invoices/a/b").kind, "none");
});

test("match: a malformed percent-encoding is a 400 naming the path, not a crash", () => {
  assert.throws(
    () => matcher.match("GET", "/v1/invoices/%ff"),
    (e: unknown) => e instanceof ApiError && e.status === 400 && e.field === "path",
  );
  assert.throws(
    () => matcher.match("GET", "/v1/invoices/%E0%A4%A"),
    (e: unknown) => e instanceof ApiError && e.status === 400,
  );
});
