// Issue 61: several nodes behind a load balancer on shared PostgreSQL and Redis (docs/deploy.md).
//
// On PostgreSQL (the CI's second API run): three nodes, each `npm start`'s script with a data folder of its own, on a
// PostgreSQL of the test's own (a new, empty database: the nodes start together and migrate it once) and a Redis of its
// own behind Sentinel, behind haproxy with the shipped deploy/haproxy.cfg (Debian's haproxy, installed when missing).
// What the issue names, each a case below, in order on the same three nodes:
//  - a node whose KEY_HASH_SECRET differs from the live nodes' refuses in one line;
//  - a key revoked and a subscription cancelled on one node are refused at once there and within the bound on the
//    others, also while Redis refuses every PUBLISH (pub/sub loses the message; the BusMessage table carries it);
//  - a rate limit and prepaid credits are exact over the three nodes;
//  - kill -9 of one node mid-load, then started again on its data folder: its journal's usage lands, nothing lost,
//    nothing twice;
//  - the Redis master killed under load: the nodes follow the new master, nothing answers 500;
//  - the three nodes run the jobs at one test clock together: one invoice and one charge per subscription, and each
//    event reaches the endpoint once.
// On SQLite (the first API run): a node with a data folder of its own beside the suite's server refuses in one line.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { client, type ApiClient } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { TEST_ADMIN_TOKEN, createEndpoint, sleep, startReceiver, testClockHeaders, type Receiver } from "../helpers/receiver";
import {
  killNode,
  redisCommand,
  startHaproxy,
  startNode,
  startRefused,
  startSentinelRedis,
  type Balancer,
  type PlatformNode,
  type SentinelRedis,
} from "../helpers/cluster";
// @ts-expect-error: plain ESM script without types
import { freePort } from "../../scripts/lib/server.mjs";
// @ts-expect-error: plain ESM script without types
import { startOwnPostgres } from "../../scripts/lib/own-postgres.mjs";

/** A call's usage event is named after its request (lib/usage/recorder.ts's usageIdOf). */
const usageIdOf = (requestId: string) => `use_${requestId.slice(requestId.indexOf("_") + 1)}`;
const onPostgres = (process.env.DATABASE_URL ?? "").startsWith("postgres");
const exec = promisify(execFile);

// The bound the docs state for a change made on one node to be honoured on the others (docs/deploy.md): at once
// through pub/sub; within BUS_POLL_MS (500 ms) and a query when pub/sub lost the message. The assertion allows the
// loaded CI host 1 s more; what was measured is printed.
const HONOURED_WITHIN_MS = 1000;
const HONOURED_WITHIN_MS_LOST = 1500;
const CI_MARGIN_MS = 1000;

if (!onPostgres) {
  test("SQLite is one machine's: a node with a data folder of its own beside the running server refuses in one line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "platform-node-"));
    try {
      const r = await startRefused({
        DATABASE_URL: process.env.DATABASE_URL!,
        KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
        DATA_DIR: dir,
        NODE_ID: "second-node",
        PORT: String(await freePort()),
      });
      assert.equal(r.code, 1, r.stderr);
      const last = r.stderr.trim().split("\n").at(-1)!;
      assert.match(last, /^SQLite is one machine's: node \S+ \(host \S+, data folder \S+\) already serves this database\. /, r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

if (onPostgres) {
  const SECRET = "cluster-test-key-hash-secret";
  type Cluster = { adminUrl: string; stop(): Promise<void>; start(): Promise<void> };
  let postgres: Cluster & { destroy(): Promise<void>; startReplica(): Promise<Cluster> };
  let replica: Cluster;
  let replicaUrl = "";
  let databaseUrl = "";
  let sql: pg.Client;
  let redis: SentinelRedis;
  let upstream: JsonUpstream;
  let receiver: Receiver;
  let balancer: Balancer;
  let dirs: string[] = [];
  const nodes: PlatformNode[] = [];
  let nodeEnv: Record<string, string> = {};
  let key = "";
  let viaLb: ApiClient;

  const on = (n: PlatformNode) => client(key, n.url);

  before(async () => {
    upstream = await startJsonUpstream();
    receiver = await startReceiver();
    redis = await startSentinelRedis();
    postgres = await startOwnPostgres();
    // An empty database: the three nodes below migrate it, one at a time.
    const admin = new pg.Client({ connectionString: postgres.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "cluster"`);
    await admin.end();
    const u = new URL(postgres.adminUrl);
    u.pathname = "/cluster";
    databaseUrl = u.toString();
    // A streaming replica of it, for the portal's and analytics' reads.
    replica = await postgres.startReplica();
    const r = new URL(replica.adminUrl);
    r.pathname = "/cluster";
    replicaUrl = r.toString();
    nodeEnv = {
      DATABASE_URL: databaseUrl,
      DATABASE_REPLICA_URL: replicaUrl,
      REDIS_URL: "",
      REDIS_SENTINELS: redis.sentinels,
      REDIS_SENTINEL_NAME: redis.name,
      REDIS_PREFIX: "cluster-test:",
      KEY_HASH_SECRET: SECRET,
      NEXTAUTH_SECRET: "cluster-test-nextauth-secret",
      ALLOW_PRIVATE_URLS: "true",
      PLATFORM_TEST_CLOCK: "true",
      PLATFORM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      WEBHOOK_POLL_MS: "200",
      USAGE_FLUSH_MS: "100",
      ROLLUP_FLUSH_MS: "300",
      DATA_PLANE_WORKERS: "1",
      LIMITER_HEARTBEAT_MS: "1000",
      JOB_LEASE_MS: "3000",
      // haproxy takes a node out after two failed checks 500 ms apart: the grace covers that with a margin.
      DRAIN_GRACE_MS: "2000",
    };
    dirs = [1, 2, 3].map((i) => mkdtempSync(path.join(tmpdir(), `platform-node${i}-`)));
    // Node 2 writes its usage every minute only: whatever it answered before a kill -9 is then in its journal alone.
    const perNode: Record<string, string>[] = [{}, { USAGE_FLUSH_MS: "60000" }, {}];
    nodes.push(...(await Promise.all([1, 2, 3].map((i) => startNode(`node${i}`, dirs[i - 1], { ...nodeEnv, ...perNode[i - 1] })))));
    balancer = await startHaproxy(nodes);
    sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    const { stdout } = await exec(
      "node_modules/.bin/tsx",
      ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", "Cluster test", "--plan", "enterprise", "--json"],
      { env: { ...process.env, ...nodeEnv, DATA_DIR: dirs[0] }, timeout: 60_000 },
    );
    key = JSON.parse(stdout.trim().split("\n").at(-1)!).testKey;
    viaLb = client(key, balancer.url);
  });

  after(async () => {
    await Promise.all(nodes.map((n) => n.stop().catch(() => {})));
    await balancer?.stop();
    await sql?.end().catch(() => {});
    await redis?.stop();
    await postgres?.destroy();
    upstream?.close();
    await receiver?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  /** Polls `check` on `node` every 25 ms until it holds; ms from `since`, or null after 6 s. */
  async function honouredAfter(since: number, check: () => Promise<boolean>): Promise<number | null> {
    while (Date.now() - since < 6000) {
      if (await check()) return Date.now() - since;
      await sleep(25);
    }
    return null;
  }

  const status = async (url: string, path: string, k = key) => {
    const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${k}` } });
    const text = await res.text();
    let code: string | null = null;
    try {
      code = JSON.parse(text)?.error?.code ?? null;
    } catch {
      /* an upstream's or the balancer's body */
    }
    return { status: res.status, code, requestId: res.headers.get("x-request-id") };
  };

  test("three nodes started together migrate the new database once and serve behind haproxy; a fourth with another KEY_HASH_SECRET refuses", async () => {
    const migrations = await sql.query(`SELECT count(*)::int AS n, count(DISTINCT "migration_name")::int AS d FROM "_prisma_migrations"`);
    assert.ok(migrations.rows[0].n > 0);
    assert.equal(migrations.rows[0].n, migrations.rows[0].d, "each migration applied once");
    const live = await sql.query(`SELECT "id", "dataDir" FROM "ClusterNode" ORDER BY "id"`);
    assert.deepEqual(
      live.rows.map((r) => [r.id, r.dataDir]),
      nodes.map((n) => [n.id, n.dataDir]),
    );
    for (const n of nodes) {
      const ready = await fetch(`${n.url}/readyz`);
      const body = await ready.json();
      assert.equal(ready.status, 200, JSON.stringify(body));
      assert.equal(body.node, n.id);
    }
    // haproxy takes turns: a call lands on each node.
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) seen.add((await (await fetch(`${balancer.url}/readyz`)).json()).node);
    assert.deepEqual([...seen].sort(), ["node1", "node2", "node3"]);
    assert.equal((await viaLb.get("/v1/products")).status, 200);

    const dir = mkdtempSync(path.join(tmpdir(), "platform-node4-"));
    try {
      const r = await startRefused({
        ...nodeEnv,
        KEY_HASH_SECRET: "another-secret",
        NODE_ID: "node4",
        DATA_DIR: dir,
        PORT: String(await freePort()),
      });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr.trim().split("\n").at(-1)!, /^KEY_HASH_SECRET differs from node node\d \(host /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the analytics' reads go to the replica (DATABASE_REPLICA_URL), every other read and write to the primary", async () => {
    const api = on(nodes[0]);
    assert.equal((await api.get("/v1/revenue")).status, 200);
    await replica.stop();
    try {
      // Revenue is read from the replica alone: without it, a 503; the primary's reads and writes go on.
      const revenue = await api.get("/v1/revenue");
      assert.equal(revenue.status, 503, revenue.text);
      assert.equal((await api.get("/v1/products")).status, 200);
      const created = await api.post("/v1/products", { name: "Written to the primary", type: "API" });
      assert.equal(created.status, 201, created.text);
      assert.equal((await api.get(`/v1/products/${created.body.data.id}`)).status, 200, "and read back from it at once");
    } finally {
      await replica.start();
    }
    let back = 0;
    for (let i = 0; i < 50 && back !== 200; i++, await sleep(200)) back = (await api.get("/v1/revenue")).status;
    assert.equal(back, 200, "the replica back: revenue answers again");
  });

  test("a key revoked and a subscription cancelled on one node: refused at once there, and within the bound on the others, also when pub/sub loses the message", async () => {
    const measured: Record<string, number[]> = {};
    const revokeAndMeasure = async (label: string, bound: number) => {
      const spare = await on(nodes[0]).post("/v1/api-keys", { name: label, scopes: ["products:read"] });
      assert.equal(spare.status, 201, spare.text);
      const spareKey = spare.body.data.key as string;
      for (const n of nodes) assert.equal((await status(n.url, "/v1/products", spareKey)).status, 200, `${n.id} knows the key`);
      const revoked = await on(nodes[0]).delete(`/v1/api-keys/${spare.body.data.id}`);
      assert.equal(revoked.status, 204, revoked.text);
      const at = Date.now();
      assert.equal((await status(nodes[0].url, "/v1/products", spareKey)).status, 401, "the node that revoked it refuses at once");
      const after = await Promise.all(
        nodes.slice(1).map((n) => honouredAfter(at, async () => (await status(n.url, "/v1/products", spareKey)).status === 401)),
      );
      measured[label] = after.map((ms) => ms ?? -1);
      for (const ms of after) assert.ok(ms !== null && ms <= bound + CI_MARGIN_MS, `${label}: honoured after ${after.join(", ")} ms`);
    };
    const cancelAndMeasure = async (label: string, bound: number) => {
      const offer = await publishApiProduct(on(nodes[0]), { upstreamUrl: upstream.url });
      const sub = await subscribe(on(nodes[0]), offer.price.id);
      // What a node grants is served at once by every node, pub/sub or not: another node holds the project's
      // billing state from earlier calls without this product, and confirms its refusal with a fresh read.
      for (const n of nodes)
        assert.equal((await status(n.url, `/gw/${offer.slug}/x`)).status, 200, `${n.id} serves the new subscription at once`);
      const canceled = await on(nodes[0]).post(`/v1/subscriptions/${sub.id}/cancel`, {});
      assert.equal(canceled.status, 200, canceled.text);
      const at = Date.now();
      assert.equal((await status(nodes[0].url, `/gw/${offer.slug}/x`)).status, 403, "the node that cancelled refuses at once");
      const after = await Promise.all(
        nodes.slice(1).map((n) => honouredAfter(at, async () => (await status(n.url, `/gw/${offer.slug}/x`)).status === 403)),
      );
      measured[label] = after.map((ms) => ms ?? -1);
      for (const ms of after) assert.ok(ms !== null && ms <= bound + CI_MARGIN_MS, `${label}: honoured after ${after.join(", ")} ms`);
    };
    await revokeAndMeasure("revoked, pub/sub up", HONOURED_WITHIN_MS);
    await cancelAndMeasure("cancelled, pub/sub up", HONOURED_WITHIN_MS);
    // Redis refuses every PUBLISH now (the subscribers stay connected, so nothing tells them they missed anything).
    const master = await redis.masterPort();
    assert.equal(await redisCommand(master, "ACL", "SETUSER", "default", "-publish"), "OK");
    try {
      await revokeAndMeasure("revoked, pub/sub lost", HONOURED_WITHIN_MS_LOST);
      await cancelAndMeasure("cancelled, pub/sub lost", HONOURED_WITHIN_MS_LOST);
    } finally {
      await redisCommand(master, "ACL", "SETUSER", "default", "+publish");
    }
    console.log(`# honoured on the other two nodes after (ms): ${JSON.stringify(measured)}`);
    assert.match(nodes[0].stderr(), /message\(s\) not published on Redis/, "the publishing node saw pub/sub refuse");
  });

  test("a rate limit and prepaid credits are exact over the three nodes", async () => {
    const limited = await publishApiProduct(viaLb, {
      upstreamUrl: upstream.url,
      price: { rateLimit: { limit: 7, windowSeconds: 86_400 } },
    });
    const prepaid = await publishApiProduct(viaLb, { upstreamUrl: upstream.url, price: { billing: "prepaid", amount: 0.01 } });
    await subscribe(viaLb, limited.price.id);
    const sub = await subscribe(viaLb, prepaid.price.id);
    const bought = await viaLb.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.05 });
    assert.equal(bought.status, 201, bought.text);
    // Three at a time, so that each round puts one call on each node.
    const answers: Record<string, { status: number; code: string | null }[]> = { limited: [], prepaid: [] };
    for (let round = 0; round < 6; round++) {
      const [l, p] = await Promise.all([
        Promise.all([0, 1, 2].map(() => status(balancer.url, `/gw/${limited.slug}/x`))),
        Promise.all([0, 1, 2].map(() => status(balancer.url, `/gw/${prepaid.slug}/x`))),
      ]);
      answers.limited.push(...l);
      answers.prepaid.push(...p);
    }
    const tally = (list: { status: number; code: string | null }[]) =>
      list.reduce<Record<string, number>>(
        (t, a) => ({ ...t, [`${a.status} ${a.code ?? ""}`.trim()]: (t[`${a.status} ${a.code ?? ""}`.trim()] ?? 0) + 1 }),
        {},
      );
    assert.deepEqual(tally(answers.limited), { "200": 7, "429 RATE_LIMIT_EXCEEDED": 11 });
    assert.deepEqual(tally(answers.prepaid), { "200": 5, "402 INSUFFICIENT_CREDITS": 13 });
  });

  test("kill -9 of a node mid-load, then started again on its data folder: its journal's usage lands, nothing lost, nothing twice", async () => {
    const offer = await publishApiProduct(viaLb, { upstreamUrl: upstream.url, price: { amount: 0.001 } });
    await subscribe(viaLb, offer.price.id);
    const answered: { status: number; code: string | null; requestId: string | null }[] = [];
    let stop = false;
    const loop = async () => {
      for (let i = 0; !stop; i++) {
        answered.push(await status(balancer.url, `/gw/${offer.slug}/load/${i}`).catch(() => ({ status: 0, code: null, requestId: null })));
        await sleep(20);
      }
    };
    const loops = [loop(), loop(), loop()];
    await sleep(2500);
    const victim = nodes[1];
    await killNode(victim);
    await sleep(2500);
    stop = true;
    await Promise.all(loops);
    const served = answered.filter((a) => a.status === 200);
    const unanswered = answered.filter((a) => a.status !== 200);
    // Only the calls in flight on the killed node may have no answer (haproxy's 502); none is a node's 500.
    assert.ok(unanswered.length <= 3, `answers other than 200: ${JSON.stringify(unanswered)}`);
    assert.ok(served.length > 60, `served ${served.length}`);
    const eventIds = async () =>
      new Set(
        (await sql.query(`SELECT "id" FROM "UsageEvent" WHERE "productId" = $1`, [offer.product.id])).rows.map((r) => r.id as string),
      );
    const before = await eventIds();
    const missing = served.filter((a) => !before.has(usageIdOf(a.requestId!)));
    assert.ok(missing.length > 0, "the killed node's answered calls were in its journal only (USAGE_FLUSH_MS 60 s)");

    const journal = () =>
      (readdirSync(path.join(victim.dataDir, "usage-journal"), { recursive: true }) as string[]).map(
        (f) => `${f} ${statSync(path.join(victim.dataDir, "usage-journal", f)).size}`,
      );
    const journalBefore = journal();
    // Started again on its data folder and port: it replays its journal, and haproxy takes it back.
    const again = await startNode(victim.id, victim.dataDir, { ...nodeEnv, USAGE_FLUSH_MS: "100" }, victim.port);
    nodes[1] = again;
    let ids = await eventIds();
    for (let i = 0; i < 100 && served.some((a) => !ids.has(usageIdOf(a.requestId!))); i++) {
      await sleep(200);
      ids = await eventIds();
    }
    assert.deepEqual(
      served.filter((a) => !ids.has(usageIdOf(a.requestId!))).map((a) => a.requestId),
      [],
      `every answered call has its usage event (${missing.length} were missing before the restart; the journal then: ${journalBefore.join(", ")}; now: ${journal().join(", ")}; the restarted node said: ${again.stdout().slice(-3000)} ${again.stderr().slice(-3000)})`,
    );
    await sleep(1500); // a further sweep finds nothing more
    const final = await sql.query(`SELECT count(*)::int AS n FROM "UsageEvent" WHERE "productId" = $1`, [offer.product.id]);
    assert.ok(
      final.rows[0].n >= served.length && final.rows[0].n <= served.length + unanswered.length,
      `events ${final.rows[0].n} for ${served.length} served calls and ${unanswered.length} without an answer`,
    );
    console.log(
      `# kill -9: ${served.length} served, ${missing.length} from the journal after the restart, ${unanswered.length} unanswered`,
    );
  });

  test("a rolling restart: a node stopped under load says draining on /readyz, leaves haproxy's rotation and the nodes' list, and no call fails", async () => {
    const offer = await publishApiProduct(viaLb, { upstreamUrl: upstream.url, price: { amount: 0.001 } });
    await subscribe(viaLb, offer.price.id);
    const answers: { status: number; code: string | null }[] = [];
    let stop = false;
    const loop = async () => {
      for (let i = 0; !stop; i++) {
        answers.push(
          await status(balancer.url, `/gw/${offer.slug}/roll/${i}`).catch(() => ({
            status: 0,
            code: "connection failed",
            requestId: null,
          })),
        );
        await sleep(20);
      }
    };
    const loops = [loop(), loop(), loop()];
    await sleep(1000);
    const leaving = nodes[2];
    const stopped = leaving.stop(); // SIGTERM to its supervisor, as `npm start` passes it on
    let sawDraining = false;
    for (let i = 0; i < 20 && !sawDraining; i++, await sleep(50)) {
      const r = await fetch(`${leaving.url}/readyz`).catch(() => null);
      if (r?.status === 503) sawDraining = (await r.json()).status === "draining";
    }
    assert.ok(sawDraining, "its /readyz answered 503 draining while it still served");
    const row = await sql.query(`SELECT "draining" FROM "ClusterNode" WHERE "id" = $1`, [leaving.id]);
    assert.equal(row.rows[0]?.draining, true, "the nodes' list says it is draining");
    await stopped;
    assert.equal((await sql.query(`SELECT 1 FROM "ClusterNode" WHERE "id" = $1`, [leaving.id])).rowCount, 0, "and it left the list");
    await sleep(1000);
    // Started again: back in the rotation.
    nodes[2] = await startNode(leaving.id, leaving.dataDir, nodeEnv, leaving.port);
    let back = false;
    for (let i = 0; i < 60 && !back; i++, await sleep(250))
      back = (await (await fetch(`${balancer.url}/readyz`)).json()).node === leaving.id;
    assert.ok(back, "haproxy sends to it again");
    stop = true;
    await Promise.all(loops);
    assert.deepEqual(
      answers.filter((a) => a.status !== 200),
      [],
      `of ${answers.length} calls during the restart`,
    );
  });

  test("the Redis master killed under load: the nodes follow the new master, nothing answers 500", async () => {
    const offer = await publishApiProduct(viaLb, {
      upstreamUrl: upstream.url,
      price: { rateLimit: { limit: 100_000, windowSeconds: 86_400 } },
    });
    await subscribe(viaLb, offer.price.id);
    const answers: { status: number; code: string | null }[] = [];
    let stop = false;
    const loop = async (p: string) => {
      while (!stop) {
        answers.push(await status(balancer.url, p).catch(() => ({ status: 0, code: "connection failed", requestId: null })));
        await sleep(30);
      }
    };
    const loops = [loop(`/gw/${offer.slug}/x`), loop("/v1/products"), loop(`/gw/${offer.slug}/y`)];
    await sleep(1500);
    const oldMaster = await redis.killMaster();
    const killedAt = Date.now();
    let newMaster = oldMaster;
    while ((newMaster === oldMaster || newMaster === 0) && Date.now() - killedAt < 30_000) {
      await sleep(200);
      newMaster = await redis.masterPort().catch(() => 0);
    }
    assert.notEqual(newMaster, oldMaster, "the sentinel promoted the replica");
    // Every node ready again (Redis answering through the new master), then a little more load.
    for (const n of nodes) {
      for (;;) {
        const ready = await fetch(`${n.url}/readyz`);
        const body = await ready.text();
        if (ready.status === 200) break;
        assert.ok(Date.now() - killedAt < 30_000, `${n.id} is not ready 30 s after the failover: ${body}\n${n.stderr().slice(-3000)}`);
        await sleep(200);
      }
    }
    const followedMs = Date.now() - killedAt;
    await sleep(1500);
    stop = true;
    await Promise.all(loops);
    const bad = answers.filter((a) => a.status >= 500 && a.code !== "LIMITER_UNAVAILABLE");
    assert.deepEqual(bad, [], `of ${answers.length} answers`);
    assert.ok(answers.filter((a) => a.status === 200).length > answers.length / 2);
    // Shared and exact again on the new master.
    const after = await publishApiProduct(viaLb, { upstreamUrl: upstream.url, price: { rateLimit: { limit: 3, windowSeconds: 86_400 } } });
    await subscribe(viaLb, after.price.id);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await status(balancer.url, `/gw/${after.slug}/x`)).status);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429]);
    console.log(`# failover: ${answers.length} answers, every node ready ${followedMs} ms after the master was killed`);
  });

  test("three nodes run the jobs at one test clock: one invoice and one charge per subscription, each event delivered once", async () => {
    const endpoint = await createEndpoint(viaLb, { url: receiver.url("/cluster"), events: ["*"] });
    const subs = [];
    for (let i = 0; i < 4; i++) {
      const product = await viaLb.post("/v1/products", { name: `Monthly ${i}`, type: "API" });
      assert.equal(product.status, 201, product.text);
      const price = await viaLb.post(`/v1/products/${product.body.data.id}/prices`, {
        name: "Plan",
        currency: "USD",
        type: "subscription",
        baseSubscription: { amount: 20, interval: "month", includedQuota: 1000 },
      });
      assert.equal(price.status, 201, price.text);
      subs.push(await subscribe(viaLb, price.body.data.id));
    }
    const end = Math.max(...subs.map((s) => Date.parse(s.currentPeriodEnd)));
    // Past the period's end and its grace (INVOICE_GRACE_HOURS, 1 h): every node moves its clock and runs the jobs, at once.
    const offsetMs = end + 3_600_000 + 60_000 - Date.now();
    const moved = await Promise.all(
      nodes.map((n) =>
        fetch(`${n.url}/api/test-clock`, { method: "POST", headers: testClockHeaders, body: JSON.stringify({ offsetMs, runJobs: true }) }),
      ),
    );
    assert.deepEqual(
      moved.map((r) => r.status),
      [200, 200, 200],
    );
    for (const sub of subs) {
      const invoices = (await viaLb.get(`/v1/invoices?subscriptionId=${sub.id}`)).body.data;
      assert.equal(invoices.length, 1, `one invoice for ${sub.id}: ${JSON.stringify(invoices.map((i: { id: string }) => i.id))}`);
      assert.equal(invoices[0].status, "paid");
      const full = (await viaLb.get(`/v1/invoices/${invoices[0].id}`)).body.data;
      assert.equal(full.payments.length, 1, `one charge: ${JSON.stringify(full.payments)}`);
    }
    const payments = await sql.query(
      `SELECT count(*)::int AS n FROM "Payment" WHERE "invoiceId" IN (SELECT "id" FROM "Invoice" WHERE "subscriptionId" = ANY($1))`,
      [subs.map((s) => s.id)],
    );
    assert.equal(payments.rows[0].n, 4);
    // The partitions job ran on the three at once: the moved clock's day and the week after it exist for both tables
    // (PARTITION_DAYS_AHEAD, 7), and the usage the load wrote before them stays where its days are.
    const day = (t: number) => new Date(Math.floor(t / 86_400_000) * 86_400_000).toISOString().slice(0, 10).replaceAll("-", "");
    const partitions = new Set(
      (
        await sql.query(
          `SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname IN ('RequestLog', 'UsageEvent')`,
        )
      ).rows.map((r) => r.name as string),
    );
    for (let d = 0; d <= 7; d++)
      for (const table of ["RequestLog", "UsageEvent"])
        assert.ok(partitions.has(`${table}_${day(Date.now() + offsetMs + d * 86_400_000)}`), `${table}'s day +${d}: ${[...partitions]}`);
    const misplaced = await sql.query(
      `SELECT count(*)::int AS n FROM "UsageEvent_default" d WHERE EXISTS (SELECT 1 FROM pg_class WHERE relname = 'UsageEvent_' || to_char(d."timestamp", 'YYYYMMDD'))`,
    );
    assert.equal(misplaced.rows[0].n, 0, "no row left in the default partition for a day that has its own");
    // Each event reaches the endpoint once: its deliveries settle, then no webhook-id came twice.
    const deliveries = async () =>
      (await sql.query(`SELECT count(*)::int AS n FROM "WebhookDelivery" WHERE "webhookId" = $1`, [endpoint.id])).rows[0].n as number;
    assert.ok((await deliveries()) >= 8, "the invoices' and payments' events are queued for the endpoint");
    await receiver.waitFor(await deliveries(), (r) => r.path === "/cluster", 30_000);
    await sleep(2000);
    const ids = receiver.at("/cluster").map((r) => r.headers["webhook-id"]);
    assert.equal(new Set(ids).size, ids.length, "no event delivered twice");
    assert.equal(ids.length, await deliveries(), "each delivery sent once");
    // And each event was emitted once: a payment per invoice, a renewal per subscription.
    const emitted = async (type: string, id: string) =>
      (await sql.query(`SELECT count(*)::int AS n FROM "Event" WHERE "type" = $1 AND "data"::text LIKE $2`, [type, `%${id}%`])).rows[0].n;
    for (const sub of subs) {
      const [invoice] = (await viaLb.get(`/v1/invoices?subscriptionId=${sub.id}`)).body.data;
      assert.equal(await emitted("payment.succeeded", invoice.id), 1, `payment.succeeded for ${invoice.id}`);
      assert.equal(await emitted("subscription.renewed", sub.id), 1, `subscription.renewed for ${sub.id}`);
    }
  });
}
