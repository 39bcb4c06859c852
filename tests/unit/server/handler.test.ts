import { test } from "node:test";
import assert from "node:assert/strict";
import { runHandler } from "@/lib/server/steps/handler";
import { testAuth, testContext, testRoute } from "../../helpers/request-context";

test("handler: runs the route with what earlier steps parsed and keeps its result and time", async () => {
  let seen: unknown;
  const route = testRoute({
    handler: async (c) => {
      seen = c;
      return { id: "wid_9" };
    },
  });
  const ctx = testContext({ route, auth: testAuth(), headers: { "user-agent": "ua/1" } });
  ctx.params = { id: "wid_9" };
  ctx.ip = "127.0.0.1";
  await runHandler(ctx);
  assert.deepEqual(ctx.result, { id: "wid_9" });
  assert.ok(ctx.computeMs >= 0);
  const c = seen as { params: unknown; baseUrl: string; client: { ip: string; userAgent: string }; requestId: string };
  assert.deepEqual(c.params, { id: "wid_9" });
  assert.equal(c.baseUrl, "http://api.test");
  assert.deepEqual(c.client, { ip: "127.0.0.1", userAgent: "ua/1" });
});

test("handler: skipped when the answer is already there (an idempotent replay)", async () => {
  let ran = false;
  const ctx = testContext({
    route: testRoute({
      handler: async () => {
        ran = true;
        return {};
      },
    }),
  });
  ctx.response = { status: 200, headers: {}, body: "{}" };
  await runHandler(ctx);
  assert.equal(ran, false);
});
