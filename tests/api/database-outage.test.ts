// Issue 41, item 2: the database unavailable for writes for a while, under calls through /gw and /v1 over two
// server processes.
//  - PostgreSQL: a cluster of this test's own (tests/helpers/postgres-server.ts) is stopped (`pg_ctl stop -m fast`,
//    as pg_ctlcluster stop does) and started again; the machine's PostgreSQL keeps serving the rest of the suite.
//  - SQLite: another connection holds the file's write lock (BEGIN IMMEDIATE), so every write waits out its busy
//    timeout; reads go on (WAL). On a database file of this test's own: the suite's other files run beside it.
// Meanwhile a write answers 503 SERVICE_UNAVAILABLE in the envelope with Retry-After, within seconds (never a hang,
// never a 500); gateway calls on warm caches are answered, and their usage events are all written once the database
// is back; webhook deliveries in flight when it went are sent to every endpoint once it is back; afterwards writes
// succeed again.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider } from "@/lib/db/client";
import { client } from "../helpers/api";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { deleteRedisPrefix, startSecondServer, uniquePrefix, type ServerWithLogs } from "../helpers/usage-db";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { startOwnPostgres, type OwnPostgres } from "../helpers/postgres-server";
import { sleep, startReceiver } from "../helpers/receiver";

const OUTAGE_MS = Number(process.env.DB_OUTAGE_TEST_SECONDS ?? 12) * 1000;
const onPostgres = databaseProvider() === "postgresql";

let upstream: JsonUpstream;
let ownPostgres: OwnPostgres | null = null;
const servers: ServerWithLogs[] = [];
let lock: Database.Database | null = null;
/** The test's own database (a file, or one on its own cluster): its businesses made with the CLI, its rows read here. */
let own: { url: string; drop(): Promise<void> };
const redisPrefix = process.env.REDIS_URL ? uniquePrefix("db-outage") : null;

before(async () => {
  upstream = await startJsonUpstream();
  const env: Record<string, string> = {
    ALLOW_PRIVATE_URLS: "true",
    DATA_PLANE_WORKERS: "1",
    USAGE_FLUSH_MS: "200",
    // A delivery whose attempt could not be recorded is sent again when its lease ends: 3 s here, not 60.
    WEBHOOK_LEASE_MS: "3000",
    // "Gateway calls answered" is promised on warm caches: entries kept for the whole test however long its setup
    // takes on a busy machine (at the 30 s default an entry could expire mid-outage, and a cold cache answers 503:
    // docs/operations.md).
    KEY_CACHE_TTL_MS: "600000",
    GATEWAY_CACHE_TTL_MS: "600000",
    BILLING_CACHE_TTL_MS: "600000",
  };
  // With REDIS_URL (CI's PostgreSQL run), a deployment of their own on the shared Redis: under the suite's default
  // prefix these servers heard every other server's invalidations (a product announced with "*", a plan change,
  // a test clock moved), and a cache emptied by another file mid-outage answered the next call 503.
  if (redisPrefix) env.REDIS_PREFIX = redisPrefix;
  if (onPostgres) {
    ownPostgres = await startOwnPostgres();
    own = await createTestDatabase("postgresql", ownPostgres.adminUrl);
  } else own = await createTestDatabase("sqlite");
  env.DATABASE_URL = own.url;
  // Two processes on the one database, as a deployment of two machines (or two data-plane workers) would be.
  servers.push(await startSecondServer(env), await startSecondServer(env));
});
after(async () => {
  lock?.close();
  await Promise.all(servers.map((s) => s.stop()));
  await own?.drop();
  await ownPostgres?.destroy();
  upstream?.close();
  if (redisPrefix) await deleteRedisPrefix(process.env.REDIS_URL!, redisPrefix).catch(() => {});
});

/** A business on the test's database, made with the CLI as an operator would. */
async function business(): Promise<{ testKey: string }> {
  const out = execFileSync(
    "node_modules/.bin/tsx",
    ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", `Outage ${Date.now()}`, "--plan", "enterprise", "--json"],
    { env: { ...process.env, DATABASE_URL: own.url }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] },
  );
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/** Rows of the test's database (one `?` parameter), read apart from the servers. */
async function rowsOf<T>(sql: string, param: string): Promise<T[]> {
  if (onPostgres) {
    const c = new pg.Client({ connectionString: own.url });
    await c.connect();
    try {
      return (await c.query(sql.replace("?", "$1"), [param])).rows as T[];
    } finally {
      await c.end();
    }
  }
  const reader = new Database(path.resolve(own.url.slice("file:".length)), { readonly: true, timeout: 1000 });
  try {
    return reader.prepare(sql).all(param) as T[];
  } finally {
    reader.close();
  }
}

/** The statuses of the webhook deliveries whose payload names `id`. */
async function deliveriesOf(id: string): Promise<string[]> {
  return (await rowsOf<{ status: string }>(`SELECT "status" FROM "WebhookDelivery" WHERE "requestBody" LIKE ?`, `%${id}%`)).map(
    (d) => d.status,
  );
}

/** Usage events of a product answered 200. */
async function eventsOf(productId: string): Promise<number> {
  const [row] = await rowsOf<{ n: number | string }>(
    `SELECT count(*) AS n FROM "UsageEvent" WHERE "productId" = ? AND "statusCode" = 200`,
    productId,
  );
  return Number(row.n);
}

async function takeDatabaseAway(): Promise<void> {
  if (ownPostgres) return ownPostgres.stop();
  // file:./data/… is relative to the working directory, which the server shares with this process.
  lock = new Database(path.resolve(own.url.slice("file:".length)), { timeout: 1000 });
  lock.exec("BEGIN IMMEDIATE");
}

async function giveDatabaseBack(): Promise<void> {
  if (ownPostgres) return ownPostgres.start();
  lock!.exec("ROLLBACK");
  lock!.close();
  lock = null;
}

test(
  "the database unavailable for writes: 503 with Retry-After, gateway calls answered, no usage event lost",
  { timeout: 180_000 },
  async (t) => {
    const provider = await business();
    const [a] = servers;
    const api = client(provider.testKey, a.url);
    const product = await publishApiProduct(api, { upstreamUrl: upstream.url });
    const consumer = await business();
    await subscribe(client(consumer.testKey, a.url), product.price.id);
    let firstRefusal = "";
    const gw = async (s: ServerWithLogs) => {
      const res = await fetch(`${s.url}/gw/${product.slug}/x`, { headers: { authorization: `Bearer ${consumer.testKey}` } });
      const body = await res.text();
      if (res.status !== 200 && !firstRefusal) firstRefusal = `${res.status} ${body}`;
      return res.status;
    };
    // Two webhook endpoints that take 1.5 s to answer, so deliveries are in flight when the database goes.
    const receivers = [
      await startReceiver({ mode: { kind: "slow", delayMs: 1500 } }),
      await startReceiver({ mode: { kind: "slow", delayMs: 1500 } }),
    ];
    // Closed however the test ends: a receiver left listening after a failed assertion kept the file's process,
    // and with it the whole run, from ever ending.
    t.after(() => Promise.all(receivers.map((r) => r.close())));
    for (const r of receivers)
      assert.equal((await api.post("/v1/webhooks", { url: r.url("/hook"), events: ["product.created"] })).status, 201);
    // Warm: the key, the subscription and the product are in both servers' caches.
    for (let i = 0; i < 3; i++) for (const s of servers) assert.equal(await gw(s), 200);
    const eventsWritten = () => eventsOf(product.product.id);
    for (let i = 0; i < 100 && (await eventsWritten()) < 6; i++) await sleep(100);
    const before = await eventsWritten();
    assert.equal(before, 6, "the warm-up calls' events are written before the outage");

    const announced = await api.post("/v1/products", { name: `Announced ${Date.now()}`, type: "API" });
    assert.equal(announced.status, 201, announced.text);
    const announcedId = announced.body.data.id as string;
    await sleep(300); // claimed and being sent
    await takeDatabaseAway();
    const started = Date.now();
    const writes: { status: number; code: string; retryAfter: string | null; ms: number }[] = [];
    const gateway: number[] = [];
    let readyDuring: number[] = [];
    for (let i = 0; Date.now() - started < OUTAGE_MS; i++) {
      const t = Date.now();
      const [write, g] = await Promise.all([
        client(provider.testKey, servers[i % 2].url).post("/v1/products", { name: `During ${t}`, type: "API" }),
        gw(servers[(i + 1) % 2]),
      ]);
      writes.push({
        status: write.status,
        code: write.body?.error?.code,
        retryAfter: write.headers.get("retry-after"),
        ms: Date.now() - t,
      });
      gateway.push(g, await gw(servers[i % 2]));
      if (!readyDuring.length) readyDuring = await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/readyz`)).status));
    }
    await giveDatabaseBack();

    assert.ok(writes.length >= 1, `${writes.length} writes tried`);
    const logs = () => servers.map((s) => s.stderr()).join("\n");
    for (const w of writes) {
      assert.equal(w.status, 503, `${JSON.stringify(writes)}\n${logs().slice(-3000)}`);
      assert.equal(w.code, "SERVICE_UNAVAILABLE");
      assert.ok(Number(w.retryAfter) >= 1, "Retry-After");
      assert.ok(w.ms < 15_000, `a write waited ${w.ms} ms`);
    }
    // PostgreSQL: every gateway call on warm caches is answered. SQLite: better-sqlite3 waits out a lock
    // synchronously, so while writes (a request's, the worker's, the recorder's) wait, the process's event loop stands
    // still and an upstream's answer can miss the product's timeout (502): never a 500 (docs/operations.md).
    if (onPostgres)
      assert.ok(
        gateway.every((x) => x === 200),
        `gateway answers during the outage: ${gateway.join(",")}\nthe first refused: ${firstRefusal}\n${logs().slice(-3000)}`,
      );
    else
      assert.ok(
        gateway.every((x) => x === 200 || x === 502 || x === 504),
        `gateway answers during the outage: ${gateway.join(",")}`,
      );
    assert.ok(
      gateway.some((x) => x === 200),
      "no gateway call was answered during the outage",
    );
    if (onPostgres) assert.deepEqual(readyDuring, [503, 503], "/readyz is not ready while the database is unreachable");
    assert.doesNotMatch(logs(), /unhandled error/, "no write became a 500");

    // Back: writes succeed again (within seconds), readiness returns, every answered gateway call has its event.
    const back = Date.now();
    for (;;) {
      const res = await api.post("/v1/products", { name: `After ${back}`, type: "API" });
      if (res.status === 201) break;
      assert.equal(res.status, 503, res.text);
      assert.ok(Date.now() - back < 20_000, "writes still refused 20 s after the database returned");
      await sleep(250);
    }
    for (const s of servers) {
      assert.equal((await fetch(`${s.url}/readyz`)).status, 200);
      assert.match(s.stderr(), /"event":"platform\.degraded","component":"database"/);
    }
    // Recovered is logged by a process's next write (its queued usage events, at the latest).
    for (const s of servers) {
      for (let i = 0; i < 100 && !/"event":"platform\.recovered","component":"database"/.test(s.stderr()); i++) await sleep(100);
      assert.match(s.stderr(), /"event":"platform\.recovered","component":"database"/);
    }
    // Webhooks: the deliveries whose attempts could not be recorded during the outage are sent again once their
    // lease ends and recorded, to every endpoint: none lost, none skipped.
    let statuses: string[] = [];
    for (let i = 0; i < 150; i++, await sleep(200)) {
      statuses = await deliveriesOf(announcedId);
      if (statuses.length === 2 && statuses.every((x) => x === "success")) break;
    }
    assert.deepEqual(statuses, ["success", "success"], "the announced product's deliveries, one an endpoint");
    for (const r of receivers) {
      assert.ok((await r.waitFor(1, (q) => q.body.includes(announcedId), 5_000)).length >= 1, "an endpoint was skipped");
      await r.close();
    }
    const expected = before + gateway.filter((x) => x === 200).length;
    const deadline = Date.now() + 30_000;
    let rows = 0;
    while ((rows = await eventsWritten()) < expected && Date.now() < deadline) await sleep(250);
    assert.equal(rows, expected, "every gateway call answered during the outage has its usage event");
  },
);
