import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { parseInput, plainQuery } from "@/lib/server/steps/parse-input";
import { ApiError } from "@/lib/http/errors";
import { testContext, testRoute } from "../../helpers/request-context";

const postRoute = testRoute({ method: "POST", path: "/v1/widgets", params: undefined, body: z.object({ name: z.string() }) });

test("parse input: params and a JSON body validated by the route's schemas", async () => {
  const ctx = testContext({
    route: postRoute,
    method: "POST",
    path: "/v1/widgets",
    params: {},
    headers: { "content-type": "application/json" },
    body: '{"name":"w"}',
  });
  await parseInput(ctx);
  assert.deepEqual(ctx.body, { name: "w" });
  assert.equal(ctx.rawBody, '{"name":"w"}');
});

test("parse input: a bad path parameter is a 400 in the params", async () => {
  const ctx = testContext({ params: { id: "x" } });
  await assert.rejects(parseInput(ctx), (e: unknown) => e instanceof ApiError && e.status === 400);
});

test("parse input: a missing field is named; a non-JSON body is INVALID_JSON", async () => {
  const missing = testContext({
    route: postRoute,
    method: "POST",
    params: {},
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  await assert.rejects(
    parseInput(missing),
    (e: unknown) => e instanceof ApiError && e.code === "MISSING_REQUIRED_FIELD" && e.field === "name",
  );
  const text = testContext({ route: postRoute, method: "POST", params: {}, headers: { "content-type": "text/plain" }, body: "hi" });
  await assert.rejects(parseInput(text), (e: unknown) => e instanceof ApiError && e.code === "INVALID_JSON");
});

test("parse input: the pipeline's own query parameters are not the route's", () => {
  assert.deepEqual(plainQuery(new URLSearchParams("api_key=x&version=v1&color=red")), { color: "red" });
});
