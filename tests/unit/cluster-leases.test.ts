// The parts of several nodes that meet in PostgreSQL, on a database of the local server of their own: job leases
// (lib/cluster/job-lease.ts: one holder at a time, taken over once lapsed, waited for by an explicit run) and the
// bus's table (lib/bus/cluster-bus.ts: another node's message delivered, this node's skipped, and a row that commits
// after a later one was read still delivered).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import pg from "pg";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";

let database: { url: string; drop(): Promise<void> };
let lease: typeof import("@/lib/cluster/job-lease");
let bus: typeof import("@/lib/bus/cluster-bus");
let sql: pg.Client;

before(async () => {
  database = await createTestDatabase("postgres");
  process.env.DATABASE_URL = database.url;
  process.env.BUS_POLL_MS = "50";
  lease = await import("@/lib/cluster/job-lease");
  bus = await import("@/lib/bus/cluster-bus");
  sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
});
after(async () => {
  await sql?.end();
  await bus?.closeClusterBus();
  const { db } = await import("@/lib/db/client");
  await db.$disconnect();
  await database?.drop();
});

test("a lease has one holder among racing nodes, is renewed by its holder, and is taken over once it lapses", async () => {
  const holders = ["node-a/1", "node-b/2", "node-c/3"];
  const won = await Promise.all(holders.map((h) => lease.acquireLease("job:finalize-invoices", 1000, h)));
  assert.equal(won.filter(Boolean).length, 1, `exactly one of three wins: ${won}`);
  const winner = holders[won.indexOf(true)];
  const loser = holders.find((h) => h !== winner)!;
  assert.equal(await lease.acquireLease("job:finalize-invoices", 1000, winner), true, "the holder renews");
  assert.equal(await lease.acquireLease("job:finalize-invoices", 1000, loser), false, "another is refused while it is live");
  await new Promise((r) => setTimeout(r, 1100));
  assert.equal(await lease.acquireLease("job:finalize-invoices", 1000, loser), true, "once lapsed, another takes it");
  await lease.releaseLease("job:finalize-invoices", loser);
  assert.equal(await lease.leaseHolderOf("job:finalize-invoices"), null, "given back at once");
});

test("withLease: skipped while another run holds it, or waited for and then run", async () => {
  let release!: () => void;
  const first = lease.withLease("job:retry-payments", () => new Promise<string>((r) => (release = () => r("first"))), { ms: 5000 });
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(await lease.acquireLease("job:retry-payments", 5000, "node-b/2"), false, "another node is refused");
  // Two runs in one process take turns as well (the scheduler's tick and the test clock's run).
  assert.deepEqual(await lease.withLease("job:retry-payments", async () => "second", { ms: 5000 }), { ran: false });
  const waiting = lease.withLease("job:retry-payments", async () => "after the first", { ms: 5000, waitMs: 5000 });
  await new Promise((r) => setTimeout(r, 300));
  release();
  assert.deepEqual(await first, { ran: true, result: "first" });
  assert.deepEqual(await waiting, { ran: true, result: "after the first" });
  // Held by another node: waited for until it is given back.
  assert.equal(await lease.acquireLease("job:retry-payments", 5000, "node-b/2"), true);
  const afterB = lease.withLease("job:retry-payments", async () => "after b", { ms: 5000, waitMs: 5000 });
  await new Promise((r) => setTimeout(r, 300));
  await lease.releaseLease("job:retry-payments", "node-b/2");
  assert.deepEqual(await afterB, { ran: true, result: "after b" });
});

test("the bus's table: another node's messages arrive, this node's do not, and a late commit is not skipped", async () => {
  const heard: string[] = [];
  bus.listenToOtherNodes((topic, message) => heard.push(`${topic}:${message}`));
  await bus.pollClusterBus(); // the first read only notes where the table ends
  bus.recordForOtherNodes("key-invalidated", "key_mine");
  bus.recordForOtherNodes("db-written", "UsageEvent"); // not carried: count-cache's staleness is bounded by itself
  await new Promise((r) => setTimeout(r, 100));
  const rows = await sql.query(`SELECT "topic", "message" FROM "BusMessage" ORDER BY "id"`);
  assert.deepEqual(rows.rows, [{ topic: "key-invalidated", message: "key_mine" }], "this node's message is in the table");
  const insert = (c: pg.Client, message: string) =>
    c.query(`INSERT INTO "BusMessage" ("origin", "topic", "message", "createdAt") VALUES ('other-node', 'billing-changed', $1, now())`, [
      message,
    ]);
  // A row whose id is taken first but commits after a later row was read.
  const slow = new pg.Client({ connectionString: database.url });
  await slow.connect();
  await slow.query("BEGIN");
  await insert(slow, "late");
  await insert(sql, "early");
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(heard, ["billing-changed:early"], "another node's message arrives within a few polls, this node's not");
  await slow.query("COMMIT");
  await slow.end();
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(heard, ["billing-changed:early", "billing-changed:late"], "the row that committed late is delivered too");
  const purged = await bus.purgeBusMessages();
  assert.equal(purged.deleted, 0, "rows younger than ten minutes stay");
});
