// `npm run bench:webhooks`: webhook delivery throughput and latency on the built server, on a fresh SQLite database.
//   1. prepare() (install / generate / build when needed; honours NEXT_DIST_DIR), fresh SQLite DB, a business on the
//      enterprise plan bootstrapped with the operator CLI (no rate limits in the way), the server started with
//      ALLOW_PRIVATE_URLS=true (the receiver is on 127.0.0.1) and the same KEY_HASH_SECRET
//   2. a receiver in a child process of its own (so its work never shares an event loop with the load), answering
//      200 at once and recording, per request, the webhook-id, the event's createdAt and the time of receipt
//   3. 10 endpoints on it, each subscribed to product.created, then 2,000 products created through the API at a
//      steady BENCH_EVENT_RATE events/s (default 40: 400 deliveries/s offered, above the 300/s goal). Every event
//      fans out to the 10 endpoints: 20,000 deliveries. BENCH_EVENT_RATE=0 creates them as fast as the API allows
//      (a burst: then the backlog, not the worker's latency, decides p99).
//   4. waits until every delivery has arrived (or BENCH_TIMEOUT_S), then prints
//        deliveries/s   deliveries received / (last receipt - first event's createdAt)
//        p50 / p99      from each event's createdAt (the server's clock, the same machine) to its receipt
//        duplicates     requests beyond the first per webhook-id (one id per delivery, kept across retries)
//      with where the time went: the backlog (due deliveries) sampled every second, CPU of server, receiver and
//      this process, and the delivery rows by status.
// Writes bench-results/webhooks.json. Always stops the server and the receiver and drops the database.
// Environment: BENCH_EVENTS (2000), BENCH_ENDPOINTS (10), BENCH_EVENT_RATE (40), BENCH_TIMEOUT_S (150), and the
// worker's own WEBHOOK_CONCURRENCY / WEBHOOK_BATCH / WEBHOOK_POLL_MS, passed through to the server.
// BENCH_WORKER_PROCESS=1 runs the delivery worker in a second server process (the API server with
// WEBHOOK_WORKER=false, the worker polling every 100 ms) on the same database, so API and delivery use two cores.
import { execFileSync, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- the receiver (child process)

function runReceiver() {
  const got = []; // [webhookId, eventCreatedAtMs, receivedAtMs]
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      let created = NaN;
      try {
        created = Date.parse(JSON.parse(Buffer.concat(chunks).toString("utf8")).createdAt);
      } catch {
        /* counted as NaN */
      }
      got.push([String(req.headers["webhook-id"] ?? ""), created, at]);
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
  process.on("message", (m) => {
    if (m === "count") process.send({ count: got.length });
    if (m === "dump") process.send({ got }, () => process.exit(0));
  });
}

if (process.argv[2] === "--receiver") {
  runReceiver();
} else {
  process.chdir(path.resolve(path.dirname(SELF), ".."));
  await main();
}

// ---------------------------------------------------------------- the benchmark

async function main() {
  const { prepare } = await import(pathToFileURL(path.resolve("scripts/lib/prepare.mjs")).href);
  const num = (name, fallback) => {
    const raw = process.env[name];
    const n = raw === undefined || raw === "" ? fallback : Number(raw);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0`);
    return n;
  };
  const EVENTS = Math.round(num("BENCH_EVENTS", 2000));
  const ENDPOINTS = Math.round(num("BENCH_ENDPOINTS", 10));
  const RATE = num("BENCH_EVENT_RATE", 40);
  const TIMEOUT_S = num("BENCH_TIMEOUT_S", 150);
  const BURST_CONCURRENCY = 16; // in-flight product creations when not paced (and the cap when paced)
  const GOALS = { deliveriesPerSecond: 300, p99Ms: 2000, duplicates: 0 };
  const EXPECTED = EVENTS * ENDPOINTS;

  const log = (msg) => console.log(`[bench] ${msg}`);
  const t0 = Date.now();
  const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

  let server;
  let workerServer;
  let database;
  let receiver;
  let cleaning;
  const cleanup = () =>
    (cleaning ??= (async () => {
      if (receiver && receiver.exitCode === null) receiver.kill("SIGKILL");
      if (server) await server.stop().catch((e) => console.error(`stopping the server: ${e.message}`));
      if (workerServer) await workerServer.stop().catch((e) => console.error(`stopping the worker: ${e.message}`));
      if (database) await database.drop().catch((e) => console.error(`dropping the database: ${e.message}`));
    })());
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      console.error(`\n[bench] ${sig}: stopping the server and dropping the database`);
      cleanup().finally(() => process.exit(130));
    });
  }

  let failed = false;
  try {
    prepare();
    const { startServer } = await import("./lib/server.mjs");
    const { createTestDatabase } = await import("./lib/test-database.mjs");
    const { cpuTimeMs, percentile, round } = await import("./lib/bench-util.mjs");
    const { default: Database } = await import("better-sqlite3");

    const loadBefore = os.loadavg();
    log(
      `${os.cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")}; dist dir ${process.env.NEXT_DIST_DIR ?? ".next"}`,
    );
    if (loadBefore[0] > os.cpus().length * 0.5)
      log(`WARNING: the machine is busy (1-min load ${loadBefore[0].toFixed(2)}); figures will be lower and noisier`);

    database = await createTestDatabase("sqlite");
    const dbFile = database.url.slice("file:".length);
    const KEY_HASH_SECRET = `bench-${randomBytes(24).toString("base64url")}`;
    const env = { DATABASE_URL: database.url, KEY_HASH_SECRET, ALLOW_PRIVATE_URLS: "true" };
    const boot = JSON.parse(
      execFileSync(
        "node_modules/.bin/tsx",
        ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", "Bench", "--plan", "enterprise", "--json"],
        {
          env: { ...process.env, ...env },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        },
      )
        .trim()
        .split("\n")
        .at(-1),
    );
    const key = boot.testKey;

    receiver = fork(SELF, ["--receiver"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const receiverPort = await new Promise((resolve, reject) => {
      receiver.once("message", (m) => resolve(m.port));
      receiver.once("exit", (code) => reject(new Error(`the receiver exited with ${code}`)));
    });
    const ask = (what) =>
      new Promise((resolve) => {
        const answer = what === "dump" ? "got" : what;
        const on = (m) => {
          if (answer in m) {
            receiver.off("message", on);
            resolve(m);
          }
        };
        receiver.on("message", on);
        receiver.send(what);
      });

    const split = process.env.BENCH_WORKER_PROCESS === "1";
    server = await startServer({ env: split ? { ...env, WEBHOOK_WORKER: "false" } : env });
    if (split) workerServer = await startServer({ env: { ...env, WEBHOOK_POLL_MS: "100" } });
    const pid = server.child.pid;
    const worker = {
      concurrency: process.env.WEBHOOK_CONCURRENCY ?? "(default)",
      batch: process.env.WEBHOOK_BATCH ?? "(default)",
      pollMs: process.env.WEBHOOK_POLL_MS ?? "(default)",
    };
    log(
      `server on ${server.url} (pid ${pid}), receiver on 127.0.0.1:${receiverPort} (pid ${receiver.pid}), worker ${JSON.stringify(worker)} (${elapsed()})`,
    );

    const api = async (method, p, body) => {
      const res = await fetch(`${server.url}${p}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, ...(body ? { "Content-Type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${p} answered ${res.status}: ${text.slice(0, 300)}`);
      return JSON.parse(text);
    };
    for (let i = 0; i < ENDPOINTS; i++) {
      await api("POST", "/v1/webhooks", { url: `http://127.0.0.1:${receiverPort}/ep/${i}`, events: ["product.created"] });
    }
    // Warm the create and delivery paths (route modules, JIT) before the clock starts. The warm-up product's own
    // deliveries are not counted: they are awaited here and left out below.
    await api("POST", "/v1/products", { name: "warm-up", type: "API" });
    const warmDeadline = Date.now() + 10_000;
    while ((await ask("count")).count < ENDPOINTS && Date.now() < warmDeadline) await new Promise((r) => setTimeout(r, 100));
    const warmCount = (await ask("count")).count;

    // Backlog sampler: deliveries not yet successful, every second, straight from SQLite (read-only, WAL).
    const sqlite = new Database(dbFile, { readonly: true, fileMustExist: true });
    sqlite.pragma("busy_timeout = 2000");
    const backlogQuery = sqlite.prepare(`SELECT COUNT(*) AS n FROM "WebhookDelivery" WHERE "status" IN ('pending', 'retrying')`);
    const timeline = [];
    const serverCpu = () => cpuTimeMs(pid) + (workerServer ? cpuTimeMs(workerServer.child.pid) : 0);
    const startCpu = { server: serverCpu(), receiver: cpuTimeMs(receiver.pid), self: process.cpuUsage() };
    const startMs = Date.now();
    let created = 0;
    let createErrors = 0;
    const createLatencies = [];
    const sampler = setInterval(async () => {
      try {
        const { count } = await ask("count");
        timeline.push({ s: round((Date.now() - startMs) / 1000, 0), created, received: count - warmCount, backlog: backlogQuery.get().n });
      } catch {
        /* a busy database skips one sample */
      }
    }, 1000);

    // ---- the load: EVENTS product creations, paced at RATE per second (or a burst)
    log(`creating ${EVENTS} products ${RATE > 0 ? `at ${RATE}/s` : "as fast as the API allows"} -> ${EXPECTED} deliveries (${elapsed()})`);
    let inFlight = 0;
    let next = 0;
    await new Promise((resolve) => {
      const launch = () => {
        while (next < EVENTS && inFlight < BURST_CONCURRENCY && (RATE === 0 || Date.now() - startMs >= (next * 1000) / RATE)) {
          const i = next++;
          inFlight++;
          const t = performance.now();
          api("POST", "/v1/products", { name: `Bench product ${i}`, type: "API" })
            .then(() => {
              created++;
              createLatencies.push(performance.now() - t);
            })
            .catch((e) => {
              createErrors++;
              if (createErrors <= 3) console.error(`[bench] create failed: ${e.message}`);
            })
            .finally(() => {
              inFlight--;
              if (next >= EVENTS && inFlight === 0) resolve();
              else launch();
            });
        }
        if (next < EVENTS && inFlight < BURST_CONCURRENCY && RATE > 0)
          setTimeout(launch, Math.max(1, startMs + (next * 1000) / RATE - Date.now()));
      };
      launch();
    });
    const createdMs = Date.now() - startMs;
    log(`${created} products created in ${(createdMs / 1000).toFixed(1)} s (${createErrors} failed) (${elapsed()})`);

    // ---- wait for every delivery
    const expected = created * ENDPOINTS;
    const deadline = startMs + TIMEOUT_S * 1000;
    let lastLog = 0;
    for (;;) {
      const { count } = await ask("count");
      if (count - warmCount >= expected) break;
      if (Date.now() > deadline) {
        log(`TIMEOUT: ${count - warmCount} of ${expected} deliveries after ${TIMEOUT_S} s; figures below cover those`);
        break;
      }
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        log(`${count - warmCount} of ${expected} received (${elapsed()})`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 1500)); // room for late duplicates
    clearInterval(sampler);
    const endCpu = { server: serverCpu(), receiver: cpuTimeMs(receiver.pid), self: process.cpuUsage(startCpu.self) };
    const statusRows = sqlite
      .prepare(`SELECT "status", COUNT(*) AS n, MAX("attempts") AS maxAttempts FROM "WebhookDelivery" GROUP BY "status"`)
      .all();
    sqlite.close();
    const { got: all } = await ask("dump");
    receiver = undefined;
    const got = all.slice(warmCount).filter(([id]) => id); // after the warm-up

    // ---- figures
    const firstTime = new Map();
    for (const [id, createdAt, at] of got) if (!firstTime.has(id)) firstTime.set(id, { createdAt, at });
    const unique = firstTime.size;
    const duplicates = got.length - unique;
    const latencies = [...firstTime.values()]
      .map((v) => v.at - v.createdAt)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const firstCreated = Math.min(...[...firstTime.values()].map((v) => v.createdAt));
    const lastReceipt = Math.max(...[...firstTime.values()].map((v) => v.at));
    const spanS = (lastReceipt - firstCreated) / 1000;
    const dps = unique / spanS;
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    // The worker alone: deliveries per second once no more events were being created (the API's writes and the
    // worker's share one process and one SQLite connection while both run).
    const afterCreate = timeline.filter((t) => t.s * 1000 >= createdMs);
    const drain =
      afterCreate.length >= 2 && afterCreate.at(-1).received > afterCreate[0].received
        ? (afterCreate.at(-1).received - afterCreate[0].received) / (afterCreate.at(-1).s - afterCreate[0].s)
        : NaN;
    const windows = [];
    for (let i = 5; i < timeline.length; i++) windows.push((timeline[i].received - timeline[i - 5].received) / 5);
    const peak5s = windows.length ? Math.max(...windows) : NaN;
    const spanMs = Date.now() - startMs;
    const cpu = {
      serverS: round((endCpu.server - startCpu.server) / 1000, 1),
      receiverS: round((endCpu.receiver - startCpu.receiver) / 1000, 1),
      benchS: round((endCpu.self.user + endCpu.self.system) / 1e6, 1),
    };
    const loadAfter = os.loadavg();
    const met = {
      deliveriesPerSecond: dps >= GOALS.deliveriesPerSecond,
      p99: p99 < GOALS.p99Ms,
      duplicates: duplicates === 0 && unique === expected,
    };
    const sortedCreate = createLatencies.sort((a, b) => a - b);

    console.log("");
    console.log(
      `Webhook benchmark (SQLite, ${ENDPOINTS} endpoints x ${created} product.created events = ${expected} deliveries; events ${RATE > 0 ? `paced at ${RATE}/s` : "in a burst"}; ${workerServer ? "worker in a second process" : "worker in the API server"}; ${os.cpus().length} cores, load ${loadBefore[0].toFixed(2)} -> ${loadAfter[0].toFixed(2)})`,
    );
    console.log(
      `events created:       ${created} in ${(createdMs / 1000).toFixed(1)} s (${(created / (createdMs / 1000)).toFixed(0)}/s), POST /v1/products p50 ${round(percentile(sortedCreate, 50), 0)} ms, p99 ${round(percentile(sortedCreate, 99), 0)} ms${createErrors ? `, ${createErrors} failed` : ""}`,
    );
    console.log(
      `deliveries/s:         ${dps.toFixed(0)}  (${unique} received in ${spanS.toFixed(1)} s from the first event's createdAt to the last receipt; best 5 s window ${round(peak5s, 0)}/s) (goal >= ${GOALS.deliveriesPerSecond}: ${met.deliveriesPerSecond ? "met" : "NOT met"})`,
    );
    console.log(
      `worker alone:         ${Number.isFinite(drain) ? `${drain.toFixed(0)} deliveries/s after the last event was created` : "(no samples after the last event was created)"}`,
    );
    console.log(
      `latency p50 / p99:    ${round(p50, 0)} ms / ${round(p99, 0)} ms  from event createdAt to receipt (max ${round(latencies.at(-1), 0)} ms) (goal p99 < ${GOALS.p99Ms} ms: ${met.p99 ? "met" : "NOT met"})`,
    );
    console.log(
      `duplicates:           ${duplicates}  (${got.length} requests for ${unique} webhook-ids; ${expected - unique} missing) (goal 0 and none missing: ${met.duplicates ? "met" : "NOT met"})`,
    );
    console.log(
      `CPU during the run:   server${workerServer ? "s (API + worker)" : ""} ${cpu.serverS} s (${(cpu.serverS / (spanMs / 1000)).toFixed(2)} cores), receiver ${cpu.receiverS} s, this process ${cpu.benchS} s; server CPU per delivery ${((cpu.serverS * 1000) / Math.max(1, unique)).toFixed(2)} ms`,
    );
    console.log(`delivery rows:        ${statusRows.map((r) => `${r.status} ${r.n} (max attempts ${r.maxAttempts})`).join(", ")}`);
    const step = Math.max(1, Math.ceil(timeline.length / 12));
    console.log(`backlog (s: created events / received deliveries / deliveries due):`);
    console.log(
      `  ${timeline
        .filter((_, i) => i % step === 0 || i === timeline.length - 1)
        .map((t) => `${t.s}s: ${t.created}/${t.received}/${t.backlog}`)
        .join("  ")}`,
    );

    const out = {
      date: new Date().toISOString(),
      commit: (() => {
        try {
          return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
        } catch {
          return null;
        }
      })(),
      machine: { cpus: os.cpus().length, node: process.version, loadavgBefore: loadBefore, loadavgAfter: loadAfter },
      config: {
        database: "sqlite",
        endpoints: ENDPOINTS,
        events: EVENTS,
        eventRate: RATE || "burst",
        worker,
        workerProcess: Boolean(workerServer),
        distDir: process.env.NEXT_DIST_DIR ?? ".next",
      },
      results: {
        created,
        createErrors,
        createSeconds: round(createdMs / 1000, 1),
        expected,
        received: unique,
        requests: got.length,
        duplicates,
        deliveriesPerSecond: round(dps, 0),
        best5sPerSecond: round(peak5s, 0),
        drainPerSecond: round(drain, 0),
        spanSeconds: round(spanS, 1),
        latencyMs: { p50: round(p50, 0), p90: round(percentile(latencies, 90), 0), p99: round(p99, 0), max: round(latencies.at(-1), 0) },
        createLatencyMs: { p50: round(percentile(sortedCreate, 50), 0), p99: round(percentile(sortedCreate, 99), 0) },
        cpu,
        statusRows,
      },
      goals: GOALS,
      met,
      timeline,
    };
    mkdirSync("bench-results", { recursive: true });
    writeFileSync("bench-results/webhooks.json", JSON.stringify(out, null, 2) + "\n");
    log(`wrote bench-results/webhooks.json (${elapsed()})`);
  } catch (e) {
    failed = true;
    console.error(`[bench] failed: ${e instanceof Error ? e.stack : e}`);
    if (server) console.error(`[bench] server stderr (tail):\n${server.stderr().slice(-3000)}`);
  } finally {
    await cleanup();
  }
  process.exit(failed ? 1 : 0);
}
