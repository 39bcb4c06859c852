// `npm run bench:limits`: rate limiting and metering.
//   (a) limiter exactness: a key with rateLimit 100 (POST /v1/api-keys), BENCH_BURST (500) concurrent requests over
//       50 connections; the 200s must equal the policy's allowance: capacity + floor(refill/min x elapsed s / 60).
//       Memory store (one server), then Redis (two servers sharing REDIS_URL and a unique REDIS_PREFIX, requests
//       alternating between them). 429s are split by reason (the concurrent limit vs the token bucket).
//   (b) usage ingestion in one tsx process (scripts/bench-limits-ingest.ts) on a fresh SQLite DB: recordRequest at
//       BENCH_INGEST_RATE for BENCH_INGEST_SECONDS, written events/s and whether the queue grows (goal >= 5,000/s).
//       The default offer is 7,500/s: the figure is events written / (offering + final flush) time, so an offer of
//       exactly 5,000/s could never show 5,000/s written, however fast the writer.
//   (c) metrics latency: 30 days x 24 hours of UsageRollup rows worth BENCH_METRIC_EVENTS (1,000,000) events,
//       inserted straight into SQLite in the adapter's own format; p50 of 20 GET /v1/usage/metrics?period=month
//       (goal < 300 ms)
//   (d) GET /v1/products/{id} (limits and metering on) req/s against static /api/health (goal ratio >= 0.5)
// Prints a summary and writes bench-results/limits.json. Always stops the servers, drops the databases and
// deletes the Redis keys under its prefix. Redis at REDIS_URL (default redis://127.0.0.1:6379); if it does not
// answer, the Redis part is reported as skipped.
// Environment: BENCH_BURST (500), BENCH_BURST_CONNECTIONS (50), BENCH_INGEST_RATE (7500), BENCH_INGEST_SECONDS (5),
//              BENCH_METRIC_EVENTS (1000000), BENCH_METRIC_SAMPLES (20), BENCH_DURATION (s, 8), BENCH_WARMUP (2),
//              BENCH_CONNECTIONS (16), BENCH_SKIP (comma list of a,b,c,d to leave out).
import http from "node:http";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const GOAL_INGEST = 5_000;
const GOAL_METRICS_MS = 300;
const GOAL_RATIO = 0.5;
const RATE_LIMIT = 100;

/** `n` GETs fired at once through agents of `connections` sockets in total, alternating between `urls`. */
async function burst(urls, { n, connections, key, path: p }) {
  const agents = urls.map(() => new http.Agent({ keepAlive: true, maxSockets: Math.max(1, Math.floor(connections / urls.length)) }));
  // Open the sockets first, so the burst measures the limiter and not connection set-up.
  const statuses = {};
  const reasons = {};
  const t0 = performance.now();
  await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise((resolve) => {
          const u = new URL(p, urls[i % urls.length]);
          const req = http.request(u, { agent: agents[i % urls.length], headers: { Authorization: `Bearer ${key}` } }, (res) => {
            res.resume();
            res.on("end", () => {
              statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
              if (res.statusCode === 429) {
                const policy = String(res.headers["ratelimit-policy"] ?? "");
                const why = /concurrent/.test(policy)
                  ? "concurrent"
                  : /"?(minute|burst|bucket)/.test(policy)
                    ? "bucket"
                    : policy.split(";")[0] || "unknown";
                reasons[why] = (reasons[why] ?? 0) + 1;
              }
              resolve();
            });
          });
          req.on("error", (e) => {
            statuses[`error:${e.code ?? e.message}`] = (statuses[`error:${e.code ?? e.message}`] ?? 0) + 1;
            resolve();
          });
          req.end();
        }),
    ),
  );
  const elapsedS = (performance.now() - t0) / 1000;
  for (const a of agents) a.destroy();
  return { statuses, reasons429: reasons, elapsedS };
}

function exactness(r, policy) {
  const ok = r.statuses[200] ?? 0;
  const limited = r.statuses[429] ?? 0;
  // The burst starts with a full bucket; tokens refill continuously while it runs.
  const expected = Math.min(r.n, policy.capacity + Math.floor((policy.refillPerMinute * r.elapsedS) / 60));
  // The client's elapsed time (first send to last answer) is a little longer than the span of the server's
  // decisions, so the refill term can be one token high: admitting one fewer counts as exact; more never does.
  return { ...r, ok, limited, other: r.n - ok - limited, expected, diff: ok - expected, exact: ok === expected || ok === expected - 1 };
}

async function main() {
  // BENCH_SKIP_BUILD=1: use the build already in NEXT_DIST_DIR even if sources changed since (e.g. while others edit).
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, tsxJson, api, writeResults, met, readRatio, dateEncoderLike, timeOrderedId, waitForRow } =
    await import("./lib/bench-setup.mjs");
  const { timeSequential, percentile, median, round, cpuTimeMs } = await import("./lib/bench-util.mjs");
  const { default: Database } = await import("better-sqlite3");
  const BURST = Math.round(num("BENCH_BURST", 500));
  const BURST_CONN = Math.round(num("BENCH_BURST_CONNECTIONS", 50));
  const INGEST_RATE = num("BENCH_INGEST_RATE", 7_500);
  const INGEST_SECONDS = num("BENCH_INGEST_SECONDS", 5);
  const METRIC_EVENTS = Math.round(num("BENCH_METRIC_EVENTS", 1_000_000));
  const METRIC_SAMPLES = Math.round(num("BENCH_METRIC_SAMPLES", 20));
  const DURATION = num("BENCH_DURATION", 8);
  const WARMUP = num("BENCH_WARMUP", 2);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 16));
  const skip = new Set(
    (process.env.BENCH_SKIP ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const REDIS_PREFIX = `bench-limits-${Date.now()}-${randomBytes(3).toString("hex")}:`;

  const b = makeBench("bench-limits");
  const out = {
    settings: {
      BURST,
      BURST_CONN,
      INGEST_RATE,
      INGEST_SECONDS,
      METRIC_EVENTS,
      METRIC_SAMPLES,
      DURATION,
      WARMUP,
      CONNECTIONS,
      REDIS_PREFIX,
    },
  };
  const goals = {};
  try {
    const loadBefore = b.loadInfo();
    const db = await b.freshDb();
    const boot = b.bootstrap(db.env);
    b.log(`database ${db.file}, business ${boot.businessId}`);
    // ROLLUP_FLUSH_MS short, so a rollup row to copy the storage format from appears quickly.
    const server = await b.server({ ...db.env, ROLLUP_FLUSH_MS: "500" });
    b.log(`server (memory store) on ${server.url}, pid ${server.child.pid}`);
    const newLimitedKey = async (url, name) => {
      const r = await api(`${url}/v1/api-keys`, {
        method: "POST",
        key: boot.testKey,
        body: { name, scopes: ["*"], rateLimit: RATE_LIMIT },
      });
      const k = r.data?.key ?? r.key;
      if (!k || !k.startsWith("sk_")) throw new Error(`POST /v1/api-keys returned no full key: ${JSON.stringify(r).slice(0, 300)}`);
      return k;
    };
    const policy = { capacity: Math.min(20_000, RATE_LIMIT), refillPerMinute: Math.min(10_000, RATE_LIMIT) }; // keyPolicy("enterprise", 100)
    const burstPath = "/v1/products?limit=1";

    // ---- (a) memory store
    if (!skip.has("a")) {
      const key = await newLimitedKey(server.url, "bench-limits-memory");
      // one request each way warms the route and the key cache; it costs a token, so the bucket is re-created:
      // a second key, fresh bucket, used only for the burst.
      await fetch(`${server.url}${burstPath}`, { headers: { Authorization: `Bearer ${key}` } }).then((r) => r.text());
      const fresh = await newLimitedKey(server.url, "bench-limits-memory-burst");
      b.log(`(a) memory: ${BURST} requests over ${BURST_CONN} connections, key rateLimit ${RATE_LIMIT}`);
      const cpu0 = cpuTimeMs(server.child.pid);
      const r = await burst([server.url], { n: BURST, connections: BURST_CONN, key: fresh, path: burstPath });
      const cpuMs = cpuTimeMs(server.child.pid) - cpu0;
      out.memory = exactness({ n: BURST, ...r, serverCpuMsPerRequest: cpuMs / BURST }, policy);
      goals.memoryExact = { goal: "200s = allowance", value: out.memory.ok, expected: out.memory.expected, met: out.memory.exact };
      b.log(
        `(a) memory: ${out.memory.ok} x 200, ${out.memory.limited} x 429 in ${out.memory.elapsedS.toFixed(2)} s; expected ${out.memory.expected}`,
      );
    }

    // ---- (c) metrics latency over a month of rollups
    if (!skip.has("c")) {
      await fetch(`${server.url}/v1/products?limit=1`, { headers: { Authorization: `Bearer ${boot.testKey}` } }).then((r) => r.text());
      const sample = await waitForRow(Database, db.file, `SELECT * FROM "UsageRollup" WHERE "projectId" = ? LIMIT 1`, [boot.projectId]);
      const encodeDate = dateEncoderLike(sample.hour);
      const probe = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
      if (
        typeof sample.hour === "string" &&
        String(encodeDate(new Date(sample.hour.replace(" ", "T") + (/[Z+]/.test(sample.hour.slice(19)) ? "" : "Z")))) !== sample.hour
      ) {
        throw new Error(`rollup hour encoding mismatch for '${sample.hour}'`);
      }
      void probe;
      const endpoints = ["/v1/products", "/v1/products/{id}", "/v1/prices", "/v1/features", "/v1/usage/metrics"];
      const dims = [];
      for (const endpoint of endpoints)
        for (const [statusCode, errorType] of [
          [200, null],
          [201, null],
          [404, "not_found"],
          [429, "rate_limited"],
        ])
          dims.push({ endpoint, method: statusCode === 201 ? "POST" : "GET", statusCode, errorType });
      const hours = 30 * 24;
      const rowsCount = hours * dims.length * 2; // two keys
      const perRow = Math.floor(METRIC_EVENTS / rowsCount);
      let remainder = METRIC_EVENTS - perRow * rowsCount;
      const sqlite = new Database(db.file);
      const seedStart = Date.now();
      try {
        sqlite.pragma("busy_timeout = 10000");
        const columns = Object.keys(sample);
        const insert = sqlite.prepare(
          `INSERT INTO "UsageRollup" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
        );
        const nowHour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
        const tx = sqlite.transaction(() => {
          for (let h = 0; h < hours; h++) {
            const hourMs = nowHour - (h + 1) * 3_600_000;
            for (const d of dims)
              for (const k of ["key_bench_a", "key_bench_b"]) {
                const count = perRow + (remainder-- > 0 ? 1 : 0);
                const lat = 5 + (h % 30);
                const hist = { [lat]: Math.ceil(count * 0.6), [lat * 2]: count - Math.ceil(count * 0.6) };
                insert.run({
                  ...sample,
                  id: timeOrderedId("rup", hourMs),
                  hour: encodeDate(new Date(hourMs)),
                  endpoint: d.endpoint,
                  method: d.method,
                  statusCode: d.statusCode,
                  errorType: d.errorType,
                  apiKey: k,
                  principal: k,
                  count,
                  billableCount: 0,
                  latencySum: count * lat * 1.4,
                  latencyHist: JSON.stringify(hist),
                  requestBytes: count * 120,
                  responseBytes: count * 800,
                  computeMs: count * 2,
                  cost: 0,
                  compacted: typeof sample.compacted === "number" ? 1 : sample.compacted,
                });
              }
          }
        });
        tx();
        sqlite.pragma("wal_checkpoint(TRUNCATE)");
      } finally {
        sqlite.close();
      }
      b.log(`(c) seeded ${rowsCount} rollup rows = ${METRIC_EVENTS} events in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`);
      const url = `${server.url}/v1/usage/metrics?period=month`;
      const auth = { Authorization: `Bearer ${boot.testKey}` };
      const check = await api(url, { key: boot.testKey });
      const reported = check.data?.totalRequests ?? check.totalRequests ?? null;
      await timeSequential(url, { n: 3, headers: auth });
      const cpu0 = cpuTimeMs(server.child.pid);
      const times = await timeSequential(url, { n: METRIC_SAMPLES, headers: auth });
      const cpuMs = cpuTimeMs(server.child.pid) - cpu0;
      const sorted = [...times].sort((x, y) => x - y);
      out.metrics = {
        rollupRows: rowsCount,
        events: METRIC_EVENTS,
        reportedRequests: reported,
        samples: METRIC_SAMPLES,
        p50Ms: median(times),
        p90Ms: percentile(sorted, 90),
        maxMs: sorted.at(-1),
        serverCpuMsPerRequest: cpuMs / METRIC_SAMPLES,
      };
      goals.metricsP50 = { goal: `< ${GOAL_METRICS_MS} ms`, value: round(out.metrics.p50Ms, 1), met: out.metrics.p50Ms < GOAL_METRICS_MS };
      b.log(`(c) metrics p50 ${out.metrics.p50Ms.toFixed(1)} ms`);
    }

    // ---- (d) product read ratio with limits and metering on
    if (!skip.has("d")) {
      const created = await api(`${server.url}/v1/products`, {
        method: "POST",
        key: boot.testKey,
        body: { name: "Bench limits product", type: "API", description: "bench", industries: ["benchmarks"], interfaces: { hasAPI: true } },
      });
      const productId = created.data?.id ?? created.id;
      b.log(`(d) static vs GET /v1/products/{id}: ${CONNECTIONS} connections, ${WARMUP} s + ${DURATION} s each`);
      const r = await readRatio({
        serverUrl: server.url,
        pid: server.child.pid,
        key: boot.testKey,
        productId,
        duration: DURATION,
        warmup: WARMUP,
        connections: CONNECTIONS,
      });
      out.readRatio = {
        staticRps: r.static.rps,
        staticRuns: r.static.runs,
        productRps: r.productById.rps,
        ratio: r.ratio,
        cpuRatio: r.cpuRatio,
        staticCpuMsPerRequest: r.static.serverCpuMsPerRequest,
        productCpuMsPerRequest: r.productById.serverCpuMsPerRequest,
        productP50: r.productById.p50,
        productP99: r.productById.p99,
        productNon2xx: r.productById.non2xx,
      };
      goals.productReadRatio = { goal: `>= ${GOAL_RATIO}`, value: round(r.ratio, 2), met: r.ratio >= GOAL_RATIO };
    }
    await server.stop();

    // ---- (a) Redis, two servers
    if (!skip.has("a")) {
      const { default: Redis } = await import("ioredis");
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
      let redisOk = false;
      try {
        await redis.connect();
        redisOk = (await redis.ping()) === "PONG";
      } catch (e) {
        b.log(`Redis at ${REDIS_URL} does not answer (${e.message}): Redis part skipped`);
      }
      if (redisOk) {
        b.onCleanup(async () => {
          let cursor = "0";
          do {
            const [next, keys] = await redis.scan(cursor, "MATCH", `${REDIS_PREFIX}*`, "COUNT", 1000);
            if (keys.length) await redis.del(...keys);
            cursor = next;
          } while (cursor !== "0");
          redis.disconnect();
        });
        const renv = { ...db.env, REDIS_URL, REDIS_PREFIX };
        const [s1, s2] = await Promise.all([b.server(renv), b.server(renv)]);
        b.log(`(a) Redis: servers ${s1.url} (pid ${s1.child.pid}) and ${s2.url} (pid ${s2.child.pid}), prefix ${REDIS_PREFIX}`);
        const warmKey = await newLimitedKey(s1.url, "bench-limits-redis-warm");
        for (const s of [s1, s2])
          await fetch(`${s.url}${burstPath}`, { headers: { Authorization: `Bearer ${warmKey}` } }).then((r) => r.text());
        const key = await newLimitedKey(s1.url, "bench-limits-redis-burst");
        const cpu0 = cpuTimeMs(s1.child.pid) + cpuTimeMs(s2.child.pid);
        const r = await burst([s1.url, s2.url], { n: BURST, connections: BURST_CONN, key, path: burstPath });
        const cpuMs = cpuTimeMs(s1.child.pid) + cpuTimeMs(s2.child.pid) - cpu0;
        // The limiter falls back to per-process memory when a Redis command fails or takes > 1 s (fail open):
        // its warnings on the servers' stderr say whether that happened during the burst.
        const fallbackWarnings = [s1, s2].map((s) => s.stderr().match(/\[limits\] Redis unavailable[^\n]*/g) ?? []);
        out.redis = exactness({ n: BURST, ...r, serverCpuMsPerRequest: cpuMs / BURST, fallbackWarnings }, policy);
        goals.redisExact = { goal: "200s = allowance", value: out.redis.ok, expected: out.redis.expected, met: out.redis.exact };
        b.log(
          `(a) Redis: ${out.redis.ok} x 200, ${out.redis.limited} x 429 in ${out.redis.elapsedS.toFixed(2)} s; expected ${out.redis.expected}`,
        );
        await Promise.all([s1.stop(), s2.stop()]);
      } else {
        redis.disconnect();
        out.redis = { skipped: `no Redis at ${REDIS_URL}` };
      }
    }

    // ---- (b) ingestion, in process, on its own fresh database
    if (!skip.has("b")) {
      const idb = await b.freshDb();
      const iboot = b.bootstrap(idb.env, "Bench ingest");
      b.log(`(b) ingestion: ${INGEST_RATE}/s offered for ${INGEST_SECONDS} s in one process`);
      const r = tsxJson("scripts/bench-limits-ingest.ts", {
        ...idb.env,
        BENCH_BUSINESS_ID: iboot.businessId,
        BENCH_PROJECT_ID: iboot.projectId,
        BENCH_INGEST_RATE: String(INGEST_RATE),
        BENCH_INGEST_SECONDS: String(INGEST_SECONDS),
      });
      const q = r.samples.map((s) => s.usage);
      r.queueGrew = q.length >= 2 ? q.at(-1) > Math.max(q[0], 2 * 500) : r.queuedAtEnd.usage > 1000;
      out.ingest = r;
      const rate = r.flushed ? r.writtenEventsPerS : r.writtenPerSInWindow;
      goals.ingest = {
        goal: `>= ${GOAL_INGEST} events/s, queue not growing`,
        value: round(rate, 0),
        queueGrew: r.queueGrew,
        met: rate >= GOAL_INGEST && !r.queueGrew && r.flushed,
      };
    }

    // ---- report
    const loadAfter = os.loadavg();
    console.log("");
    console.log(`Limits benchmark (SQLite; ${os.cpus().length} cores, load ${loadBefore[0].toFixed(2)} -> ${loadAfter[0].toFixed(2)})`);
    const ex = (label, r) => {
      if (!r) return;
      if (r.skipped) return console.log(`${label}: skipped (${r.skipped})`);
      if (r.fallbackWarnings?.some((w) => w.length))
        console.log(
          `${label}: NOTE the limiter fell back to per-process memory (Redis failed or slower than 1 s): ${r.fallbackWarnings.map((w, i) => `server ${i + 1}: ${w.length} warning(s)${w[0] ? ` e.g. "${w[0].slice(0, 160)}"` : ""}`).join("; ")} (warnings are rate limited to one per 10 s per process)`,
        );
      console.log(
        `${label}: ${r.ok} x 200, ${r.limited} x 429${r.other ? `, ${r.other} other ${JSON.stringify(r.statuses)}` : ""} of ${r.n} in ${r.elapsedS.toFixed(2)} s; allowance ${r.expected} = ${policy.capacity} + floor(${policy.refillPerMinute}/min x ${r.elapsedS.toFixed(2)} s / 60); ${r.diff === 0 ? "exact" : r.diff > 0 ? `${r.diff} OVER` : `${-r.diff} UNDER`} (${met(r.exact)}; goal: 200s = allowance, or one fewer); 429 reasons ${JSON.stringify(r.reasons429)}; server CPU ${r.serverCpuMsPerRequest.toFixed(2)} ms/request`,
      );
    };
    ex("(a) memory store, 1 server", out.memory);
    ex("(a) Redis store, 2 servers", out.redis);
    if (out.ingest) {
      const r = out.ingest;
      if (r.flushed)
        console.log(
          `(b) ingestion: offered ${r.offered} at ${round(r.offeredRate, 0)}/s (target ${INGEST_RATE}/s); ${r.events} events + ${r.logs} logs + ${r.rollupRows} rollup rows written in ${(r.totalMs / 1000).toFixed(1)} s = ${round(r.writtenEventsPerS, 0)} events/s (final flush ${(r.flushMs / 1000).toFixed(1)} s); queue at end of offering ${r.queuedAtEnd.usage}, ${r.queueGrew ? "GREW" : "did not grow"}; CPU ${r.cpuMsPerEvent.toFixed(3)} ms/event (${met(goals.ingest.met)}, goal >= ${GOAL_INGEST}/s)`,
        );
      else
        console.log(
          `(b) ingestion: offered ${r.offered} at ${round(r.offeredRate, 0)}/s; ~${round(r.writtenPerSInWindow, 0)} events/s written while offering; the final flush did not finish within its time limit (queue ${JSON.stringify(r.queuedAfterFlushWait)}); CPU ${r.cpuMsPerEvent.toFixed(3)} ms/event (NOT met, goal >= ${GOAL_INGEST}/s)`,
        );
      console.log(`    queue samples (usage queued at each second): ${r.samples.map((s) => s.usage).join(", ")}`);
    }
    if (out.metrics)
      console.log(
        `(c) GET /v1/usage/metrics?period=month over ${out.metrics.rollupRows} rollup rows (${out.metrics.events} events; API reports ${out.metrics.reportedRequests}): p50 ${out.metrics.p50Ms.toFixed(1)} ms, p90 ${out.metrics.p90Ms.toFixed(1)} ms, max ${out.metrics.maxMs.toFixed(1)} ms over ${out.metrics.samples}; server CPU ${out.metrics.serverCpuMsPerRequest.toFixed(1)} ms/request (${met(goals.metricsP50.met)}, goal p50 < ${GOAL_METRICS_MS} ms)`,
      );
    if (out.readRatio) {
      const r = out.readRatio;
      console.log(
        `(d) GET /v1/products/{id} ${round(r.productRps, 0)} req/s (p50 ${round(r.productP50, 1)} ms, p99 ${round(r.productP99, 1)} ms${r.productNon2xx ? `, ${r.productNon2xx} non-2xx` : ""}) vs static ${round(r.staticRps, 0)} req/s (runs ${r.staticRuns.map((x) => round(x, 0)).join(" / ")}): ratio ${r.ratio.toFixed(2)} (${met(goals.productReadRatio.met)}, goal >= ${GOAL_RATIO}); CPU ${r.productCpuMsPerRequest.toFixed(2)} vs ${r.staticCpuMsPerRequest.toFixed(2)} ms/request, CPU ratio ${r.cpuRatio.toFixed(2)}`,
      );
    }
    const file = writeResults("limits", { ...out, policy, goals });
    console.log(`written ${file}`);
  } finally {
    await b.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[bench-limits] failed: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
