// bench:outage (issue 41): what clients see when Redis, then the database, goes away under a paced load over two
// server processes, and how long the platform takes to come back. Prints the answers by status in each phase and the
// seconds to recover, and writes bench-results/outage.json; the figures go in docs/operations.md.
//
//   1. a fresh SQLite database, a Redis of its own (redis-server on a free loopback port; the machine's is never
//      touched), two platform servers (one data-plane worker each) and a loopback upstream;
//   2. a product whose price is open during a limiter outage (the default) and one declared closed; a consumer;
//   3. paced load (BENCH_RATE calls/s, default 40, spread over both servers: /gw on each product and GET /v1/products)
//      through phases: before, Redis stopped (BENCH_OUTAGE_S, default 20), after; then the SQLite file's write lock
//      held by another connection (BENCH_DB_OUTAGE_S, default 10) with POST /v1/products in the mix, and after;
//   4. unless BENCH_PG=0: the same deployment on a PostgreSQL cluster of the bench's own (scripts/lib/own-postgres.mjs,
//      a fresh initdb on a free loopback port), writes in the mix: before, PostgreSQL stopped (`pg_ctl stop -m fast`,
//      BENCH_DB_OUTAGE_S), started again, after.
// Environment: BENCH_RATE, BENCH_OUTAGE_S, BENCH_DB_OUTAGE_S, BENCH_PHASE_S (before/after phases, default 5),
// BENCH_PG=0, BENCH_SKIP_BUILD=1.
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

async function main() {
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, api, writeResults } = await import("./lib/bench-setup.mjs");
  const { startServer, freePort } = await import("./lib/server.mjs");
  const { default: Database } = await import("better-sqlite3");
  const RATE = num("BENCH_RATE", 40);
  const OUTAGE_S = num("BENCH_OUTAGE_S", 20);
  const DB_OUTAGE_S = num("BENCH_DB_OUTAGE_S", 10);
  const PHASE_S = num("BENCH_PHASE_S", 5);
  const bench = (run.bench = makeBench("bench:outage"));
  const { log } = bench;
  bench.loadInfo();

  // ---------------------------------------------------------------- Redis of its own
  const redisPort = await freePort();
  let redisChild = null;
  const pong = () =>
    new Promise((resolve) => {
      const s = net.connect(redisPort, "127.0.0.1");
      s.once("connect", () => s.write("PING\r\n"));
      s.once("data", (d) => {
        s.destroy();
        resolve(d.toString().startsWith("+PONG"));
      });
      s.once("error", () => resolve(false));
    });
  const startRedis = async () => {
    redisChild = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    while (!(await pong())) await new Promise((r) => setTimeout(r, 50));
  };
  const stopRedis = () =>
    new Promise((resolve) => {
      const c = redisChild;
      redisChild = null;
      if (!c || c.exitCode !== null) return resolve();
      c.once("exit", resolve);
      c.kill("SIGKILL");
    });
  bench.onCleanup(stopRedis);
  await startRedis();
  log(`redis-server on 127.0.0.1:${redisPort}`);

  // ---------------------------------------------------------------- set-up
  const upstream = await startServer({ script: "scripts/bench-gateway-upstream.mjs" });
  bench.onCleanup(() => upstream.stop());
  const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

  /** Two servers (one data-plane worker each) on a database, a provider with an open and a closed product, a consumer. */
  async function deployment(dbEnv, label) {
    const provider = bench.bootstrap(dbEnv, `Outage provider ${label}`);
    const consumer = bench.bootstrap(dbEnv, `Outage consumer ${label}`);
    const env = {
      ...dbEnv,
      ALLOW_PRIVATE_URLS: "true",
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      REDIS_PREFIX: `bench-outage-${label}:`,
      DATA_PLANE_WORKERS: "1",
    };
    const servers = [await bench.server(env), await bench.server(env)];
    log(`${label}: servers on ${servers.map((s) => s.url).join(" and ")}`);
    async function offer(onLimiterOutage) {
      const url = servers[0].url;
      const product = await api(`${url}/v1/products`, {
        method: "POST",
        key: provider.testKey,
        body: { name: `Outage ${onLimiterOutage}`, type: "API", api: { upstreamUrl: `${upstream.url}/v1` } },
      });
      const price = await api(`${url}/v1/products/${product.data.id}/prices`, {
        method: "POST",
        key: provider.testKey,
        body: {
          name: "Per call",
          type: "usage",
          currency: "USD",
          amount: 0.001,
          rateLimit: { limit: 1_000_000, windowSeconds: 60 },
          onLimiterOutage,
        },
      });
      const published = await api(`${url}/v1/products/${product.data.id}`, {
        method: "PATCH",
        key: provider.testKey,
        body: { visibility: "public" },
      });
      await api(`${url}/v1/subscriptions`, {
        method: "POST",
        key: consumer.testKey,
        body: { priceId: price.data.id, paymentMethod: CARD },
      });
      return published.data.slug;
    }
    return { servers, consumer, openSlug: await offer("open"), closedSlug: await offer("closed") };
  }

  // ---------------------------------------------------------------- paced load, by phase
  const phases = [];
  /** Paced load over a deployment's two servers until stop(); `writes` adds POST /v1/products to the mix. */
  function startLoad({ servers, consumer, openSlug, closedSlug }, label) {
    let current = null;
    const record = (kind, status, degraded) => {
      const k = `${kind} ${status}${degraded ? " degraded" : ""}`;
      current.counts[k] = (current.counts[k] ?? 0) + 1;
    };
    async function one(kind, s, pathName, init = {}) {
      try {
        const r = await fetch(`${s.url}${pathName}`, {
          ...init,
          headers: { authorization: `Bearer ${consumer.testKey}`, ...(init.headers ?? {}) },
        });
        await r.arrayBuffer();
        record(kind, r.status, r.headers.get("x-platform-degraded") !== null);
        return r;
      } catch {
        record(kind, "network-error", false);
        return null;
      }
    }
    const state = { running: true, writes: false };
    let n = 0;
    const inFlight = new Set();
    const loop = (async () => {
      const interval = 1000 / RATE;
      let next = performance.now();
      while (state.running) {
        const s = servers[n % 2];
        const k = n++ % 4;
        const p =
          k === 0
            ? one("/gw open", s, `/gw/${openSlug}/forecast?city=Oslo`)
            : k === 1
              ? one("/gw closed", s, `/gw/${closedSlug}/forecast?city=Oslo`)
              : k === 2 || !state.writes
                ? one("GET /v1", s, "/v1/products")
                : one("POST /v1", s, "/v1/products", {
                    method: "POST",
                    headers: { "content-type": "application/json" },
                    body: JSON.stringify({ name: `During ${n}`, type: "API" }),
                  });
        inFlight.add(p);
        p.finally(() => inFlight.delete(p));
        next += interval;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
    })();
    return {
      state,
      async phase(name, seconds) {
        current = { name: `${label}: ${name}`, seconds, counts: {} };
        phases.push(current);
        log(`phase: ${current.name} (${seconds} s)`);
        await new Promise((r) => setTimeout(r, seconds * 1000));
      },
      /** Seconds from `t0` until each server's GET /v1/products satisfies `ok`. */
      async recovery(t0, ok) {
        const out = [];
        for (const s of servers) {
          for (;;) {
            const r = await fetch(`${s.url}/v1/products`, { headers: { authorization: `Bearer ${consumer.testKey}` } }).catch(() => null);
            if (r && (await ok(r))) break;
            await new Promise((res) => setTimeout(res, 100));
          }
          out.push((Date.now() - t0) / 1000);
        }
        return Math.max(...out);
      },
      /** Seconds from `t0` until a read and a write both succeed, on alternate servers. */
      writesBack(t0) {
        let probe = 0;
        return this.recovery(t0, async (r) => {
          const w = await fetch(`${servers[probe++ % 2].url}/v1/products`, {
            method: "POST",
            headers: { authorization: `Bearer ${consumer.testKey}`, "content-type": "application/json" },
            body: JSON.stringify({ name: `Probe ${probe}`, type: "API" }),
          }).catch(() => null);
          return r.status === 200 && w?.status === 201;
        });
      },
      async stop() {
        state.running = false;
        await loop;
        await Promise.allSettled([...inFlight]);
      },
    };
  }

  // SQLite: Redis stopped and started, then the file's write lock held by another connection.
  const db = await bench.freshDb();
  const lite = startLoad(await deployment(db.env, "SQLite"), "SQLite");
  await lite.phase("before", PHASE_S);
  await stopRedis();
  await lite.phase("Redis stopped", OUTAGE_S);
  await startRedis();
  const redisBack = Date.now();
  const redisRecoveryS = await lite.recovery(redisBack, async (r) => r.status === 200 && r.headers.get("x-platform-degraded") === null);
  log(`recovered from the Redis outage in ${redisRecoveryS.toFixed(1)} s`);
  await lite.phase("after Redis", PHASE_S);
  lite.state.writes = true;
  await lite.phase("before the database outage", PHASE_S);
  const lock = new Database(path.resolve(db.file), { timeout: 1000 });
  lock.exec("BEGIN IMMEDIATE");
  await lite.phase("database write lock held", DB_OUTAGE_S);
  lock.exec("ROLLBACK");
  lock.close();
  const dbRecoveryS = await lite.writesBack(Date.now());
  log(`writes succeed again ${dbRecoveryS.toFixed(1)} s after the lock was released`);
  await lite.phase("after the database", PHASE_S);
  await lite.stop();

  // PostgreSQL (BENCH_PG=0 skips): a cluster of the bench's own, stopped (pg_ctl stop -m fast) and started again.
  let pgRecoveryS = null;
  if (process.env.BENCH_PG !== "0") {
    const { startOwnPostgres } = await import("./lib/own-postgres.mjs");
    const { createTestDatabase } = await import("./lib/test-database.mjs");
    const cluster = await startOwnPostgres();
    bench.onCleanup(() => cluster.destroy());
    const pgDb = await createTestDatabase("postgresql", cluster.adminUrl);
    const pgLoad = startLoad(await deployment({ ...db.env, DATABASE_URL: pgDb.url }, "PostgreSQL"), "PostgreSQL");
    pgLoad.state.writes = true;
    await pgLoad.phase("before", PHASE_S);
    await cluster.stop();
    await pgLoad.phase("PostgreSQL stopped", DB_OUTAGE_S);
    await cluster.start();
    pgRecoveryS = await pgLoad.writesBack(Date.now());
    log(`writes succeed again ${pgRecoveryS.toFixed(1)} s after PostgreSQL started`);
    await pgLoad.phase("after PostgreSQL", PHASE_S);
    await pgLoad.stop();
    bench.onCleanup(() => pgDb.drop());
  }

  // ---------------------------------------------------------------- report
  console.log(
    `\nbench:outage, ${RATE} calls/s over two processes (GET /v1/products, /gw on an open and a closed price; POST /v1/products in the database phases)`,
  );
  for (const p of phases) {
    console.log(`  ${p.name} (${p.seconds} s):`);
    for (const [k, v] of Object.entries(p.counts).sort()) console.log(`    ${String(v).padStart(6)}  ${k}`);
  }
  const fiveHundreds = phases
    .flatMap((p) =>
      Object.entries(p.counts)
        .filter(([k]) => / 500/.test(k))
        .map(([, v]) => v),
    )
    .reduce((a, b) => a + b, 0);
  console.log(`  answers with status 500 in all phases: ${fiveHundreds}`);
  console.log(`  seconds to recover after Redis returned (both processes answering undegraded): ${redisRecoveryS.toFixed(1)}`);
  console.log(`  seconds until writes succeed after the database's lock was released: ${dbRecoveryS.toFixed(1)}`);
  if (pgRecoveryS !== null) console.log(`  seconds until writes succeed after PostgreSQL started again: ${pgRecoveryS.toFixed(1)}`);
  writeResults("outage", {
    rate: RATE,
    outageSeconds: OUTAGE_S,
    dbOutageSeconds: DB_OUTAGE_S,
    phases,
    fiveHundreds,
    redisRecoveryS,
    dbRecoveryS,
    pgRecoveryS,
  });
  await bench.cleanup();
}

const run = { bench: null };
main().catch(async (e) => {
  console.error(e);
  await run.bench?.cleanup();
  process.exit(1);
});
