// `npm run bench:portal`: server render time and shipped JavaScript of the portal's seven views.
//   1. fresh SQLite DB; a user with their own business (scripts/bench-portal-seed.ts: createUserWithBusiness) and a
//      test key; a few API calls so the recorder writes a RequestLog and a UsageRollup row, whose storage format
//      the seeder copies; then BENCH_PORTAL_EVENTS (100,000) events' worth of hourly rollups over 30 days and
//      BENCH_PORTAL_LOGS (10,000) request logs inserted straight into SQLite
//   2. sign in through next-auth's credentials callback (csrf token + cookie), keeping the session cookie
//   3. each view: p50 of BENCH_PORTAL_SAMPLES (10) sequential GETs after 2 warm-ups (goal < 300 ms), and the
//      JavaScript it ships: every <script src> under /_next/static, fetched, gzipped (zlib) and summed
//      (goal < 250 KB gzip; /portal/docs excepted)
// Prints a table and writes bench-results/portal.json. Always stops the server and drops the database.
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const VIEWS = ["/portal", "/portal/keys", "/portal/webhooks", "/portal/usage", "/portal/logs", "/portal/docs", "/portal/settings"];
const GOAL_RENDER_MS = 300;
const GOAL_JS_KB = 250;

/** A tiny cookie jar: name -> value, from Set-Cookie headers. */
class Jar {
  map = new Map();
  take(res) {
    for (const c of res.headers.getSetCookie?.() ?? []) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(c) || value === "") this.map.delete(name);
      else this.map.set(name, value);
    }
  }
  header() {
    return [...this.map].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

async function main() {
  // BENCH_SKIP_BUILD=1: use the build already in NEXT_DIST_DIR even if sources changed since (e.g. while others edit).
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, tsxJson, writeResults, met, dateEncoderLike, timeOrderedId, waitForRow } = await import("./lib/bench-setup.mjs");
  const { median, percentile, round, cpuTimeMs } = await import("./lib/bench-util.mjs");
  const { default: Database } = await import("better-sqlite3");
  const EVENTS = Math.round(num("BENCH_PORTAL_EVENTS", 100_000));
  const LOGS = Math.round(num("BENCH_PORTAL_LOGS", 10_000));
  const SAMPLES = Math.round(num("BENCH_PORTAL_SAMPLES", 10));
  const b = makeBench("bench-portal");
  try {
    const loadBefore = b.loadInfo();
    const db = await b.freshDb();
    const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
    const password = `Bench-${randomBytes(9).toString("base64url")}`;
    const seed = tsxJson("scripts/bench-portal-seed.ts", { ...db.env, BENCH_EMAIL: email, BENCH_PASSWORD: password });
    b.log(`database ${db.file}, user ${seed.userId}, project ${seed.projectId}`);
    const server = await b.server({ ...db.env, ROLLUP_FLUSH_MS: "300", USAGE_FLUSH_MS: "100" });
    b.log(`server on ${server.url}, pid ${server.child.pid}`);

    // ---- rows written by the API, to copy the storage format from
    for (const p of ["/v1/products?limit=1", "/v1/products/prod_doesnotexist"]) {
      await fetch(`${server.url}${p}`, { headers: { Authorization: `Bearer ${seed.key}` } }).then((r) => r.text());
    }
    const logSample = await waitForRow(
      Database,
      db.file,
      `SELECT * FROM "RequestLog" WHERE "projectId" = ? ORDER BY "timestamp" DESC LIMIT 1`,
      [seed.projectId],
    );
    const rollSample = await waitForRow(Database, db.file, `SELECT * FROM "UsageRollup" WHERE "projectId" = ? LIMIT 1`, [seed.projectId]);
    const encLog = dateEncoderLike(logSample.timestamp);
    const encHour = dateEncoderLike(rollSample.hour);

    // ---- seeding
    const seedStart = Date.now();
    const sqlite = new Database(db.file);
    let rollupRows = 0;
    try {
      sqlite.pragma("busy_timeout = 10000");
      const cols = (s) => Object.keys(s);
      const ins = (table, s) =>
        sqlite.prepare(
          `INSERT INTO "${table}" (${cols(s)
            .map((c) => `"${c}"`)
            .join(", ")}) VALUES (${cols(s)
            .map((c) => `@${c}`)
            .join(", ")})`,
        );
      const insLog = ins("RequestLog", logSample);
      const insRoll = ins("UsageRollup", rollSample);
      const nowMs = Date.now();
      const nowHour = Math.floor(nowMs / 3_600_000) * 3_600_000;
      const endpoints = [
        ["GET", "/v1/products"],
        ["GET", "/v1/products/{id}"],
        ["POST", "/v1/products"],
        ["GET", "/v1/prices"],
        ["GET", "/v1/usage/metrics"],
      ];
      const statuses = [
        [200, null],
        [404, "not_found"],
      ];
      const hours = 30 * 24;
      const cells = hours * endpoints.length * statuses.length;
      const perCell = Math.floor(EVENTS / cells);
      let remainder = EVENTS - perCell * cells;
      sqlite.transaction(() => {
        for (let h = 0; h < hours; h++) {
          const hourMs = nowHour - (h + 1) * 3_600_000;
          for (const [method, endpoint] of endpoints) {
            let total = perCell * statuses.length;
            while (remainder > 0 && total < perCell * statuses.length + statuses.length) {
              total++;
              remainder--;
            }
            const errors = Math.round(total * 0.1);
            for (const [statusCode, errorType] of statuses) {
              const count = statusCode === 404 ? errors : total - errors;
              if (count === 0) continue;
              const lat = 5 + (h % 40);
              insRoll.run({
                ...rollSample,
                id: timeOrderedId("rup", hourMs),
                hour: encHour(new Date(hourMs)),
                endpoint,
                method,
                statusCode,
                errorType,
                count,
                billableCount: 0,
                latencySum: count * lat,
                latencyHist: JSON.stringify({ [lat]: count }),
                requestBytes: count * 100,
                responseBytes: count * 700,
                computeMs: count * 2,
                cost: 0,
              });
              rollupRows++;
            }
          }
        }
        for (let i = 0; i < LOGS; i++) {
          const ms = nowMs - 60_000 - i * 250; // newest first, one every 250 ms
          const [method, endpoint] = endpoints[i % endpoints.length];
          const [statusCode] = statuses[i % 10 === 0 ? 1 : 0];
          insLog.run({
            ...logSample,
            id: timeOrderedId("req", ms),
            timestamp: encLog(new Date(ms)),
            method,
            endpoint,
            path: endpoint.replace("{id}", `prod_${i}`),
            statusCode,
            latency: 3 + (i % 50),
          });
        }
      })();
      sqlite.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      sqlite.close();
    }
    b.log(
      `seeded ${rollupRows} rollup rows (~${EVENTS} events over 30 days) and ${LOGS} request logs in ${((Date.now() - seedStart) / 1000).toFixed(1)} s`,
    );

    // ---- sign in
    const jar = new Jar();
    const csrfRes = await fetch(`${server.url}/api/auth/csrf`);
    jar.take(csrfRes);
    const { csrfToken } = await csrfRes.json();
    const signIn = await fetch(`${server.url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.header() },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${server.url}/portal`, json: "true" }),
    });
    jar.take(signIn);
    await signIn.text();
    if (![...jar.map.keys()].some((k) => k.includes("session-token")))
      throw new Error(`sign-in gave no session cookie (status ${signIn.status}, cookies ${[...jar.map.keys()].join(", ")})`);
    b.log("signed in");

    // ---- views
    const get = async (p) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}${p}`, { headers: { Cookie: jar.header() }, redirect: "manual" });
      const text = await res.text();
      return { ms: performance.now() - t0, status: res.status, text, location: res.headers.get("location") };
    };
    const chunkCache = new Map();
    const chunkGzip = async (src) => {
      if (!chunkCache.has(src)) {
        const res = await fetch(new URL(src, server.url));
        const buf = Buffer.from(await res.arrayBuffer());
        if (!res.ok) throw new Error(`GET ${src} answered ${res.status}`);
        chunkCache.set(src, { raw: buf.length, gzip: zlib.gzipSync(buf, { level: 9 }).length });
      }
      return chunkCache.get(src);
    };
    const views = {};
    for (const v of VIEWS) {
      const first = await get(v);
      if (first.status !== 200)
        throw new Error(`GET ${v} answered ${first.status}${first.location ? ` -> ${first.location}` : ""}: not signed in?`);
      await get(v);
      const times = [];
      const cpu0 = cpuTimeMs(server.child.pid);
      for (let i = 0; i < SAMPLES; i++) {
        const r = await get(v);
        if (r.status !== 200) throw new Error(`GET ${v} answered ${r.status}`);
        times.push(r.ms);
      }
      const cpuMs = cpuTimeMs(server.child.pid) - cpu0;
      const srcs = [
        ...new Set(
          [...first.text.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)]
            .map((m) => m[1].replace(/&amp;/g, "&"))
            .filter((s) => s.includes("/_next/static/")),
        ),
      ];
      let raw = 0,
        gzip = 0;
      for (const s of srcs) {
        const c = await chunkGzip(s);
        raw += c.raw;
        gzip += c.gzip;
      }
      const sorted = [...times].sort((x, y) => x - y);
      views[v] = {
        p50Ms: median(times),
        p90Ms: percentile(sorted, 90),
        maxMs: sorted.at(-1),
        serverCpuMsPerRequest: cpuMs / SAMPLES,
        htmlKB: first.text.length / 1024,
        scripts: srcs.length,
        jsRawKB: raw / 1024,
        jsGzipKB: gzip / 1024,
      };
      b.log(`${v}: p50 ${views[v].p50Ms.toFixed(1)} ms, ${srcs.length} scripts, ${views[v].jsGzipKB.toFixed(1)} KB gzip`);
    }

    // ---- report
    const goals = {};
    console.log("");
    console.log(
      `Portal benchmark (SQLite, ${rollupRows} rollup rows ~ ${EVENTS} events, ${LOGS} request logs; ${SAMPLES} GETs per view; ${os.cpus().length} cores, load ${loadBefore[0].toFixed(2)} -> ${os.loadavg()[0].toFixed(2)})`,
    );
    console.log(
      `${"view".padEnd(18)}${"p50 ms".padStart(8)}${"p90 ms".padStart(8)}${"CPU ms/req".padStart(12)}${"HTML KB".padStart(9)}${"scripts".padStart(9)}${"JS KB".padStart(8)}${"JS gzip KB".padStart(12)}  goals`,
    );
    for (const v of VIEWS) {
      const r = views[v];
      const renderMet = r.p50Ms < GOAL_RENDER_MS;
      const jsMet = v === "/portal/docs" ? null : r.jsGzipKB < GOAL_JS_KB;
      goals[v] = {
        renderP50: { goal: `< ${GOAL_RENDER_MS} ms`, value: round(r.p50Ms, 1), met: renderMet },
        jsGzip: { goal: v === "/portal/docs" ? "excepted" : `< ${GOAL_JS_KB} KB`, value: round(r.jsGzipKB, 1), met: jsMet },
      };
      console.log(
        `${v.padEnd(18)}${r.p50Ms.toFixed(1).padStart(8)}${r.p90Ms.toFixed(1).padStart(8)}${r.serverCpuMsPerRequest.toFixed(1).padStart(12)}${r.htmlKB.toFixed(1).padStart(9)}${String(r.scripts).padStart(9)}${r.jsRawKB.toFixed(1).padStart(8)}${r.jsGzipKB.toFixed(1).padStart(12)}  render ${met(renderMet)}; JS ${jsMet === null ? "excepted" : met(jsMet)}`,
      );
    }
    const allRender = VIEWS.every((v) => goals[v].renderP50.met);
    const allJs = VIEWS.every((v) => goals[v].jsGzip.met !== false);
    console.log(
      `all views p50 < ${GOAL_RENDER_MS} ms: ${met(allRender)}; all views (docs excepted) JS < ${GOAL_JS_KB} KB gzip: ${met(allJs)}`,
    );
    const file = writeResults("portal", { settings: { EVENTS, LOGS, SAMPLES, rollupRows }, views, goals, summary: { allRender, allJs } });
    console.log(`written ${file}`);
  } finally {
    await b.cleanup();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(`[bench-portal] failed: ${e?.stack ?? e}`);
    process.exit(1);
  },
);
