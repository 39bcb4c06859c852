// `npm run bench:api`: throughput and latency of the API on the built server, on a fresh SQLite database.
//   1. prepare() (install / generate / build when needed; honours NEXT_DIST_DIR), fresh SQLite DB, a business
//      bootstrapped with the operator CLI, the server started with the same KEY_HASH_SECRET
//   2. products created through the API, then ~100,000 more seeded straight into SQLite (one transaction)
//   3. from a separate process on loopback (autocannon, warm-up then a fixed duration and connection count):
//        GET /api/health (static, no auth, no DB: the baseline), GET /v1/products/{id}, GET /v1/products?limit=20
//      requests/s, p50/p99 latency and each one's ratio to the static route (goal: product read >= 0.5)
//   4. a cursor page at depth 100,000 against the first page (medians of sequential requests; goal <= 1.5x)
//   5. the server's peak RSS
// Prints a table and writes bench-results/api.json. Always stops the server and drops the database.
// The server runs without its periodic jobs (JOBS_IN_SERVER=false); the webhook worker stays.
// The business is on the enterprise plan, so the rate limiter (which every request still runs through) does not
// answer 429 during the load; any non-2xx answer is reported next to the figures.
// Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (16), BENCH_DEPTH (100000),
//              BENCH_SAMPLES (timed requests per cursor page, 50).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const num = (name, fallback) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};
const DURATION = num("BENCH_DURATION", 10);
const WARMUP = num("BENCH_WARMUP", 2);
const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 16));
const DEPTH = Math.round(num("BENCH_DEPTH", 100_000));
const SAMPLES = Math.round(num("BENCH_SAMPLES", 50));
const API_PRODUCTS = 50; // created through the API (the newest rows)
const EXTRA_ROWS = 1_000; // seeded beyond DEPTH, so the deep page is a full page
const LIST_LIMIT = 20;
const GOAL_READ_RATIO = 0.5;
const GOAL_DEPTH_RATIO = 1.5;

const log = (msg) => console.log(`[bench] ${msg}`);
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)} s`;

// ---------------------------------------------------------------- ids and seeding

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** lib/ids.ts's format: prefix + 10 chars of milliseconds + 16 random chars, Crockford base32. */
function timeOrderedId(prefix, ms) {
  let time = "";
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const rnd = Array.from(randomBytes(16), (b) => CROCKFORD[b & 31]).join("");
  return `${prefix}_${time}${rnd}`;
}

/** A function turning a Date into the same representation the Prisma adapter used for `sample`. */
function dateEncoderLike(sample) {
  if (typeof sample === "number" || typeof sample === "bigint") return (d) => d.getTime();
  if (typeof sample !== "string") throw new Error(`unexpected DateTime storage in SQLite: ${typeof sample} ${sample}`);
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(sample)) return (d) => d.toISOString();
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/.test(sample)) return (d) => d.toISOString().replace("Z", "+00:00");
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/.test(sample)) return (d) => d.toISOString().replace("T", " ").replace("Z", "");
  if (/^\d+$/.test(sample)) return (d) => String(d.getTime());
  throw new Error(`unrecognised DateTime storage in SQLite: '${sample}' (teach dateEncoderLike this format)`);
}

/**
 * Inserts `count` products older than every existing one, in one transaction, copying the shape of a row the
 * API wrote (same columns, same JSON and DateTime encodings). Returns the number of rows in the tenant.
 */
function seedProducts(Database, file, { businessId, environment, count }) {
  const sqlite = new Database(file);
  try {
    sqlite.pragma("busy_timeout = 10000");
    const sample = sqlite.prepare(`SELECT * FROM "Product" WHERE "businessId" = ? AND "environment" = ? ORDER BY "createdAt" ASC, "id" ASC LIMIT 1`).get(businessId, environment);
    if (!sample) throw new Error("no product row to copy the storage format from");
    const encodeDate = dateEncoderLike(sample.createdAt);
    const oldest = new Date(typeof sample.createdAt === "string" && !/^\d+$/.test(sample.createdAt) ? sample.createdAt.replace(" ", "T") + (/[Z+]/.test(sample.createdAt.slice(19)) ? "" : "Z") : Number(sample.createdAt)).getTime();
    if (!Number.isFinite(oldest)) throw new Error(`cannot read the sample createdAt '${sample.createdAt}'`);
    // Check the round trip: the encoder must reproduce the adapter's own text exactly.
    if (String(encodeDate(new Date(oldest))) !== String(sample.createdAt)) {
      throw new Error(`DateTime encoding mismatch: adapter wrote '${sample.createdAt}', the seeder would write '${encodeDate(new Date(oldest))}'`);
    }
    const columns = Object.keys(sample);
    const insert = sqlite.prepare(`INSERT INTO "Product" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`);
    const types = ["SaaS", "API", "Data", "Headless"];
    const start = oldest - (count + 1) * 1000; // one row a second, all older than the API's rows
    const fill = sqlite.transaction(() => {
      for (let i = 0; i < count; i++) {
        const ms = start + i * 1000;
        const d = new Date(ms);
        const name = `Seeded product ${String(i).padStart(6, "0")}`;
        insert.run({
          ...sample,
          id: timeOrderedId("prod", ms),
          name,
          type: types[i % types.length],
          description: null,
          searchText: `${name}\n`.toLowerCase(),
          createdAt: encodeDate(d),
          updatedAt: encodeDate(d),
        });
      }
    });
    fill();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    return sqlite.prepare(`SELECT COUNT(*) AS n FROM "Product" WHERE "businessId" = ? AND "environment" = ?`).get(businessId, environment).n;
  } finally {
    sqlite.close();
  }
}

/** The id at 0-based position `index` of the default sort (-createdAt, then -id), read straight from SQLite. */
function idAtDepth(Database, file, { businessId, environment, index }) {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare(`SELECT "id" FROM "Product" WHERE "businessId" = ? AND "environment" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT 1 OFFSET ?`)
      .get(businessId, environment, index)?.id;
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------- HTTP helpers

async function api(url, { method = "GET", key, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

// ---------------------------------------------------------------- main

let server;
let database;
let sampler;
let cleaning;
async function cleanup() {
  cleaning ??= (async () => {
    for (const child of (await import("./lib/bench-util.mjs")).runLoad.children) child.kill("SIGKILL");
    if (server) await server.stop().catch((e) => console.error(`stopping the server: ${e.message}`));
    if (database) await database.drop().catch((e) => console.error(`dropping the database: ${e.message}`));
  })();
  return cleaning;
}
for (const sig of ["SIGINT", "SIGTERM"]) {
  process.on(sig, () => { console.error(`\n[bench] ${sig}: stopping the server and dropping the database`); cleanup().finally(() => process.exit(130)); });
}

async function main() {
  prepare();
  // Installed packages are needed from here on (as in scripts/test.mjs).
  const { startServer } = await import("./lib/server.mjs");
  const { createTestDatabase } = await import("./lib/test-database.mjs");
  const { runLoad, timeSequential, startRssSampler, waitForIdle, cpuTimeMs, median, percentile, round } = await import("./lib/bench-util.mjs");
  const { default: Database } = await import("better-sqlite3");

  const loadBefore = os.loadavg();
  log(`${os.cpus().length} cores, load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")}; dist dir ${process.env.NEXT_DIST_DIR ?? ".next"}`);
  if (loadBefore[0] > os.cpus().length * 0.5) log(`WARNING: the machine is busy (1-min load ${loadBefore[0].toFixed(2)}); figures will be lower and noisier`);

  database = await createTestDatabase("sqlite");
  const dbFile = database.url.slice("file:".length);
  const KEY_HASH_SECRET = `bench-${randomBytes(24).toString("base64url")}`;
  const env = { DATABASE_URL: database.url, KEY_HASH_SECRET };

  const boot = JSON.parse(execFileSync("node_modules/.bin/tsx", ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", "Bench", "--plan", "enterprise", "--json"], {
    env: { ...process.env, ...env }, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"],
  }).trim().split("\n").at(-1));
  const key = boot.testKey;
  log(`database ${dbFile}, business ${boot.businessId} (${elapsed()})`);

  // The periodic jobs (log retention, rollup compaction) first run 30 s after start, which lands inside a
  // measurement: they are left out, the steady-state request path is what is measured.
  server = await startServer({ env: { ...env, JOBS_IN_SERVER: "false" } });
  sampler = startRssSampler(server.child.pid);
  log(`server on ${server.url}, pid ${server.child.pid} (${elapsed()})`);

  // Products through the API: the newest rows, and the id the single-product read loads.
  const created = [];
  for (let i = 0; i < API_PRODUCTS; i++) {
    const r = await api(`${server.url}/v1/products`, {
      method: "POST", key,
      body: { name: `Bench product ${i}`, type: ["SaaS", "API", "Data", "Headless"][i % 4], description: `Benchmark product number ${i}`, industries: ["benchmarks"], interfaces: { hasAPI: true } },
    });
    created.push(r.data?.id ?? r.id);
  }
  const productId = created[Math.floor(created.length / 2)];
  if (!productId) throw new Error("POST /v1/products returned no id");
  const environment = (await api(`${server.url}/v1/products/${productId}`, { key })).data.environment;

  const seedStart = Date.now();
  const tenantRows = seedProducts(Database, dbFile, { businessId: boot.businessId, environment, count: DEPTH + EXTRA_ROWS });
  log(`seeded ${DEPTH + EXTRA_ROWS} products in ${((Date.now() - seedStart) / 1000).toFixed(1)} s; ${tenantRows} in the tenant (${elapsed()})`);
  const listed = await api(`${server.url}/v1/products?limit=1`, { key });
  if (listed.pagination?.total !== tenantRows) throw new Error(`the API counts ${listed.pagination?.total} products, SQLite ${tenantRows}: the seeded rows are not visible as written`);

  // ---- load: static baseline first, then the authenticated routes, all against the same server
  const auth = { Authorization: `Bearer ${key}` };
  const targets = [
    { name: "static", label: "static GET /api/health", url: `${server.url}/api/health`, headers: {} },
    { name: "productById", label: "GET /v1/products/{id}", url: `${server.url}/v1/products/${productId}`, headers: auth },
    { name: "productList", label: `GET /v1/products?limit=${LIST_LIMIT}`, url: `${server.url}/v1/products?limit=${LIST_LIMIT}`, headers: auth },
  ];
  const load = {};
  // Before each measurement the server must be idle: work queued by the previous load (usage events and request
  // logs are written in batches after the responses) would otherwise be charged to the next route.
  const settle = async () => {
    const waited = await waitForIdle(server.child.pid);
    if (waited > 1000) log(`server busy for ${(waited / 1000).toFixed(1)} s after the previous load (queued writes)`);
    return waited;
  };
  const settleMs = {};
  const measure = async (t) => {
    settleMs[t.name] = await settle();
    log(`loading ${t.label}: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s (${elapsed()})`);
    const r = await runLoad({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, cpuPid: server.child.pid });
    // CPU the server spends after the run on work the run queued counts towards the run's requests.
    const cpuAtEnd = cpuTimeMs(server.child.pid);
    r.drainMs = await waitForIdle(server.child.pid);
    r.deferredCpuMs = cpuTimeMs(server.child.pid) - cpuAtEnd;
    r.serverCpuMs += r.deferredCpuMs;
    r.serverCpuMsPerRequest = r.serverCpuMs / r.total;
    if (r.non2xx || r.errors || r.timeouts) {
      const codes = Object.entries(r.statusCodes ?? {}).map(([code, v]) => `${code}: ${v.count}`).join(", ");
      log(`WARNING: ${t.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.total} (status codes ${codes})`);
    }
    return r;
  };
  // Every route once before any measurement, so the first measured one does not pay for cold code (JIT, lazily
  // loaded route modules) the others then find warm.
  log(`warming every route (${WARMUP} s each) (${elapsed()})`);
  for (const t of targets) await runLoad({ url: t.url, headers: t.headers, connections: CONNECTIONS, duration: WARMUP, warmup: 0 });
  for (const t of targets) load[t.name] = await measure(t);
  // The static route again at the end: on a shared machine the baseline is the mean of both, and a large
  // difference between them says the figures drifted with outside load.
  const staticAgain = await measure({ ...targets[0], name: "staticAgain", label: `${targets[0].label} (again)` });
  const staticRuns = [load.static, staticAgain];
  load.static = {
    ...load.static,
    rps: (load.static.rps + staticAgain.rps) / 2,
    p50: (load.static.p50 + staticAgain.p50) / 2, p99: Math.max(load.static.p99, staticAgain.p99),
    serverCpuMsPerRequest: (load.static.serverCpuMs + staticAgain.serverCpuMs) / (load.static.total + staticAgain.total),
    serverCpuCores: (load.static.serverCpuCores + staticAgain.serverCpuCores) / 2,
    drainMs: Math.max(load.static.drainMs, staticAgain.drainMs), deferredCpuMs: load.static.deferredCpuMs + staticAgain.deferredCpuMs,
    total: load.static.total + staticAgain.total, non2xx: load.static.non2xx + staticAgain.non2xx,
    errors: load.static.errors + staticAgain.errors, timeouts: load.static.timeouts + staticAgain.timeouts,
  };
  const staticDrift = Math.abs(staticRuns[0].rps - staticRuns[1].rps) / Math.max(staticRuns[0].rps, staticRuns[1].rps);

  // ---- cursor depth: the nextCursor of the offset page ending at DEPTH is a real keyset cursor at depth DEPTH
  const boundary = await api(`${server.url}/v1/products?limit=100&offset=${DEPTH - 100}`, { key });
  const cursor = boundary.pagination?.nextCursor;
  if (!cursor) throw new Error(`no nextCursor at depth ${DEPTH}`);
  const firstUrl = `${server.url}/v1/products?limit=${LIST_LIMIT}`;
  const deepUrl = `${server.url}/v1/products?limit=${LIST_LIMIT}&cursor=${encodeURIComponent(cursor)}`;
  const deepPage = await api(deepUrl, { key });
  const expectedId = idAtDepth(Database, dbFile, { businessId: boot.businessId, environment, index: DEPTH });
  if (deepPage.data?.[0]?.id !== expectedId) throw new Error(`the deep page starts at ${deepPage.data?.[0]?.id}, expected row ${DEPTH} (${expectedId})`);
  await settle();
  await timeSequential(firstUrl, { n: 5, headers: auth });
  await timeSequential(deepUrl, { n: 5, headers: auth });
  const firstTimes = [];
  const deepTimes = [];
  for (let i = 0; i < SAMPLES; i++) { // interleaved, so drift affects both alike
    firstTimes.push(...await timeSequential(firstUrl, { n: 1, headers: auth }));
    deepTimes.push(...await timeSequential(deepUrl, { n: 1, headers: auth }));
  }
  const sortedFirst = [...firstTimes].sort((a, b) => a - b);
  const sortedDeep = [...deepTimes].sort((a, b) => a - b);
  const cursorResult = {
    depth: DEPTH, limit: LIST_LIMIT, samples: SAMPLES, tenantRows,
    firstPageMedianMs: round(median(firstTimes), 2), deepPageMedianMs: round(median(deepTimes), 2),
    firstPageP90Ms: round(percentile(sortedFirst, 90), 2), deepPageP90Ms: round(percentile(sortedDeep, 90), 2),
  };
  cursorResult.ratio = round(cursorResult.deepPageMedianMs / cursorResult.firstPageMedianMs, 2);

  const rss = sampler.stop();
  sampler = undefined;
  const loadAfter = os.loadavg();

  // ---- report
  const base = load.static.rps;
  const results = {};
  for (const t of targets) {
    const r = load[t.name];
    results[t.name] = {
      route: t.label.replace(/^static /, ""), rps: round(r.rps, 0), p50Ms: round(r.p50, 1), p99Ms: round(r.p99, 1),
      ratioToStatic: round(r.rps / base, 2),
      serverCpuMsPerRequest: round(r.serverCpuMsPerRequest, 2), serverCpuCores: round(r.serverCpuCores, 2),
      drainAfterRunMs: r.drainMs, deferredCpuMs: round(r.deferredCpuMs, 0),
      cpuRatioToStatic: round(load.static.serverCpuMsPerRequest / r.serverCpuMsPerRequest, 2),
      total: r.total, non2xx: r.non2xx, errors: r.errors, timeouts: r.timeouts,
    };
  }
  const readRatio = results.productById.ratioToStatic;
  const goals = {
    productReadRatio: { goal: `>= ${GOAL_READ_RATIO}`, value: readRatio, met: readRatio >= GOAL_READ_RATIO },
    cursorDepthRatio: { goal: `<= ${GOAL_DEPTH_RATIO}`, value: cursorResult.ratio, met: cursorResult.ratio <= GOAL_DEPTH_RATIO },
  };
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  console.log("");
  console.log(`API benchmark (SQLite, ${CONNECTIONS} connections, ${DURATION} s after ${WARMUP} s warm-up, ${os.cpus().length} cores, load ${loadBefore[0].toFixed(2)} -> ${loadAfter[0].toFixed(2)})`);
  console.log(`(static baseline = mean of a run before and after the others: ${round(staticRuns[0].rps, 0)} and ${round(staticRuns[1].rps, 0)} req/s${staticDrift > 0.15 ? `; they differ by ${Math.round(staticDrift * 100)}%: outside load, repeat on a quiet machine` : ""}; tenant holds ${tenantRows} products)`);
  const cpuLines = [];
  for (const t of targets) {
    const r = results[t.name];
    const goal = t.name === "productById" ? ` (goal >= ${GOAL_READ_RATIO}: ${goals.productReadRatio.met ? "met" : "NOT met"})` : "";
    const bad = r.non2xx || r.errors || r.timeouts ? `  [${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts]` : "";
    console.log(`${pad(t.label + ":", 34)}${lpad(r.rps, 6)} req/s  p50 ${lpad(r.p50Ms, 5)} ms  p99 ${lpad(r.p99Ms, 6)} ms  ratio ${r.ratioToStatic.toFixed(2)}${goal}${bad}`);
    const drain = r.drainAfterRunMs > 1000 ? `; ${(r.drainAfterRunMs / 1000).toFixed(1)} s of queued work after the run, included` : "";
    cpuLines.push(`${pad(t.label + ":", 34)}${lpad(r.serverCpuMsPerRequest.toFixed(2), 6)} ms CPU/request  CPU ratio ${r.cpuRatioToStatic.toFixed(2)}  (server ${r.serverCpuCores.toFixed(2)} cores busy during the run${drain})`);
  }
  console.log("server CPU per request (static CPU/request divided by the route's: what the ratio would be were the server CPU-bound on a core of its own):");
  for (const l of cpuLines) console.log(`  ${l}`);
  console.log(`${pad(`cursor page at depth ${DEPTH}:`, 34)}${cursorResult.deepPageMedianMs} ms median vs first page ${cursorResult.firstPageMedianMs} ms (${tenantRows} rows, limit ${LIST_LIMIT}, ${SAMPLES} each): ${cursorResult.ratio}x (goal <= ${GOAL_DEPTH_RATIO}x: ${goals.cursorDepthRatio.met ? "met" : "NOT met"})`);
  const main = rss.processes.reduce((a, b) => (b.hwmMB > a.hwmMB ? b : a), { hwmMB: 0 });
  console.log(`${pad("server peak RSS:", 34)}${rss.peakHwmMB} MB (VmHWM of pid ${main.pid}, ${main.name}); process tree peak ${rss.peakTreeRssMB} MB over ${rss.processes.length} process(es)`);

  const out = {
    date: new Date().toISOString(),
    commit: (() => { try { return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim(); } catch { return null; } })(),
    machine: { cpus: os.cpus().length, node: process.version, loadavgBefore: loadBefore, loadavgAfter: loadAfter },
    config: { database: "sqlite", connections: CONNECTIONS, durationS: DURATION, warmupS: WARMUP, distDir: process.env.NEXT_DIST_DIR ?? ".next" },
    load: results, staticRuns: staticRuns.map((r) => ({ rps: round(r.rps, 0), p50Ms: r.p50, p99Ms: r.p99, serverCpuMsPerRequest: round(r.serverCpuMsPerRequest, 2) })), staticDrift: round(staticDrift, 2),
    settleMsBefore: settleMs, cursor: cursorResult, rss, goals,
  };
  mkdirSync("bench-results", { recursive: true });
  writeFileSync("bench-results/api.json", JSON.stringify(out, null, 2) + "\n");
  log(`wrote bench-results/api.json (${elapsed()})`);
}

let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  if (!cleaning) console.error(`[bench] failed: ${e instanceof Error ? e.stack : e}`); // not after an interrupt
  if (server && !cleaning) console.error(`[bench] server stderr (tail):\n${server.stderr().slice(-3000)}`);
} finally {
  sampler?.stop();
  await cleanup();
}
process.exit(failed ? 1 : 0);
