// `npm run bench:api`: the API server against a minimal reference server doing the same work, on one database.
//   1. prepare() (install / generate / build when needed; honours NEXT_DIST_DIR), a fresh SQLite DB, an enterprise
//      business from the operator CLI, BENCH_KEYS keys (64) so that no per-key limit throttles, 50 products
//      through the API and ~100,000 more seeded straight into SQLite (one transaction)
//   2. the platform's server (`node server.mjs`, started the usual way) and the reference server
//      (scripts/bench-api-reference.mjs: node:http + better-sqlite3, key HMAC, key row, fixed-window counter,
//      product row, envelope, request-log rows in batches) on the same file and KEY_HASH_SECRET; both must answer
//      GET /v1/products/{id} with the same `data`, and both must write a request-log row per request
//   3. from separate processes on loopback, the keys round-robin:
//        - throughput at BENCH_CONNECTIONS (32): GET /v1/products/{id} on the reference (before and after the
//          others: the mean is the baseline, the difference says how much outside load moved it), on the platform,
//          and GET /v1/products?limit=20 on the platform (those two twice, alternating, and averaged: drift weighs on
//          both alike); then the list once more over 500 cursor pages in turn, so that no page is answered from the
//          server's memory of an unchanged database; requests/s and the server process's CPU ms per request
//          (utime+stime from /proc, including the queued writes it finishes after the run)
//        - latency at a paced BENCH_RATE (200) req/s, open loop, microsecond timing: p50/p99 of each server over two
//          runs each, in the order reference, platform, platform, reference
//        - isolation (scripts/lib/bench-isolation.mjs): GET /v1/products/{id} at BENCH_RATE alone and while 4 loops
//          fetch pages Next renders (/catalog, /p/{slug} and /p/{slug}/docs of a product published for it, /docs),
//          A B B A: p50 / p99 both ways, their ratios (goals <= 1.5 and <= 2) and the pages a second the loops got
//   4. a cursor page at depth 100,000 against the first page (medians of sequential requests)
//   5. each server's RSS (VmRSS) after the run
//   6. PostgreSQL (when it answers at 127.0.0.1:5432, or BENCH_PG=1; BENCH_PG=0 skips): the platform's server on a
//      fresh PostgreSQL database, CPU per request of the single read, over its 50 API-made products in turn (plus the
//      PostgreSQL backends' CPU)
// Prints a table with the goals and writes bench-results/api.json. Always stops the servers and drops the databases.
// The platform runs without its periodic jobs (JOBS_IN_SERVER=false); the webhook worker stays. Its CPU, thread and
// memory figures are its data-plane worker's (the pid its /healthz names), not the supervisor's or Next's.
// Environment: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (32), BENCH_KEYS (64),
//   BENCH_RATE (200), BENCH_PACED_DURATION (s, BENCH_DURATION), BENCH_DEPTH (100000), BENCH_SAMPLES (50), BENCH_PG,
//   BENCH_PROFILE=1 (the platform servers run under `node --cpu-prof`, which slows them: a run for the profile, not
//   for the figures; where each measured phase spent its CPU is printed, the profiles stay in bench-results/profiles).
import { readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { fileURLToPath } from "node:url";
import { prepare } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const GOALS = { readRatio: 0.5, listRatio: 0.5, addedP50Ms: 0.3, addedP99Ms: 2, rssMB: 250, pgCpuMs: 0.5 };
const API_PRODUCTS = 50; // created through the API (the newest rows)
const EXTRA_ROWS = 1_000; // seeded beyond DEPTH, so the deep page is a full page
const LIST_LIMIT = 20;
const LIST_PAGES = 500; // the pages of the list's second run, each read afresh

const pgAnswers = () =>
  new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port: 5432, timeout: 1000 });
    s.on("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
    s.on("timeout", () => {
      s.destroy();
      resolve(false);
    });
  });

async function main() {
  prepare();
  const { makeBench, num, api, writeResults, met, dateEncoderLike, timeOrderedId } = await import("./lib/bench-setup.mjs");
  const { startServer } = await import("./lib/server.mjs");
  const { createTestDatabase } = await import("./lib/test-database.mjs");
  const { runLoad, timeSequential, startRssSampler, waitForIdle, cpuTimeMs, median, percentile, round } =
    await import("./lib/bench-util.mjs");
  const { runPaced, combinePaced } = await import("./lib/bench-paced.mjs");
  const { monotonicUs, latestProfile, summarize } = await import("./lib/bench-profile.mjs");
  const { runIsolation, startPageLoops, isolationReport, ISOLATION_GOALS } = await import("./lib/bench-isolation.mjs");
  const { default: Database } = await import("better-sqlite3");
  const { default: pg } = await import("pg");

  const DURATION = num("BENCH_DURATION", 10);
  const WARMUP = num("BENCH_WARMUP", 2);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 32));
  const KEYS = Math.round(num("BENCH_KEYS", 64));
  const RATE = num("BENCH_RATE", 200);
  const PACED_DURATION = num("BENCH_PACED_DURATION", DURATION);
  const DEPTH = Math.round(num("BENCH_DEPTH", 100_000));
  const SAMPLES = Math.round(num("BENCH_SAMPLES", 50));
  const PROFILE = process.env.BENCH_PROFILE === "1";
  const PG = process.env.BENCH_PG === "0" ? false : process.env.BENCH_PG === "1" ? true : await pgAnswers();

  const bench = (run.bench = makeBench("bench:api"));
  const { log } = bench;
  bench.onCleanup(() => {
    for (const c of runPaced.children) c.kill("SIGKILL");
    for (const c of startPageLoops.children) c.kill("SIGKILL");
  });
  const loadBefore = bench.loadInfo();
  const profileDir = (name) => path.resolve("bench-results/profiles", `${new Date().toISOString().replace(/[:.]/g, "-")}-${name}`);
  const profileArgs = (dir) => (PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${dir}`] : []);
  // The platform's figures are its data-plane worker's (s.pid, from /healthz; s.child.pid is the supervisor's), and
  // the profiling flags reach that worker through the supervisor's DATA_PLANE_NODE_FLAGS.
  const startPlatform = async (env, profiles) => {
    const s = await startServer({
      env: { JOBS_IN_SERVER: "false", DATA_PLANE_NODE_FLAGS: profileArgs(profiles).join(" "), ...env },
    });
    bench.onCleanup(() => s.stop());
    return s;
  };
  const windows = {}; // phase → [start, end) on the monotonic clock, to cut it out of the profile

  // ---------------------------------------------------------------- helpers

  /** The bootstrap key plus KEYS-1 more made through the API (scope products:read), all of the same business. */
  async function makeKeys(url, first) {
    const keys = [first];
    while (keys.length < KEYS) {
      const r = await api(`${url}/v1/api-keys`, {
        method: "POST",
        key: first,
        body: { name: `bench ${keys.length}`, scopes: ["products:read"] },
      });
      if (!r.data?.key?.startsWith("sk_")) throw new Error(`POST /v1/api-keys returned no key: ${JSON.stringify(r).slice(0, 300)}`);
      keys.push(r.data.key);
    }
    return keys;
  }
  async function createProducts(url, key) {
    const ids = [];
    for (let i = 0; i < API_PRODUCTS; i++) {
      const r = await api(`${url}/v1/products`, {
        method: "POST",
        key,
        body: {
          name: `Bench product ${i}`,
          type: ["SaaS", "API", "Data", "Headless"][i % 4],
          description: `Benchmark product number ${i}`,
          industries: ["benchmarks"],
          interfaces: { hasAPI: true },
        },
      });
      ids.push(r.data.id);
    }
    return ids;
  }
  // One path, or several taken in turn with the keys (every path and every key at least once).
  const requestsFor = (pathname, keys) => {
    const paths = Array.isArray(pathname) ? pathname : [pathname];
    return Array.from({ length: Math.max(keys.length, paths.length) }, (_, i) => ({
      method: "GET",
      path: paths[i % paths.length],
      headers: { authorization: `Bearer ${keys[i % keys.length]}` },
    }));
  };

  /** A load at CONNECTIONS on an idle server; CPU it spends after the run on work the run queued is counted too. */
  async function measure(label, server, pathname, keys) {
    const waited = await waitForIdle(server.pid);
    if (waited > 1000) log(`server busy for ${(waited / 1000).toFixed(1)} s before ${label} (queued writes of the previous load)`);
    log(`${label}: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s`);
    const r = await runLoad({
      url: server.url,
      requests: requestsFor(pathname, keys),
      connections: CONNECTIONS,
      duration: DURATION,
      warmup: WARMUP,
      cpuPid: server.pid,
    });
    windows[label] = [monotonicUs() - DURATION * 1e6, monotonicUs()];
    const cpuAtEnd = cpuTimeMs(server.pid);
    r.drainMs = await waitForIdle(server.pid);
    r.deferredCpuMs = cpuTimeMs(server.pid) - cpuAtEnd;
    r.serverCpuMs += r.deferredCpuMs;
    r.serverCpuMsPerRequest = r.serverCpuMs / r.total;
    if (r.non2xx || r.errors || r.timeouts) {
      const codes = Object.entries(r.statusCodes ?? {})
        .map(([code, v]) => `${code}: ${v.count}`)
        .join(", ");
      log(`WARNING: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.total} (status codes ${codes})`);
    }
    return r;
  }
  async function paced(label, server, pathname, keys) {
    await waitForIdle(server.pid);
    log(`${label}: ${RATE} req/s paced, ${WARMUP} s warm-up + ${PACED_DURATION} s`);
    const r = await runPaced({
      url: server.url,
      requests: requestsFor(pathname, keys),
      rate: RATE,
      duration: PACED_DURATION,
      warmup: WARMUP,
      cpuPid: server.pid,
    });
    windows[`${label} paced`] = [monotonicUs() - PACED_DURATION * 1e6, monotonicUs()];
    if (r.non2xx || r.errors) log(`WARNING: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.sent}`);
    return r;
  }
  const vmRssMB = (pid) => {
    try {
      return round(Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024, 1);
    } catch {
      return null;
    }
  };
  const logRows = (file) => {
    const s = new Database(file, { readonly: true });
    try {
      return s.prepare(`SELECT COUNT(*) AS n FROM "RequestLog"`).get().n;
    } finally {
      s.close();
    }
  };

  // ---------------------------------------------------------------- SQLite: set-up

  const sqliteDb = await bench.freshDb();
  const boot = bench.bootstrap(sqliteDb.env);
  log(`database ${sqliteDb.file}, business ${boot.businessId} (enterprise)`);
  const sqliteProfiles = profileDir("sqlite");
  const platform = (run.platform = await startPlatform(sqliteDb.env, sqliteProfiles));
  log(`platform on ${platform.url}: supervisor pid ${platform.child.pid}, data plane pid ${platform.pid}`);
  const platformRss = startRssSampler(platform.pid);
  const apiProducts = await createProducts(platform.url, boot.testKey);
  const productId = apiProducts[Math.floor(API_PRODUCTS / 2)];
  // One product public (a price first), for the isolation run's /p/{slug} pages: the newest, neither the one the
  // loads read nor the oldest, whose row the seeder copies (slug included).
  const pageProduct = apiProducts.at(-1);
  let pageSlug = null;
  try {
    await api(`${platform.url}/v1/products/${pageProduct}/prices`, {
      method: "POST",
      key: boot.testKey,
      body: { name: "Per call", type: "usage", currency: "USD", amount: 0.001 },
    });
    const published = await api(`${platform.url}/v1/products/${pageProduct}`, {
      method: "PATCH",
      key: boot.testKey,
      body: { visibility: "public" },
    });
    pageSlug = published.data.slug;
  } catch (e) {
    log(`WARNING: could not publish a product for the /p/{slug} pages (${e.message}); the page loops fetch /catalog and /docs`);
  }
  const keys = await makeKeys(platform.url, boot.testKey);
  const environment = (await api(`${platform.url}/v1/products/${productId}`, { key: boot.testKey })).data.environment;
  log(`${API_PRODUCTS} products and ${keys.length} keys through the API`);

  const seedStart = Date.now();
  const tenantRows = seedProducts(
    Database,
    sqliteDb.file,
    { businessId: boot.businessId, environment, count: DEPTH + EXTRA_ROWS },
    { dateEncoderLike, timeOrderedId },
  );
  log(`seeded ${DEPTH + EXTRA_ROWS} products in ${((Date.now() - seedStart) / 1000).toFixed(1)} s; ${tenantRows} in the tenant`);
  const listed = await api(`${platform.url}/v1/products?limit=1`, { key: boot.testKey });
  if (listed.pagination?.total !== tenantRows)
    throw new Error(
      `the API counts ${listed.pagination?.total} products, SQLite ${tenantRows}: the seeded rows are not visible as written`,
    );

  const reference = await startServer({ script: "scripts/bench-api-reference.mjs", env: sqliteDb.env });
  bench.onCleanup(() => reference.stop());
  const referenceRss = startRssSampler(reference.child.pid);
  log(`reference server on ${reference.url}, pid ${reference.child.pid}`);
  // Same work, same answer: the reference's `data` must equal the platform's, for every key.
  const byId = `/v1/products/${productId}`;
  for (const k of [keys[0], keys.at(-1)]) {
    const [a, b] = await Promise.all([api(`${platform.url}${byId}`, { key: k }), api(`${reference.url}${byId}`, { key: k })]);
    if (!isDeepStrictEqual(a.data, b.data))
      throw new Error(`the reference answers differently:\nplatform  ${JSON.stringify(a.data)}\nreference ${JSON.stringify(b.data)}`);
  }
  const listPath = `/v1/products?limit=${LIST_LIMIT}`;

  // ---------------------------------------------------------------- SQLite: load

  // Every route once before any measurement, so the first measured one does not pay for cold code (JIT, lazily
  // loaded route modules) the others then find warm.
  log(`warming every route (${WARMUP} s each)`);
  for (const [s, p] of [
    [reference, byId],
    [platform, byId],
    [platform, listPath],
  ]) {
    await runLoad({ url: s.url, requests: requestsFor(p, keys), connections: CONNECTIONS, duration: WARMUP, warmup: 0 });
  }
  const logsBefore = logRows(sqliteDb.file);
  const ref1 = await measure("reference GET /v1/products/{id}", reference, byId, keys);
  const logsAfterRef = logRows(sqliteDb.file);
  const single1 = await measure("platform GET /v1/products/{id}", platform, byId, keys);
  const logsAfterPlatform = logRows(sqliteDb.file);
  const list1 = await measure(`platform GET ${listPath}`, platform, listPath, keys);
  // The single read and the list page twice each, alternating: the machine's speed drifts over a minute (the
  // reference's two runs have differed by a third), and alternating lets the drift weigh on both alike.
  const single2 = await measure("platform GET /v1/products/{id} (again)", platform, byId, keys);
  const list2 = await measure(`platform GET ${listPath} (again)`, platform, listPath, keys);
  const ref2 = await measure("reference GET /v1/products/{id} (again)", reference, byId, keys);
  // Each measured run's requests (warm-up included, which is not counted in `total`) left a log row.
  const logCheck = { reference: logsAfterRef - logsBefore, platform: logsAfterPlatform - logsAfterRef };
  if (logCheck.reference < ref1.total || logCheck.platform < single1.total) {
    throw new Error(
      `request-log rows missing: reference wrote ${logCheck.reference} for ${ref1.total} requests, platform ${logCheck.platform} for ${single1.total}`,
    );
  }
  /** Two runs of one load as one: mean req/s, CPU per request over both. */
  const bothRuns = (a, b) => ({
    rps: (a.rps + b.rps) / 2,
    runs: [a.rps, b.rps],
    serverCpuMs: a.serverCpuMs + b.serverCpuMs,
    serverCpuMsPerRequest: (a.serverCpuMs + b.serverCpuMs) / (a.total + b.total),
    total: a.total + b.total,
    non2xx: a.non2xx + b.non2xx,
    errors: a.errors + b.errors,
    drainMs: Math.max(a.drainMs ?? 0, b.drainMs ?? 0),
    deferredCpuMs: (a.deferredCpuMs ?? 0) + (b.deferredCpuMs ?? 0),
  });
  const refLoad = bothRuns(ref1, ref2);
  const single = bothRuns(single1, single2);
  const list = bothRuns(list1, list2);
  const refDrift = Math.abs(ref1.rps - ref2.rps) / Math.max(ref1.rps, ref2.rps);

  // A, B, B, A (bench-paced.mjs's combinePaced says why); the profile's window is the platform's second run.
  const refPaced1 = await paced("reference GET /v1/products/{id}", reference, byId, keys);
  const platformPaced1 = await paced("platform GET /v1/products/{id}", platform, byId, keys);
  const platformPaced2 = await paced("platform GET /v1/products/{id}", platform, byId, keys);
  const refPaced2 = await paced("reference GET /v1/products/{id}", reference, byId, keys);
  const refPaced = combinePaced([refPaced1, refPaced2]);
  const platformPaced = combinePaced([platformPaced1, platformPaced2]);

  // Isolation: the single read at RATE alone, and while 4 loops fetch pages Next renders (A B B A).
  const isolationPages = ["/catalog", ...(pageSlug ? [`/p/${pageSlug}`, `/p/${pageSlug}/docs`] : []), "/docs"];
  const isolation = await runIsolation({
    url: platform.url,
    requests: requestsFor(byId, keys),
    pages: isolationPages,
    loops: 4,
    rate: RATE,
    duration: PACED_DURATION,
    warmup: WARMUP,
    cpuPid: platform.pid,
    log,
  });

  // ---------------------------------------------------------------- SQLite: cursor depth

  const boundary = await api(`${platform.url}/v1/products?limit=100&offset=${DEPTH - 100}`, { key: boot.testKey });
  const cursor = boundary.pagination?.nextCursor;
  if (!cursor) throw new Error(`no nextCursor at depth ${DEPTH}`);
  const auth = { Authorization: `Bearer ${boot.testKey}` };
  const firstUrl = `${platform.url}${listPath}`;
  const deepUrl = `${firstUrl}&cursor=${encodeURIComponent(cursor)}`;
  const deepPage = await api(deepUrl, { key: boot.testKey });
  const expectedId = idAtDepth(Database, sqliteDb.file, { businessId: boot.businessId, environment, index: DEPTH });
  if (deepPage.data?.[0]?.id !== expectedId)
    throw new Error(`the deep page starts at ${deepPage.data?.[0]?.id}, expected row ${DEPTH} (${expectedId})`);
  await waitForIdle(platform.pid);
  await timeSequential(firstUrl, { n: 5, headers: auth });
  await timeSequential(deepUrl, { n: 5, headers: auth });
  const firstTimes = [];
  const deepTimes = [];
  for (let i = 0; i < SAMPLES; i++) {
    // interleaved, so drift affects both alike
    firstTimes.push(...(await timeSequential(firstUrl, { n: 1, headers: auth })));
    deepTimes.push(...(await timeSequential(deepUrl, { n: 1, headers: auth })));
  }
  const cursorResult = {
    depth: DEPTH,
    limit: LIST_LIMIT,
    samples: SAMPLES,
    tenantRows,
    firstPageMedianMs: round(median(firstTimes), 2),
    deepPageMedianMs: round(median(deepTimes), 2),
    deepPageP90Ms: round(
      percentile(
        [...deepTimes].sort((a, b) => a - b),
        90,
      ),
      2,
    ),
  };
  cursorResult.ratio = round(cursorResult.deepPageMedianMs / cursorResult.firstPageMedianMs, 2);

  // ---------------------------------------------------------------- SQLite: memory after the run

  await waitForIdle(platform.pid);
  const rss = {
    platform: { vmRssMB: vmRssMB(platform.pid), ...platformRss.stop() },
    reference: { vmRssMB: vmRssMB(reference.child.pid), ...referenceRss.stop() },
  };
  // Last, after the figures above (so that its garbage is not collected in the paced runs, nor counted in the RSS
  // the goal is about, which earlier sessions measured here too): the list again, but a different page each
  // request (LIST_PAGES cursor pages taken in turn). No page is asked twice between two commits (the request logs
  // are committed every few milliseconds), so none is answered from the server's memory of an unchanged database
  // (lib/db/sqlite-direct.ts, readUnchanged). Not a goal: what a page costs when it has to be read.
  const pagePaths = [listPath];
  while (pagePaths.length < LIST_PAGES) {
    const page = await api(`${platform.url}${pagePaths.at(-1)}`, { key: boot.testKey });
    if (!page.pagination?.nextCursor) throw new Error(`no nextCursor after ${pagePaths.length} pages`);
    pagePaths.push(`${listPath}&cursor=${encodeURIComponent(page.pagination.nextCursor)}`);
  }
  const listPages = await measure(`platform GET ${listPath}, ${LIST_PAGES} pages in turn`, platform, pagePaths, keys);
  await reference.stop();
  await platform.stop();

  // ---------------------------------------------------------------- PostgreSQL

  let pgResult = null;
  if (PG) {
    const database = await createTestDatabase("postgresql");
    bench.onCleanup(() => database.drop());
    const env = { DATABASE_URL: database.url, KEY_HASH_SECRET: bench.KEY_HASH_SECRET };
    const pgBoot = bench.bootstrap(env);
    const pgProfiles = profileDir("postgresql");
    const server = await startPlatform(env, pgProfiles);
    log(`PostgreSQL: database ${new URL(database.url).pathname.slice(1)}, data plane pid ${server.pid}`);
    // Every product made, in turn: the server reads the ids asked for in one turn of its event loop with one query
    // (lib/db/pg-direct.ts), and one product for every request would let each such query read a single row.
    const pgProducts = await createProducts(server.url, pgBoot.testKey);
    const pgKeys = await makeKeys(server.url, pgBoot.testKey);
    const pgPath = pgProducts.map((id) => `/v1/products/${id}`);
    await runLoad({ url: server.url, requests: requestsFor(pgPath, pgKeys), connections: CONNECTIONS, duration: WARMUP, warmup: 0 });
    // The PostgreSQL backends serving this database are processes of their own: their CPU is reported beside.
    const admin = new pg.Client({ connectionString: process.env.PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" });
    await admin.connect();
    const backends = async () =>
      (await admin.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [new URL(database.url).pathname.slice(1)])).rows.map(
        (r) => r.pid,
      );
    const before = new Map((await backends()).map((pid) => [pid, cpuTimeMs(pid)]));
    const r = await measure("PostgreSQL: platform GET /v1/products/{id}", server, pgPath, pgKeys);
    let dbCpuMs = 0;
    for (const pid of await backends()) dbCpuMs += cpuTimeMs(pid) - (before.get(pid) ?? 0);
    await admin.end();
    pgResult = {
      rps: round(r.rps, 0),
      serverCpuMsPerRequest: round(r.serverCpuMsPerRequest, 3),
      serverCpuCores: round(r.serverCpuCores, 2),
      postgresCpuMsPerRequest: round(dbCpuMs / r.total, 3),
      drainMs: r.drainMs,
      total: r.total,
      non2xx: r.non2xx,
      errors: r.errors,
      vmRssMB: vmRssMB(server.pid),
    };
    await server.stop();
    if (PROFILE) pgResult.profileDir = pgProfiles;
  }
  const loadAfter = os.loadavg();

  // Where the platform's CPU went in each measured phase (the profile is written when the server exits).
  const profiles = {};
  if (PROFILE) {
    const phases = [
      [sqliteProfiles, "platform GET /v1/products/{id}"],
      [sqliteProfiles, `platform GET ${listPath}`],
      [sqliteProfiles, `platform GET ${listPath}, ${LIST_PAGES} pages in turn`],
      [sqliteProfiles, "platform GET /v1/products/{id} paced"],
      ...(pgResult ? [[pgResult.profileDir, "PostgreSQL: platform GET /v1/products/{id}"]] : []),
    ];
    for (const [dir, phase] of phases) {
      const file = latestProfile(dir);
      if (!file) {
        log(`no CPU profile in ${dir}`);
        continue;
      }
      profiles[phase] = { file, windowUs: windows[phase], ...summarize(file, ...windows[phase]) };
    }
  }

  // ---------------------------------------------------------------- report

  const row = (r) => ({
    rps: round(r.rps, 0),
    serverCpuMsPerRequest: round(r.serverCpuMsPerRequest, 3),
    total: r.total,
    non2xx: r.non2xx,
    errors: r.errors,
  });
  const pacedRow = (r) => ({
    p50Ms: round(r.p50, 3),
    p90Ms: round(r.p90, 3),
    p99Ms: round(r.p99, 3),
    maxMs: round(r.max, 2),
    sent: r.sent,
    non2xx: r.non2xx,
    errors: r.errors,
    generatorLagP99Ms: round(r.lagP99Ms, 2),
    serverCpuMsPerRequest: round(r.serverCpuMsPerRequest, 3),
  });
  const results = {
    reference: { ...row(refLoad), runs: refLoad.runs.map((x) => round(x, 0)), paced: pacedRow(refPaced), rss: rss.reference },
    productById: {
      ...row(single),
      runs: single.runs.map((x) => round(x, 0)),
      drainMs: single.drainMs,
      deferredCpuMs: round(single.deferredCpuMs, 0),
      paced: pacedRow(platformPaced),
      rss: rss.platform,
    },
    productList: {
      ...row(list),
      runs: list.runs.map((x) => round(x, 0)),
      drainMs: list.drainMs,
      deferredCpuMs: round(list.deferredCpuMs, 0),
    },
    productListPages: { ...row(listPages), pages: LIST_PAGES, drainMs: listPages.drainMs },
  };
  const readRatio = round(single.rps / refLoad.rps, 2);
  const cpuRatio = round(refLoad.serverCpuMsPerRequest / single.serverCpuMsPerRequest, 2);
  const listRatio = round(list.rps / single.rps, 2);
  const listCpuRatio = round(single.serverCpuMsPerRequest / list.serverCpuMsPerRequest, 2);
  const pagesRatio = round(listPages.rps / single.rps, 2);
  const pagesCpuRatio = round(single.serverCpuMsPerRequest / listPages.serverCpuMsPerRequest, 2);
  const addedP50 = round(platformPaced.p50 - refPaced.p50, 3);
  const addedP99 = round(platformPaced.p99 - refPaced.p99, 3);
  const goals = {
    readRatio: { goal: `>= ${GOALS.readRatio}`, value: readRatio, cpuRatio, met: readRatio >= GOALS.readRatio },
    listRatio: { goal: `>= ${GOALS.listRatio}`, value: listRatio, cpuRatio: listCpuRatio, met: listRatio >= GOALS.listRatio },
    addedP50Ms: { goal: `< ${GOALS.addedP50Ms}`, value: addedP50, met: addedP50 < GOALS.addedP50Ms },
    addedP99Ms: { goal: `< ${GOALS.addedP99Ms}`, value: addedP99, met: addedP99 < GOALS.addedP99Ms },
    rssMB: { goal: `<= ${GOALS.rssMB}`, value: rss.platform.vmRssMB, met: rss.platform.vmRssMB <= GOALS.rssMB },
    isolationP50Ratio: { goal: `<= ${ISOLATION_GOALS.p50Ratio}`, value: round(isolation.p50Ratio, 2), met: isolation.p50Met },
    isolationP99Ratio: { goal: `<= ${ISOLATION_GOALS.p99Ratio}`, value: round(isolation.p99Ratio, 2), met: isolation.p99Met },
    ...(pgResult
      ? {
          pgCpuMs: {
            goal: `<= ${GOALS.pgCpuMs}`,
            value: pgResult.serverCpuMsPerRequest,
            met: pgResult.serverCpuMsPerRequest <= GOALS.pgCpuMs,
          },
        }
      : {}),
  };

  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  const f = (n, d) => (Number.isFinite(n) ? n.toFixed(d) : "-");
  const busy = Math.max(loadBefore[0], loadAfter[0]) > os.cpus().length * 0.5;
  console.log("");
  console.log(
    `API benchmark: SQLite, ${CONNECTIONS} connections, ${keys.length} keys round-robin, ${DURATION} s after ${WARMUP} s warm-up; latency at ${RATE} req/s paced for ${PACED_DURATION} s`,
  );
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model?.trim() ?? "?"}, node ${process.version}, load average ${loadBefore.map((l) => l.toFixed(2)).join(" ")} -> ${loadAfter.map((l) => l.toFixed(2)).join(" ")}${busy ? "  (BUSY: figures are provisional)" : ""}`,
  );
  console.log(
    `reference runs before/after: ${round(ref1.rps, 0)} / ${round(ref2.rps, 0)} req/s${refDrift > 0.15 ? ` (differ by ${Math.round(refDrift * 100)}%: outside load moved them)` : ""}; tenant holds ${tenantRows} products`,
  );
  console.log(
    `platform runs, alternating: single read ${single.runs.map((x) => round(x, 0)).join(" / ")}, list ${list.runs.map((x) => round(x, 0)).join(" / ")} req/s`,
  );
  console.log(
    `${pad("", 36)}${lpad("req/s", 7)}${lpad("CPU ms/req", 12)}${lpad("p50 @" + RATE, 11)}${lpad("p99 @" + RATE, 11)}${lpad("RSS MB", 9)}`,
  );
  const line = (label, r, p, m) =>
    console.log(
      `${pad(label, 36)}${lpad(f(r.rps, 0), 7)}${lpad(f(r.serverCpuMsPerRequest, 3), 12)}${lpad(p ? f(p.p50, 3) : "", 11)}${lpad(p ? f(p.p99, 3) : "", 11)}${lpad(m ? f(m.vmRssMB, 0) : "", 9)}`,
    );
  line("reference GET /v1/products/{id}", refLoad, refPaced, rss.reference);
  line("platform  GET /v1/products/{id}", single, platformPaced, rss.platform);
  line(`platform  GET ${listPath}`, list, null, null);
  line(`  the same, ${LIST_PAGES} pages in turn`, listPages, null, null);
  if (pgResult) line("PostgreSQL platform single read", pgResult, null, pgResult);
  console.log(
    `${pad("platform vs reference", 36)}${lpad(f(readRatio, 2), 7)}${lpad(`×${f(1 / cpuRatio, 1)}`, 12)}${lpad("+" + f(addedP50, 3), 11)}${lpad("+" + f(addedP99, 3), 11)}`,
  );
  const bad = [
    ["reference", refLoad],
    ["single", single],
    ["list", list],
    ["list pages", listPages],
  ]
    .filter(([, r]) => r.non2xx || r.errors)
    .map(([n, r]) => `${n}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  if (bad.length) console.log(`WARNING: ${bad.join("; ")}`);
  console.log("goals:");
  console.log(
    `  single read / reference        >= ${GOALS.readRatio}:  ${f(readRatio, 2)} (CPU ratio ${f(cpuRatio, 2)})  ${met(goals.readRatio.met)}`,
  );
  console.log(
    `  list?limit=20 / single read    >= ${GOALS.listRatio}:  ${f(listRatio, 2)} (CPU ratio ${f(listCpuRatio, 2)}) over ${tenantRows} products  ${met(goals.listRatio.met)}`,
  );
  console.log(
    `    (${LIST_PAGES} pages in turn, each read afresh: ${f(pagesRatio, 2)} of the single read, CPU ratio ${f(pagesCpuRatio, 2)}; not a goal)`,
  );
  const runP50s = (r) => r.runs.map((x) => f(x.p50, 3)).join(" / ");
  console.log(
    `  added p50 at ${RATE} req/s        < ${GOALS.addedP50Ms} ms: ${f(addedP50, 3)} ms  ${met(goals.addedP50Ms.met)}  (p50 by run: reference ${runP50s(refPaced)}, platform ${runP50s(platformPaced)} ms)`,
  );
  console.log(
    `  added p99 at ${RATE} req/s        < ${GOALS.addedP99Ms} ms:   ${f(addedP99, 3)} ms  ${met(goals.addedP99Ms.met)}  (generator lag p99 ${f(refPaced.lagP99Ms, 2)} / ${f(platformPaced.lagP99Ms, 2)} ms)`,
  );
  // Where a paced request's CPU goes, by thread (from /proc): at this rate every request meets cold caches.
  const threadsLine = (r) => {
    const t = r.serverThreads;
    const us = (ms) => f((ms * 1000) / r.sent, 0);
    return `main ${us(t.mainUser + t.mainSys)} (${us(t.mainUser)} user + ${us(t.mainSys)} sys), busiest other thread ${us(t.busiestOther)}, rest ${us(t.rest)}`;
  };
  if (refPaced.serverThreads && platformPaced.serverThreads)
    console.log(`    CPU µs a request at ${RATE} req/s: reference ${threadsLine(refPaced)}; platform ${threadsLine(platformPaced)}`);
  for (const line of isolationReport(isolation, { what: "GET /v1/products/{id}", rate: RATE, loops: 4 })) console.log(line);
  console.log(
    `  platform RSS after the run     <= ${GOALS.rssMB} MB: ${f(rss.platform.vmRssMB, 0)} MB (peak ${f(rss.platform.peakHwmMB, 0)} MB)  ${met(goals.rssMB.met)}`,
  );
  if (pgResult)
    console.log(
      `  PostgreSQL CPU per request     <= ${GOALS.pgCpuMs} ms: ${f(pgResult.serverCpuMsPerRequest, 3)} ms in the server (+ ${f(pgResult.postgresCpuMsPerRequest, 3)} ms in PostgreSQL)  ${met(goals.pgCpuMs.met)}`,
    );
  else console.log("  PostgreSQL: skipped (nothing answers at 127.0.0.1:5432, or BENCH_PG=0)");
  console.log(
    `cursor page at depth ${DEPTH}: ${cursorResult.deepPageMedianMs} ms median vs first page ${cursorResult.firstPageMedianMs} ms: ${cursorResult.ratio}x`,
  );
  console.log(`request-log rows written during the measured runs: reference ${logCheck.reference}, platform ${logCheck.platform}`);
  for (const [phase, p] of Object.entries(profiles)) {
    console.log(`\nCPU profile, ${phase}: ${p.ms} ms busy, ${p.idleMs} ms idle (${path.relative(process.cwd(), p.file)})`);
    console.log(`  by kind:  ${p.groups.map((g) => `${g.group} ${g.share}%`).join(", ")}`);
    console.log(
      `  by area:  ${p.areas
        .slice(0, 10)
        .map((a) => `${a.area} ${a.share}%`)
        .join(", ")}`,
    );
    for (const fn of p.functions.slice(0, 12)) console.log(`  ${lpad(fn.share.toFixed(1), 5)}%  ${fn.name}  ${fn.where}`);
  }

  const file = writeResults("api", {
    machine: {
      cpus: os.cpus().length,
      model: os.cpus()[0]?.model ?? null,
      node: process.version,
      loadavgBefore: loadBefore,
      loadavgAfter: loadAfter,
    },
    config: {
      connections: CONNECTIONS,
      keys: keys.length,
      durationS: DURATION,
      warmupS: WARMUP,
      rate: RATE,
      pacedDurationS: PACED_DURATION,
      tenantRows,
    },
    load: results,
    referenceDrift: round(refDrift, 2),
    logRows: logCheck,
    cursor: cursorResult,
    isolation,
    postgres: pgResult,
    goals,
    ...(PROFILE ? { profiles } : {}),
  });
  log(`wrote ${file}`);
}

// ---------------------------------------------------------------- seeding (straight into SQLite)

/**
 * Inserts `count` products older than every existing one, in one transaction, copying the shape of a row the
 * API wrote (same columns, same JSON and DateTime encodings). Returns the number of rows in the tenant.
 */
function seedProducts(Database, file, { businessId, environment, count }, { dateEncoderLike, timeOrderedId }) {
  const sqlite = new Database(file);
  try {
    sqlite.pragma("busy_timeout = 10000");
    const sample = sqlite
      .prepare(`SELECT * FROM "Product" WHERE "businessId" = ? AND "environment" = ? ORDER BY "createdAt" ASC, "id" ASC LIMIT 1`)
      .get(businessId, environment);
    if (!sample) throw new Error("no product row to copy the storage format from");
    const encodeDate = dateEncoderLike(sample.createdAt);
    const oldest = new Date(
      typeof sample.createdAt === "string" && !/^\d+$/.test(sample.createdAt)
        ? sample.createdAt.replace(" ", "T") + (/[Z+]/.test(sample.createdAt.slice(19)) ? "" : "Z")
        : Number(sample.createdAt),
    ).getTime();
    if (!Number.isFinite(oldest)) throw new Error(`cannot read the sample createdAt '${sample.createdAt}'`);
    // Check the round trip: the encoder must reproduce the adapter's own text exactly.
    if (String(encodeDate(new Date(oldest))) !== String(sample.createdAt)) {
      throw new Error(
        `DateTime encoding mismatch: adapter wrote '${sample.createdAt}', the seeder would write '${encodeDate(new Date(oldest))}'`,
      );
    }
    const columns = Object.keys(sample);
    const insert = sqlite.prepare(
      `INSERT INTO "Product" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
    );
    const types = ["SaaS", "API", "Data", "Headless"];
    const start = oldest - (count + 1) * 1000; // one row a second, all older than the API's rows
    sqlite.transaction(() => {
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
    })();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    return sqlite.prepare(`SELECT COUNT(*) AS n FROM "Product" WHERE "businessId" = ? AND "environment" = ?`).get(businessId, environment)
      .n;
  } finally {
    sqlite.close();
  }
}

/** The id at 0-based position `index` of the default sort (-createdAt, then -id), read straight from SQLite. */
function idAtDepth(Database, file, { businessId, environment, index }) {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite
      .prepare(
        `SELECT "id" FROM "Product" WHERE "businessId" = ? AND "environment" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT 1 OFFSET ?`,
      )
      .get(businessId, environment, index)?.id;
  } finally {
    sqlite.close();
  }
}

// ---------------------------------------------------------------- run

const run = { bench: null, platform: null }; // for the cleanup and the error report
let failed = false;
try {
  await main();
} catch (e) {
  failed = true;
  console.error(`[bench:api] failed: ${e instanceof Error ? e.stack : e}`);
  if (run.platform) console.error(`[bench:api] platform server stderr (tail):\n${run.platform.stderr().slice(-3000)}`);
}
await run.bench?.cleanup(); // kills load children, stops the servers, drops the databases
process.exit(failed ? 1 : 0);
