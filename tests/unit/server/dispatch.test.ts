import { test } from "node:test";
import assert from "node:assert/strict";
import { dispatchApi, API_PATH } from "@/lib/server/dispatch";

const request = (method: string, path: string) => ({
  method,
  url: new URL(path, "http://api.test"),
  headers: new Headers(),
  baseUrl: "http://api.test",
  readText: async () => "",
});
const body = (b: string | null) => JSON.parse(b ?? "{}");

test("dispatch: every path under a version prefix is the API's", () => {
  for (const p of ["/v1", "/v1/products", "/v9/products", "/v1x", "/v2?x=1"]) assert.ok(API_PATH.test(p), p);
  for (const p of ["/portal", "/docs/v1", "/vx", "/", "/signin"]) assert.ok(!API_PATH.test(p), p);
});

test("dispatch: an unknown version is a JSON 404 that says so; an unknown path a ROUTE_NOT_FOUND", async () => {
  const v9 = await dispatchApi(request("GET", "/v9/products"));
  assert.equal(v9.status, 404);
  assert.equal(body(v9.body).error.code, "ROUTE_NOT_FOUND");
  assert.match(body(v9.body).error.message, /version v9 does not exist/);
  const v1x = await dispatchApi(request("GET", "/v1x"));
  assert.equal(v1x.status, 404);
  assert.equal(body(v1x.body).error.code, "ROUTE_NOT_FOUND");
  assert.equal(v1x.headers["Content-Type"], "application/json");
});

test("dispatch: a bad percent-encoding in a path id is a 400 in the envelope", async () => {
  const res = await dispatchApi(request("GET", "/v1/products/%ff"));
  assert.equal(res.status, 400);
  assert.equal(body(res.body).error.code, "INVALID_PARAMETER");
  assert.equal(body(res.body).error.field, "path");
});

test("dispatch: a wrong method is a 405 with Allow; OPTIONS answers the allowed methods", async () => {
  const res = await dispatchApi(request("PUT", "/v1/products"));
  assert.equal(res.status, 405);
  assert.match(res.headers.Allow, /GET/);
  assert.match(res.headers.Allow, /POST/);
  const options = await dispatchApi(request("OPTIONS", "/v1/products"));
  assert.equal(options.status, 204);
  assert.match(options.headers.Allow, /OPTIONS/);
});
