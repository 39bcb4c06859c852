// An Idempotency-Key survives a crash of the request that holds it. The server is killed with SIGKILL while a
// POST /v1/products with a key is inside its handler (its write under way, not committed); after a restart, a
// retry with the same key and body answers 409 while the killed attempt's lease runs, then runs again once the
// lease is over and creates the product exactly once (the killed attempt committed nothing); a further retry
// replays it.
//
// Holding a request inside its handler: a database trigger on the product insert that does not finish (SQLite: a
// huge count on the server's own thread; PostgreSQL: pg_sleep), for rows with one name only. The server has the
// test clock and a database of its own (startClockServer), so the lease's end is reached by moving the clock.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import Database from "better-sqlite3";
import pg from "pg";
import { client, expectError } from "../helpers/api";
import { startClockServer, sleep, type ClockServer } from "../helpers/receiver";

const LEASE_MS = 60_000;
const HOLD_NAME = "Held by a trigger";

let cluster: ClockServer;

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Runs statements on the test server's database from this process (not through the server). */
async function sql(url: string, statements: string[], query?: { text: string; args: unknown[] }): Promise<unknown[]> {
  if (url.startsWith("file:")) {
    const conn = new Database(path.resolve(url.slice("file:".length)), { timeout: 5000 });
    try {
      for (const s of statements) conn.exec(s);
      return query ? conn.prepare(query.text).all(...query.args) : [];
    } finally {
      conn.close();
    }
  }
  const conn = new pg.Client({ connectionString: url });
  await conn.connect();
  try {
    for (const s of statements) await conn.query(s);
    let n = 0;
    return query
      ? (
          await conn.query(
            query.text.replace(/\?/g, () => `$${++n}`),
            query.args,
          )
        ).rows
      : [];
  } finally {
    await conn.end();
  }
}

const holdTrigger = (url: string) =>
  url.startsWith("file:")
    ? [
        "CREATE TABLE hold_rows (n INTEGER)",
        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3000) INSERT INTO hold_rows SELECT n FROM c",
        `CREATE TRIGGER hold_product AFTER INSERT ON "Product" WHEN NEW."name" = '${HOLD_NAME}' BEGIN SELECT count(*) FROM hold_rows a, hold_rows b, hold_rows c; END`,
      ]
    : [
        "CREATE FUNCTION hold_product() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(120); RETURN NEW; END $$ LANGUAGE plpgsql",
        `CREATE TRIGGER hold_product AFTER INSERT ON "Product" FOR EACH ROW WHEN (NEW."name" = '${HOLD_NAME}') EXECUTE FUNCTION hold_product()`,
      ];
const dropTrigger = (url: string) =>
  url.startsWith("file:")
    ? ["DROP TRIGGER hold_product", "DROP TABLE hold_rows"]
    : [
        // The killed server's backend sleeps on inside the trigger until PostgreSQL notices its client is gone (in
        // production, TCP keep-alive); here it is ended at once, as the crash would eventually end it.
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND wait_event = 'PgSleep'",
        'DROP TRIGGER hold_product ON "Product"',
        "DROP FUNCTION hold_product()",
      ];

before(async () => {
  cluster = await startClockServer({ IDEMPOTENCY_LEASE_MS: String(LEASE_MS) });
});

after(async () => {
  await cluster?.stop();
});

test("kill -9 while a request holds its Idempotency-Key: after the lease a retry runs it once, then replays", async () => {
  const url = cluster.databaseUrl;
  const api = client(cluster.testKey, cluster.url);
  // Warm the route, so the held request is the only thing the server is doing.
  assert.equal((await api.post("/v1/products", { name: "warm-up", type: "API" })).status, 201);
  await sql(url, holdTrigger(url));

  const key = `crash-${randomBytes(6).toString("hex")}`;
  const body = { name: HOLD_NAME, type: "API", description: "made once" };
  const held = api.post("/v1/products", body, { "Idempotency-Key": key }).then(
    (r) => r.status,
    (e: Error) => e,
  );
  // The key is claimed (a committed row) and the handler is stuck in its insert: the server answers nothing.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const rows = (await sql(url, [], { text: `SELECT "state" FROM "IdempotencyRecord" WHERE "key" = ?`, args: [key] })) as {
      state: string;
    }[];
    if (rows[0]?.state === "processing") break;
    assert.ok(Date.now() < deadline, "the request never claimed its key");
    await sleep(50);
  }
  // Still not answered a second later: the handler is inside the held insert (on SQLite the server's thread is
  // blocked; on PostgreSQL the insert waits in the database).
  const pending = await Promise.race([held.then(() => "answered"), sleep(1000).then(() => "pending")]);
  assert.equal(pending, "pending", "the server was not inside the held insert");
  await kill9(cluster.child);
  assert.ok((await held) instanceof Error, "the held request was cut by the crash");
  await sql(url, dropTrigger(url));

  const next = await cluster.startAnother();
  const api2 = client(cluster.testKey, next.url);
  // The killed attempt committed nothing.
  const before = await api2.get(`/v1/products?name=${encodeURIComponent(HOLD_NAME)}`);
  assert.equal(before.status, 200, before.text);
  assert.equal(before.body.pagination.total, 0, "the killed attempt's product was committed");
  // While the killed attempt's lease runs, the key is still in use.
  const early = await api2.post("/v1/products", body, { "Idempotency-Key": key });
  expectError(early, 409, "IDEMPOTENCY_KEY_IN_USE");
  assert.ok(early.headers.get("retry-after"), "a 409 says when to retry");

  // After the lease, the same key and body run again, once.
  await next.setOffset(LEASE_MS + 1_000);
  const retried = await api2.post("/v1/products", body, { "Idempotency-Key": key });
  assert.equal(retried.status, 201, retried.text);
  assert.equal(retried.headers.get("idempotent-replayed"), null);
  const replay = await api2.post("/v1/products", body, { "Idempotency-Key": key });
  assert.equal(replay.status, 200, replay.text);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  assert.equal(replay.body.data.id, retried.body.data.id);
  // Another body under the key is still refused.
  expectError(await api2.post("/v1/products", { ...body, name: "Other" }, { "Idempotency-Key": key }), 422, "IDEMPOTENCY_KEY_REUSED");
  const after = await api2.get(`/v1/products?name=${encodeURIComponent(HOLD_NAME)}`);
  assert.equal(after.body.pagination.total, 1, "the product was created more than once");
  await kill9(next.child);
});
