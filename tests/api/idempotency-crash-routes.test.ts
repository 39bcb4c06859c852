// Issue 41, item 3, for every POST that commits more than a plain create: credits bought and granted, meter events
// reported, backfilled and amended, a key and a gateway secret rotated, a key's value revealed, a webhook test event, a subscription
// canceled. Each request runs on a server that pauses after the handler's work, before the final answer is stored
// (FAULT_PAUSE_BEFORE_IDEMPOTENT_STORE_MS), and is killed there with kill -9. A server started afterwards answers
// each retry with the same Idempotency-Key by replaying the answer its transaction stored with the commit: never
// 409 IDEMPOTENCY_RESULT_LOST, never the work done twice (a second rotation, a second event, a second charge).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { db } from "@/lib/db/client";
import { openGatewaySecret } from "@/lib/gateway/gateway-secret";
import { rotateKeyRow } from "@/lib/keys/rotate-api-key";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { kill9, startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { sleep } from "../helpers/receiver";

const servers: ServerWithLogs[] = [];
after(() => Promise.all(servers.map((s) => s.stop())));

const LEASE_MS = 1500;
const PAUSED = /fault: the answer to POST \S+ waits/g;

interface CrashCase {
  what: string;
  key: string;
  path: string;
  body: unknown;
  /** What the replayed answer must show, checked against the database. */
  check: (data: any) => Promise<void>;
}

test(
  "kill -9 after each kind of write committed, before its answer was stored: every retry replays its answer",
  { timeout: 180_000 },
  async () => {
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const a = await seedBusiness();
    const b = await seedBusiness();
    const c = await seedBusiness();
    const prepaid = await publishApiProduct(a.test, { upstreamUrl: "http://127.0.0.1:9", price: { amount: 0.002, billing: "prepaid" } });
    const postpaid = await publishApiProduct(a.test, { upstreamUrl: "http://127.0.0.1:9" });
    const creditSub = await subscribe(b.test, prepaid.price.id);
    const meterSub = await subscribe(b.test, postpaid.price.id);
    const cancelSub = await subscribe(c.test, postpaid.price.id);
    const reported = await a.test.post("/v1/meter-events", {
      product: postpaid.product.id,
      subscription: meterSub.id,
      quantity: 10,
      identifier: `amend-${tag}`,
    });
    assert.equal(reported.status, 201, reported.text);
    const key = await a.test.post("/v1/api-keys", { name: `Rotated ${tag}`, scopes: ["products:read"] });
    assert.equal(key.status, 201, key.text);
    // A key rotated by the job (as `npm run jobs` would, here in the test process): its value waits to be revealed once.
    const auto = await a.test.post("/v1/api-keys", { name: `Automatic ${tag}`, scopes: ["products:read"] });
    assert.equal(auto.status, 201, auto.text);
    const pending = await rotateKeyRow(await db.apiKey.findUniqueOrThrow({ where: { id: auto.body.data.id } }), {
      createdBy: null,
      automatic: true,
    });
    assert.ok(pending, "rotated by the job");
    const hook = await a.test.post("/v1/webhooks", { url: `http://127.0.0.1:9/${tag}`, events: ["product.created"] });
    assert.equal(hook.status, 201, hook.text);
    const sealedSecret = (await db.product.findUniqueOrThrow({ where: { id: prepaid.product.id } })).gatewaySecret;

    const meterEvents = () => db.usageEvent.findMany({ where: { subscriptionId: meterSub.id, method: "METER", correctionOf: null } });
    const cases: (CrashCase & { as: string })[] = [
      {
        what: "credits bought",
        as: b.testKey,
        key: `buy-${tag}`,
        path: `/v1/subscriptions/${creditSub.id}/credits`,
        body: { amount: 5 },
        check: async (data) => {
          const entries = await db.creditEntry.findMany({ where: { subscriptionId: creditSub.id, type: "purchase" } });
          assert.equal(entries.length, 1, "charged and credited once");
          assert.ok(
            data.grants.some((g: { id: string }) => g.id === entries[0].id),
            "the answer names the purchase",
          );
        },
      },
      {
        what: "credits granted",
        as: a.testKey,
        key: `grant-${tag}`,
        path: `/v1/customers/${b.businessId}/credits`,
        body: { subscription: creditSub.id, amount: 2, note: `grant ${tag}` },
        check: async (data) => {
          const entries = await db.creditEntry.findMany({ where: { subscriptionId: creditSub.id, type: "grant" } });
          assert.equal(entries.length, 1, "granted once");
          const granted = data.grants.find((g: { id: string }) => g.id === entries[0].id);
          assert.equal(granted?.note, `grant ${tag}`);
          assert.equal(granted?.remaining, "2");
        },
      },
      {
        what: "a meter event without identifier",
        as: a.testKey,
        key: `meter-${tag}`,
        path: "/v1/meter-events",
        body: { product: postpaid.product.id, subscription: meterSub.id, quantity: 3 },
        check: async (data) => {
          const rows = (await meterEvents()).filter((e) => e.quantity === 3);
          assert.equal(rows.length, 1, "recorded once");
          assert.equal(data.id, rows[0].id);
        },
      },
      {
        what: "a backfill",
        as: a.testKey,
        key: `backfill-${tag}`,
        path: "/v1/meter-events/backfill",
        body: { events: [7, 7, 8].map((quantity) => ({ product: postpaid.product.id, subscription: meterSub.id, quantity })) },
        check: async (data) => {
          const rows = (await meterEvents()).filter((e) => e.quantity === 7 || e.quantity === 8);
          assert.equal(rows.length, 3, "each event recorded once");
          assert.equal(data.created, 3);
          assert.deepEqual(data.data.map((r: { event: { id: string } }) => r.event.id).sort(), rows.map((r) => r.id).sort());
        },
      },
      {
        what: "a meter event amended",
        as: a.testKey,
        key: `amend-${tag}`,
        path: `/v1/meter-events/${reported.body.data.id}/amend`,
        body: { quantity: 4, reason: "crash probe" },
        check: async (data) => {
          const corrections = await db.usageEvent.findMany({ where: { correctionOf: reported.body.data.id } });
          assert.equal(corrections.length, 1, "corrected once");
          assert.equal(data.id, corrections[0].id);
          assert.equal(data.quantity, -6);
        },
      },
      {
        what: "an API key rotated",
        as: a.testKey,
        key: `rotate-${tag}`,
        path: `/v1/api-keys/${key.body.data.id}/rotate`,
        body: {},
        check: async (data) => {
          const rotated = await db.apiKey.findMany({ where: { rotatedFromId: key.body.data.id } });
          assert.equal(rotated.length, 1, "rotated once");
          assert.equal(data.id, rotated[0].id);
          const works = await client(data.key).get("/v1/products?limit=1");
          assert.equal(works.status, 200, "the replayed key is the one that was made");
        },
      },
      {
        what: "a key's value revealed once",
        as: a.testKey,
        key: `reveal-${tag}`,
        path: `/v1/api-keys/${pending.row.id}/reveal`,
        body: {},
        check: async (data) => {
          assert.equal(data.id, pending.row.id);
          assert.equal((await db.apiKey.findUniqueOrThrow({ where: { id: pending.row.id } })).pendingSecret, null, "shown, and erased");
          const works = await client(data.key).get("/v1/products?limit=1");
          assert.equal(works.status, 200, "the replayed value is the key's");
        },
      },
      {
        what: "a gateway secret rotated",
        as: a.testKey,
        key: `secret-${tag}`,
        path: `/v1/products/${prepaid.product.id}/gateway-secret/rotate`,
        body: {},
        check: async (data) => {
          const row = await db.product.findUniqueOrThrow({ where: { id: prepaid.product.id } });
          assert.equal(row.previousGatewaySecret, sealedSecret, "rotated once: the secret before still signs beside the new one");
          assert.equal(openGatewaySecret(row.id, row.gatewaySecret!), data.gatewaySecret);
        },
      },
      {
        what: "a webhook test event",
        as: a.testKey,
        key: `ping-${tag}`,
        path: `/v1/webhooks/${hook.body.data.id}/test`,
        body: {},
        check: async (data) => {
          const deliveries = await db.webhookDelivery.findMany({ where: { webhookId: hook.body.data.id } });
          assert.equal(deliveries.length, 1, "sent once");
          assert.equal(data.id, deliveries[0].id);
        },
      },
      {
        what: "a subscription canceled at once",
        as: c.testKey,
        key: `cancel-${tag}`,
        path: `/v1/subscriptions/${cancelSub.id}/cancel`,
        body: { atPeriodEnd: false },
        check: async (data) => {
          assert.equal(data.status, "canceled");
          assert.equal(await db.invoice.count({ where: { subscriptionId: cancelSub.id } }), 1, "invoiced once");
        },
      },
    ];

    const env = { IDEMPOTENCY_LEASE_MS: String(LEASE_MS), DATA_PLANE_WORKERS: "1", ALLOW_PRIVATE_URLS: "true" };
    const first = await startSecondServer({ ...env, FAULT_PAUSE_BEFORE_IDEMPOTENT_STORE_MS: "120000" });
    servers.push(first);
    const send = (base: string, k: CrashCase & { as: string }) =>
      fetch(`${base}${k.path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${k.as}`, "content-type": "application/json", "idempotency-key": k.key },
        body: JSON.stringify(k.body),
      });
    // Sent, and never answered: the server is killed while each waits to store its answer.
    const cut = cases.map((k) =>
      send(first.url, k).then(
        async (r) => `answered ${r.status}: ${await r.text()}`,
        () => "cut",
      ),
    );
    for (let i = 0; i < 300 && (first.stderr().match(PAUSED)?.length ?? 0) < cases.length; i++) await sleep(100);
    assert.equal(first.stderr().match(PAUSED)?.length, cases.length, `every request did its work:\n${first.stderr().slice(-3000)}`);
    await kill9(first);
    assert.deepEqual(
      await Promise.all(cut),
      cases.map(() => "cut"),
      "no first attempt got its answer",
    );

    const second = await startSecondServer(env);
    servers.push(second);
    await sleep(LEASE_MS + 200);
    for (const k of cases) {
      const retry = await send(second.url, k);
      const text = await retry.text();
      assert.equal(retry.status, 200, `${k.what}: ${text}`); // a replay answers 200, as every replay does
      assert.equal(retry.headers.get("idempotent-replayed"), "true", k.what);
      await k.check(JSON.parse(text).data);
    }
    await second.stop();
  },
);
