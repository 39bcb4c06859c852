// Issue 41, item 3: a kill -9 between the commit of an idempotent request and the store of its answer. The server
// pauses there (FAULT_PAUSE_BEFORE_IDEMPOTENT_STORE_MS, for this test only) and is killed in the pause; a server
// started afterwards on the same database answers the retry with the same key by replaying the original answer
// (stored, sealed, in the handler's own transaction), never with 409 IDEMPOTENCY_RESULT_LOST, and nothing is done twice.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/db/client";
import { seedBusiness } from "../helpers/api";
import { kill9, startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { sleep } from "../helpers/receiver";

const servers: ServerWithLogs[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

const LEASE_MS = 1500;

for (const [what, path, body, find] of [
  [
    "a product",
    "/v1/products",
    (tag: string) => ({ name: `Crash ${tag}`, type: "API" }),
    (tag: string) => db.product.findMany({ where: { name: `Crash ${tag}` } }),
  ],
  [
    "a webhook endpoint",
    "/v1/webhooks",
    (tag: string) => ({ url: `http://127.0.0.1:9/${tag}`, events: ["product.created"] }),
    (tag: string) => db.webhook.findMany({ where: { url: `http://127.0.0.1:9/${tag}` } }),
  ],
] as const) {
  test(
    `kill -9 after ${what} committed, before its answer was stored: the retry replays the original answer`,
    { timeout: 120_000 },
    async () => {
      const biz = await seedBusiness();
      const tag = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      const env = { IDEMPOTENCY_LEASE_MS: String(LEASE_MS), DATA_PLANE_WORKERS: "1", ALLOW_PRIVATE_URLS: "true" };
      const first = await startSecondServer({ ...env, FAULT_PAUSE_BEFORE_IDEMPOTENT_STORE_MS: "60000" });
      servers.push(first);
      const headers = { authorization: `Bearer ${biz.testKey}`, "content-type": "application/json", "idempotency-key": `crash-${tag}` };
      const payload = JSON.stringify(body(tag));
      // Sent, and never answered: the server is killed while it waits to store the answer.
      const cut = fetch(`${first.url}${path}`, { method: "POST", headers, body: payload }).then(
        (r) => r.status,
        () => "cut",
      );
      let rows: { id: string }[] = [];
      for (let i = 0; i < 100 && rows.length === 0; i++) {
        await sleep(100);
        rows = await find(tag);
      }
      assert.equal(rows.length, 1, "the write committed");
      await kill9(first);
      assert.equal(await cut, "cut", "the first attempt got no answer");

      const second = await startSecondServer(env);
      servers.push(second);
      await sleep(LEASE_MS + 200);
      const retry = await fetch(`${second.url}${path}`, { method: "POST", headers, body: payload });
      const text = await retry.text();
      assert.equal(retry.status, 200, text); // a replay answers 200, as every replay does (tests/api/idempotency.test.ts)
      assert.equal(retry.headers.get("idempotent-replayed"), "true");
      assert.equal(JSON.parse(text).data.id, rows[0].id, "the original answer, naming what was created");
      assert.equal((await find(tag)).length, 1, "not carried out twice");
      await second.stop();
    },
  );
}
