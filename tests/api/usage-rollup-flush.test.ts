// A call's rollup cell is counted when its usage event is flushed, which can be after the rollup timer its own
// request started has already fired (events every USAGE_FLUSH_MS, rollups every ROLLUP_FLUSH_MS). The cell must
// still reach the table without another call coming along: CI once had a product's last call missing from its
// metrics because the data-plane worker that served it got no further request. The recorder runs here, in the
// test's process, on the suite's database, with an event flush slower than the rollup flush so the case is certain.
import { test } from "node:test";
import assert from "node:assert/strict";
import { newId } from "@/lib/ids";
import type { AuthContext } from "@/lib/http/auth-context";
import { db, poll } from "../helpers/db";

test("a rollup cell counted after the rollup timer fired is written without another call", async () => {
  process.env.USAGE_FLUSH_MS = "800";
  process.env.ROLLUP_FLUSH_MS = "200";
  process.env.USAGE_JOURNAL = "off";
  const { recordProductUsage } = await import("@/lib/usage/recorder");
  const projectId = newId("project");
  const auth = {
    principal: { kind: "api_key", id: newId("apiKey") },
    businessId: newId("business"),
    projectId,
    environment: "test",
    scopes: ["*"],
  } as unknown as AuthContext;
  recordProductUsage({
    at: new Date(),
    auth,
    method: "GET",
    endpoint: "/gw/rollup-flush",
    path: "/gw/rollup-flush/a",
    statusCode: 200,
    errorType: null,
    latencyMs: 3,
    computeMs: 1,
    requestBytes: 0,
    responseBytes: 10,
    ip: "127.0.0.1",
    userAgent: null,
  });

  // The event arrives at its flush (~800 ms), long after the rollup timer (200 ms) found nothing to write.
  assert.ok(await poll(async () => (await db.usageEvent.count({ where: { projectId } })) === 1, 10_000, 50), "the usage event is written");
  const rolledUp = await poll(
    async () => (await db.usageRollup.aggregate({ where: { projectId }, _sum: { count: true } }))._sum.count ?? 0,
    5_000,
    50,
  );
  assert.equal(rolledUp, 1, "the call's rollup reaches the table on its own");
});
