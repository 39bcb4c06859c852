// The worker's raw SQL (lib/webhooks/delivery-store.ts) on a fresh database of its own of the suite's kind, SQLite
// or PostgreSQL (the suite's server would deliver rows put in its database, and these claims would take the
// suite's deliveries): claims lease each due delivery to one claim only, in due order, and give it back when the
// lease ends; batched records write only rows whose lease token still matches, and what they write reads back
// through Prisma exactly (dates in the very format Prisma writes, so Prisma's own date filters keep finding them).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { newId } from "@/lib/ids";
import type { AttemptRecord } from "@/lib/webhooks/delivery-store";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";

type Client = typeof import("@/lib/db/client");
type Store = typeof import("@/lib/webhooks/delivery-store");
let db: Client["db"];
let databaseProvider: Client["databaseProvider"];
let anyDue: Store["anyDue"];
let claimBatch: Store["claimBatch"];
let recordAttempts: Store["recordAttempts"];
let readEndpoints: Store["readEndpoints"];
let database: { url: string; drop(): Promise<void> };

before(async () => {
  database = await createTestDatabase((process.env.DATABASE_URL ?? "file:").startsWith("file:") ? "sqlite" : "postgres");
  // The client reads DATABASE_URL when first imported: imported only now, it is this database's.
  process.env.DATABASE_URL = database.url;
  ({ db, databaseProvider } = await import("@/lib/db/client"));
  ({ anyDue, claimBatch, recordAttempts, readEndpoints } = await import("@/lib/webhooks/delivery-store"));
});

after(async () => {
  await db?.$disconnect();
  await database?.drop();
});

const T = Date.now();
const at = (ms: number) => new Date(T + ms);
const LEASE = 60_000;
const webhookId = `wh_store_${randomUUID()}`;

async function insert(n: number, status = "pending", dueMs = (i: number) => i * 1000) {
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId("delivery"),
    webhookId,
    eventId: `evt_${randomUUID()}`,
    eventType: "product.created",
    businessId: "biz_store",
    environment: "test",
    url: "http://127.0.0.1:9/",
    status,
    attempts: status === "retrying" ? 2 : 0,
    nextRetry: at(dueMs(i)),
    requestBody: `{"n":${i}}`,
    attemptLog: status === "retrying" ? [{ attempt: 1 }, { attempt: 2 }] : undefined,
    updatedAt: at(0),
  }));
  await db.webhookDelivery.createMany({ data: rows });
  return rows.map((r) => r.id);
}

const token = () => `test:${randomUUID()}`;

test("a claim leases the earliest due deliveries of both statuses, once, until its lease ends", async () => {
  const pending = await insert(3, "pending", (i) => i * 1000); // due at T, T+1s, T+2s
  const retrying = await insert(2, "retrying", (i) => 500 + i * 1000); // due at T+0.5s, T+1.5s
  const notYet = await insert(1, "pending", () => 60 * 60_000); // due in an hour

  const first = await claimBatch(at(10_000), 3, token(), at(10_000 + LEASE));
  assert.deepEqual(first.map((d) => d.id).sort(), [pending[0], retrying[0], pending[1]].sort(), "the three earliest due");
  const r0 = first.find((d) => d.id === retrying[0])!;
  assert.equal(r0.attempts, 2);
  assert.deepEqual(r0.attemptLog, [{ attempt: 1 }, { attempt: 2 }]);
  assert.equal(first.find((d) => d.id === pending[0])!.attemptLog, null);
  assert.equal(first.find((d) => d.id === pending[0])!.requestBody, '{"n":0}');
  assert.equal(first.find((d) => d.id === pending[0])!.eventType, "product.created");
  assert.equal(new Set(first.map((d) => d.lockedBy)).size, 1);

  // The rest, then nothing: leased rows are not handed out again while the lease holds.
  const second = await claimBatch(at(11_000), 10, token(), at(11_000 + LEASE));
  assert.deepEqual(second.map((d) => d.id).sort(), [pending[2], retrying[1]].sort());
  assert.deepEqual(await claimBatch(at(12_000), 10, token(), at(12_000 + LEASE)), []);
  assert.ok(!notYet.some((id) => [...first, ...second].some((d) => d.id === id)));

  // After the first lease has ended its rows are due again (a crashed worker's deliveries); the second's are not.
  const again = await claimBatch(at(10_000 + LEASE + 1), 10, token(), at(10_000 + 2 * LEASE));
  assert.deepEqual(again.map((d) => d.id).sort(), first.map((d) => d.id).sort());
  const row = await db.webhookDelivery.findUnique({ where: { id: pending[0] } });
  assert.equal(row!.lockedBy, again[0].lockedBy);
  assert.equal(row!.lockedUntil!.getTime(), T + 10_000 + 2 * LEASE);
  await db.webhookDelivery.deleteMany({ where: { id: { in: [...pending, ...retrying, ...notYet] } } });
});

test("the worker's look before a claim: due pending or retrying rows, not later ones or finished ones", async () => {
  await db.webhookDelivery.deleteMany({}); // this file's own database
  assert.equal(await anyDue(at(0)), false, "an empty table");
  const later = await insert(1, "pending", () => 5_000);
  assert.equal(await anyDue(at(4_999)), false, "due in a second");
  assert.equal(await anyDue(at(5_000)), true, "due now");
  const retrying = await insert(1, "retrying", () => 3_000);
  assert.equal(await anyDue(at(3_000)), true, "a retry due now");
  assert.equal(await anyDue(at(2_999)), false);
  await db.webhookDelivery.updateMany({ where: { id: { in: [...later, ...retrying] } }, data: { status: "failed" } });
  assert.equal(await anyDue(at(60_000)), false, "failed rows are never due");
  // What anyDue answers agrees with a claim.
  const due = await insert(2, "pending", (i) => 7_000 + i);
  assert.equal(await anyDue(at(7_000)), true);
  assert.equal((await claimBatch(at(7_000), 10, token(), at(7_000 + LEASE))).length, 1);
  await db.webhookDelivery.deleteMany({ where: { id: { in: [...later, ...retrying, ...due] } } });
});

test("claims running at the same time never hand out one delivery twice", async () => {
  const ids = await insert(40);
  const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => claimBatch(at(100_000 + i), 10, token(), at(100_000 + LEASE))));
  const got = claims.flat().map((d) => d.id);
  assert.equal(new Set(got).size, got.length, "a delivery was claimed twice");
  assert.deepEqual([...got].sort(), [...ids].sort(), "six claims of ten take all forty");
  await db.webhookDelivery.deleteMany({ where: { id: { in: ids } } });
});

test("records are written in one batch, only under the lease that sent them, and read back through Prisma", async () => {
  const ids = await insert(3, "retrying");
  const claimed = await claimBatch(at(200_000), 10, token(), at(200_000 + LEASE));
  assert.equal(claimed.length, 3);
  const [a, b, c] = ids.map((id) => claimed.find((d) => d.id === id)!);
  const lastAttempt = new Date(T + 200_123);
  const rec = (d: typeof a, over: Partial<AttemptRecord>): AttemptRecord => ({
    id: d.id,
    lockedBy: d.lockedBy,
    status: "retrying",
    attempts: d.attempts + 1,
    lastAttempt,
    responseStatus: 500,
    responseHeaders: { "content-type": "text/plain", "x-odd": "quote \" and 'single' and \\" },
    responseBody: "Oops — ünïcode ✓",
    responseDuration: 12,
    lastError: null,
    attemptLog: [...(d.attemptLog ?? []), { attempt: d.attempts + 1, status: 500 }],
    requestHeaders: { "X-Delivery-ID": d.id },
    nextRetry: new Date(T + 200_123 + 1_500_000),
    updatedAt: new Date(T + 200_124),
    ...over,
  });
  const written = await recordAttempts([
    rec(a, {}),
    rec(b, { status: "success", nextRetry: null, responseStatus: 200, responseBody: "", lastError: null }),
    rec(c, { lockedBy: "someone-else:lease", status: "failed" }), // its lease was lost: nothing written
  ]);
  assert.deepEqual([...written].sort(), [a.id, b.id].sort());

  const rows = new Map((await db.webhookDelivery.findMany({ where: { id: { in: ids } } })).map((r) => [r.id, r]));
  const ra = rows.get(a.id)!;
  assert.equal(ra.status, "retrying");
  assert.equal(ra.attempts, 3);
  assert.equal(ra.lastAttempt!.getTime(), lastAttempt.getTime());
  assert.equal(ra.nextRetry!.getTime(), T + 200_123 + 1_500_000);
  assert.equal(ra.updatedAt.getTime(), T + 200_124);
  assert.equal(ra.lockedBy, null);
  assert.equal(ra.lockedUntil, null);
  assert.equal(ra.responseStatus, 500);
  assert.equal(ra.responseDuration, 12);
  assert.equal(ra.responseBody, "Oops — ünïcode ✓");
  assert.deepEqual(ra.responseHeaders, { "content-type": "text/plain", "x-odd": "quote \" and 'single' and \\" });
  assert.deepEqual(ra.requestHeaders, { "X-Delivery-ID": a.id });
  assert.deepEqual(ra.attemptLog, [{ attempt: 1 }, { attempt: 2 }, { attempt: 3, status: 500 }]);
  const rb = rows.get(b.id)!;
  assert.equal(rb.status, "success");
  assert.equal(rb.nextRetry, null);
  assert.equal(rb.lockedBy, null);
  const rc = rows.get(c.id)!;
  assert.equal(rc.status, "retrying", "a record under a lost lease changed the row");
  assert.equal(rc.attempts, 2);
  assert.equal(rc.lockedBy, c.lockedBy);

  // Prisma's own date filters find the rows by the dates written in raw SQL, to the millisecond.
  const byDate = await db.webhookDelivery.findMany({
    where: { id: { in: ids }, nextRetry: { gte: new Date(T + 200_123 + 1_500_000), lte: new Date(T + 200_123 + 1_500_000) } },
  });
  assert.deepEqual(
    byDate.map((r) => r.id),
    [a.id],
  );
  const byAttempt = await db.webhookDelivery.count({ where: { id: { in: ids }, lastAttempt: { equals: lastAttempt } } });
  assert.equal(byAttempt, 2);

  if (databaseProvider() === "sqlite") {
    // The stored text is what Prisma writes itself (its own write of updatedAt on insert is the model).
    const fresh = await insert(1);
    const texts = await db.$queryRawUnsafe<{ id: string; lastAttempt: string | null; nextRetry: string | null; updatedAt: string }[]>(
      `SELECT "id", CAST("lastAttempt" AS TEXT) AS "lastAttempt", CAST("nextRetry" AS TEXT) AS "nextRetry", CAST("updatedAt" AS TEXT) AS "updatedAt" FROM "WebhookDelivery" WHERE "id" IN (?, ?)`,
      a.id,
      fresh[0],
    );
    const prismaWritten = texts.find((t) => t.id === fresh[0])!.updatedAt;
    const rawWritten = texts.find((t) => t.id === a.id)!;
    const shape = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
    assert.match(prismaWritten, shape);
    assert.equal(rawWritten.lastAttempt, lastAttempt.toISOString().replace("Z", "+00:00"));
    assert.equal(rawWritten.nextRetry, new Date(T + 200_123 + 1_500_000).toISOString().replace("Z", "+00:00"));
    assert.match(rawWritten.updatedAt, shape);
  }
});

test("endpoints read in raw SQL carry what Prisma reads: booleans, dates, JSON headers, nulls", async () => {
  const base = {
    businessId: "biz_store",
    projectId: "proj_store",
    environment: "test",
    events: ["product.*"],
    createdAt: at(0),
    updatedAt: at(0),
  };
  const full = {
    ...base,
    id: newId("webhook"),
    url: "https://example.com/a",
    secret: "whsec_new",
    previousSecret: "whsec_old",
    previousSecretExpiresAt: new Date(T + 86_400_123),
    isActive: false,
    headers: { "X-Team": "payments", "X-Quote": 'a"b' },
    failingSince: new Date(T - 3_600_007),
  };
  const bare = { ...base, id: newId("webhook"), url: "https://example.com/b", secret: "whsec_only" };
  await db.webhook.createMany({ data: [full, bare] });
  const got = await readEndpoints([full.id, bare.id, "wh_missing"]);
  assert.equal(got.size, 2);
  for (const id of [full.id, bare.id]) {
    const viaPrisma = await db.webhook.findUniqueOrThrow({ where: { id } });
    const raw = got.get(id)!;
    assert.deepEqual(raw, {
      id,
      url: viaPrisma.url,
      secret: viaPrisma.secret,
      previousSecret: viaPrisma.previousSecret,
      previousSecretExpiresAt: viaPrisma.previousSecretExpiresAt,
      isActive: viaPrisma.isActive,
      headers: viaPrisma.headers,
      failingSince: viaPrisma.failingSince,
    });
  }
  assert.equal(got.get(full.id)!.isActive, false);
  assert.equal(got.get(bare.id)!.isActive, true);
  assert.equal(got.get(full.id)!.previousSecretExpiresAt!.getTime(), T + 86_400_123);
  assert.deepEqual(got.get(full.id)!.headers, { "X-Team": "payments", "X-Quote": 'a"b' });
  assert.equal(got.get(bare.id)!.headers, null);
  assert.equal(got.get(bare.id)!.failingSince, null);
});

test("an event and its deliveries, written in raw SQL by emitEvent, read back through Prisma with the same dates and JSON", async () => {
  const { emitEvent } = await import("@/lib/events/emit-event");
  const businessId = `biz_${randomUUID()}`;
  const base = { businessId, projectId: "proj_store", environment: "live", secret: "whsec_x", createdAt: at(0), updatedAt: at(0) };
  const subscribed = { ...base, id: newId("webhook"), url: "https://example.com/p", events: ["product.*"] };
  const other = { ...base, id: newId("webhook"), url: "https://example.com/o", events: ["payment.failed"] };
  const paused = { ...base, id: newId("webhook"), url: "https://example.com/x", events: ["*"], isActive: false };
  await db.webhook.createMany({ data: [subscribed, other, paused] });
  const data = { object: "product", id: "prod_1", name: 'Quote " and ünïcode', tags: ["a", "b"], nested: { n: 1.5, none: null } };
  const row = await emitEvent({ businessId, environment: "live", type: "product.updated", data, previousAttributes: { name: "Old" } });

  const stored = await db.event.findUniqueOrThrow({ where: { id: row.id } });
  assert.deepEqual(stored, row);
  assert.deepEqual(stored.data, data);
  assert.deepEqual(stored.previousAttributes, { name: "Old" });
  assert.equal(await db.event.count({ where: { id: row.id, createdAt: { equals: row.createdAt } } }), 1);
  const deliveries = await db.webhookDelivery.findMany({ where: { eventId: row.id } });
  assert.deepEqual(
    deliveries.map((d) => d.webhookId),
    [subscribed.id],
    "only the active endpoint subscribed to product.*",
  );
  const [d] = deliveries;
  assert.equal(d.status, "pending");
  assert.equal(d.attempts, 0);
  assert.equal(d.nextRetry!.getTime(), row.createdAt.getTime());
  assert.equal(d.createdAt.getTime(), row.createdAt.getTime());
  assert.equal(d.url, subscribed.url);
  assert.deepEqual(JSON.parse(d.requestBody), {
    id: row.id,
    type: "product.updated",
    createdAt: row.createdAt.toISOString(),
    timestamp: row.createdAt.toISOString(),
    apiVersion: "v1",
    data,
    previousAttributes: { name: "Old" },
  });
  // Due now by Prisma's own date filter, as the worker's claim will see it.
  assert.equal(await db.webhookDelivery.count({ where: { eventId: row.id, status: "pending", nextRetry: { lte: row.createdAt } } }), 1);

  if (databaseProvider() === "sqlite") {
    const [texts] = await db.$queryRawUnsafe<{ e: string; n: string; c: string }[]>(
      `SELECT CAST(e."createdAt" AS TEXT) AS "e", CAST(d."nextRetry" AS TEXT) AS "n", CAST(d."createdAt" AS TEXT) AS "c" FROM "Event" e JOIN "WebhookDelivery" d ON d."eventId" = e."id" WHERE e."id" = ?`,
      row.id,
    );
    const iso = row.createdAt.toISOString().replace("Z", "+00:00");
    assert.deepEqual(texts, { e: iso, n: iso, c: iso });
  }
});
