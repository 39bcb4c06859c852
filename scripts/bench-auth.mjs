// `npm run bench:auth`: the cost of API key authentication.
//   1. in process (scripts/bench-auth-inproc.ts under tsx): p50/p99 of BENCH_AUTH_CALLS (100,000) verifyApiKey
//      calls on a cache hit, fresh SQLite DB, one key from createApiKey (goal p99 < 0.2 ms)
//   2. through the built server: GET /v1/products/{id} (authenticated, rate limited, metered) requests/s against
//      the static GET /api/health, as bench-api measures it (goal ratio >= 0.5), with server CPU per request
// Prints a summary and writes bench-results/auth.json. Always stops the server and drops the database.
// Environment: BENCH_AUTH_CALLS (100000), BENCH_DURATION (s, 8), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (16).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const GOAL_P99_MS = 0.2;
const GOAL_RATIO = 0.5;

async function main() {
  // BENCH_SKIP_BUILD=1: use the build already in NEXT_DIST_DIR even if sources changed since (e.g. while others edit).
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, tsxJson, api, writeResults, met, readRatio } = await import("./lib/bench-setup.mjs");
  const { round } = await import("./lib/bench-util.mjs");
  const CALLS = Math.round(num("BENCH_AUTH_CALLS", 100_000));
  const DURATION = num("BENCH_DURATION", 8);
  const WARMUP = num("BENCH_WARMUP", 2);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 16));
  const b = makeBench("bench-auth");
  try {
    const loadBefore = b.loadInfo();
    const db = await b.freshDb();
    const boot = b.bootstrap(db.env);
    b.log(`database ${db.file}, business ${boot.businessId}`);

    // ---- 1. in process
    b.log(`timing ${CALLS} verifyApiKey calls in process`);
    const inproc = tsxJson("scripts/bench-auth-inproc.ts", {
      ...db.env,
      BENCH_BUSINESS_ID: boot.businessId,
      BENCH_PROJECT_ID: boot.projectId,
      BENCH_AUTH_CALLS: String(CALLS),
    });
    b.log(`verifyApiKey p50 ${inproc.p50Ms.toFixed(4)} ms, p99 ${inproc.p99Ms.toFixed(4)} ms`);

    // ---- 2. through the server
    const server = await b.server(db.env);
    b.log(`server on ${server.url}, pid ${server.child.pid}`);
    const created = await api(`${server.url}/v1/products`, {
      method: "POST",
      key: boot.testKey,
      body: { name: "Bench auth product", type: "API", description: "bench", industries: ["benchmarks"], interfaces: { hasAPI: true } },
    });
    const productId = created.data?.id ?? created.id;
    b.log(`loading static vs GET /v1/products/{id}: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s each`);
    const r = await readRatio({
      serverUrl: server.url,
      pid: server.child.pid,
      key: boot.testKey,
      productId,
      duration: DURATION,
      warmup: WARMUP,
      connections: CONNECTIONS,
    });

    const goals = {
      verifyP99: { goal: `< ${GOAL_P99_MS} ms`, value: round(inproc.p99Ms, 4), met: inproc.p99Ms < GOAL_P99_MS },
      productReadRatio: { goal: `>= ${GOAL_RATIO}`, value: round(r.ratio, 2), met: r.ratio >= GOAL_RATIO },
    };
    const p = r.productById;
    console.log("");
    console.log(
      `Auth benchmark (SQLite, ${CONNECTIONS} connections, ${DURATION} s after ${WARMUP} s warm-up; load ${loadBefore[0].toFixed(2)} -> ${(await import("node:os")).loadavg()[0].toFixed(2)})`,
    );
    console.log(
      `verifyApiKey, cache hit, ${CALLS} calls: p50 ${inproc.p50Ms.toFixed(4)} ms  p90 ${inproc.p90Ms.toFixed(4)} ms  p99 ${inproc.p99Ms.toFixed(4)} ms  p99.9 ${inproc.p999Ms.toFixed(3)} ms  max ${inproc.maxMs.toFixed(2)} ms  CPU ${(inproc.cpuMsPerCall * 1000).toFixed(1)} us/call (goal p99 < ${GOAL_P99_MS} ms: ${met(goals.verifyP99.met)})`,
    );
    console.log(`  (first call, cache miss with one query: ${inproc.cacheMissMs.toFixed(2)} ms)`);
    console.log(
      `static GET /api/health:           ${round(r.static.rps, 0)} req/s (runs ${r.static.runs.map((x) => round(x, 0)).join(" / ")})  p50 ${round(r.static.p50, 1)} ms  p99 ${round(r.static.p99, 1)} ms  CPU ${r.static.serverCpuMsPerRequest.toFixed(2)} ms/request`,
    );
    console.log(
      `GET /v1/products/{id}:            ${round(p.rps, 0)} req/s  p50 ${round(p.p50, 1)} ms  p99 ${round(p.p99, 1)} ms  CPU ${p.serverCpuMsPerRequest.toFixed(2)} ms/request${p.non2xx ? `  [${p.non2xx} non-2xx]` : ""}`,
    );
    console.log(
      `ratio ${r.ratio.toFixed(2)} (goal >= ${GOAL_RATIO}: ${met(goals.productReadRatio.met)}); CPU ratio ${r.cpuRatio.toFixed(2)} (static CPU/request over the read's: the ratio on an unloaded core)`,
    );
    const file = writeResults("auth", {
      settings: { calls: CALLS, durationS: DURATION, warmupS: WARMUP, connections: CONNECTIONS },
      verifyApiKey: inproc,
      load: {
        static: r.static,
        productById: {
          rps: p.rps,
          p50: p.p50,
          p99: p.p99,
          serverCpuMsPerRequest: p.serverCpuMsPerRequest,
          total: p.total,
          non2xx: p.non2xx,
          errors: p.errors,
          drainMs: p.drainMs,
        },
        ratio: r.ratio,
        cpuRatio: r.cpuRatio,
      },
      goals,
    });
    console.log(`written ${file}`);
  } finally {
    await b.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[bench-auth] failed: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
