// Shared set-up for bench-auth / bench-limits / bench-portal: a fresh SQLite DB, an enterprise business from the
// operator CLI, servers with the same KEY_HASH_SECRET, cleanup on exit or signal, and small output helpers.
// Import only after prepare() (installed packages are needed).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { startServer } from "./server.mjs";
import { createTestDatabase } from "./test-database.mjs";
import { runLoad, cpuTimeMs } from "./bench-util.mjs";

export const num = (name, fallback) => {
  const raw = process.env[name];
  const n = raw === undefined || raw === "" ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
};

export const TSX = "node_modules/.bin/tsx";

export function makeBench(name) {
  const t0 = Date.now();
  const log = (msg) => console.log(`[${name}] ${msg} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  const servers = [];
  const cleanups = [];
  const databases = [];
  let cleaning;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const child of runLoad.children) child.kill("SIGKILL");
      for (const fn of cleanups.reverse())
        await Promise.resolve()
          .then(fn)
          .catch((e) => console.error(`cleanup: ${e.message}`));
      for (const s of servers) await s.stop().catch((e) => console.error(`stopping a server: ${e.message}`));
      for (const d of databases) await d.drop().catch((e) => console.error(`dropping a database: ${e.message}`));
    })();
    return cleaning;
  };
  for (const sig of ["SIGINT", "SIGTERM"]) {
    process.on(sig, () => {
      console.error(`\n[${name}] ${sig}: stopping servers and dropping the database`);
      cleanup().finally(() => process.exit(130));
    });
  }
  const KEY_HASH_SECRET = `bench-${randomBytes(24).toString("base64url")}`;
  return {
    log,
    cleanup,
    KEY_HASH_SECRET,
    onCleanup: (fn) => cleanups.push(fn),
    loadInfo() {
      const l = os.loadavg();
      log(
        `${os.cpus().length} cores, load average ${l.map((x) => x.toFixed(2)).join(" ")}; dist dir ${process.env.NEXT_DIST_DIR ?? ".next"}`,
      );
      if (l[0] > os.cpus().length * 0.5)
        log(`WARNING: the machine is busy (1-min load ${l[0].toFixed(2)}); figures will be lower and noisier`);
      return l;
    },
    async freshDb() {
      const database = await createTestDatabase("sqlite");
      databases.push(database);
      const env = { DATABASE_URL: database.url, KEY_HASH_SECRET };
      return { url: database.url, file: database.url.slice("file:".length), env };
    },
    bootstrap(env, business = "Bench") {
      const out = execFileSync(
        TSX,
        ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", business, "--plan", "enterprise", "--json"],
        {
          env: { ...process.env, ...env },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "inherit"],
        },
      );
      return JSON.parse(out.trim().split("\n").at(-1));
    },
    async server(env) {
      const s = await startServer({ env: { JOBS_IN_SERVER: "false", ...env } });
      servers.push(s);
      return s;
    },
  };
}

/** Runs a tsx script with extra env; returns the last stdout line parsed as JSON. */
export function tsxJson(script, env, { timeoutMs = 600_000 } = {}) {
  const out = execFileSync(TSX, ["--conditions=react-server", script], {
    env: { ...process.env, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split("\n").at(-1));
}

export async function api(url, { method = "GET", key, body, headers = {} } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

export function writeResults(name, data) {
  mkdirSync("bench-results", { recursive: true });
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return null;
    }
  })();
  const file = `bench-results/${name}.json`;
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        commit,
        cores: os.cpus().length,
        loadAverage: os.loadavg(),
        distDir: process.env.NEXT_DIST_DIR ?? ".next",
        ...data,
      },
      null,
      2,
    ) + "\n",
  );
  return file;
}

export const met = (ok) => (ok ? "goal met" : "NOT met");

/** A product read load vs the static route, as bench-api measures it (server CPU per request included). */
export async function readRatio({ serverUrl, pid, key, productId, duration, warmup, connections }) {
  const { waitForIdle } = await import("./bench-util.mjs");
  const targets = [
    { name: "static", url: `${serverUrl}/api/health`, headers: {} },
    { name: "productById", url: `${serverUrl}/v1/products/${productId}`, headers: { Authorization: `Bearer ${key}` } },
  ];
  for (const t of targets) await runLoad({ url: t.url, headers: t.headers, connections, duration: warmup, warmup: 0 });
  const res = {};
  const one = async (t) => {
    await waitForIdle(pid);
    const r = await runLoad({ url: t.url, headers: t.headers, connections, duration, warmup, cpuPid: pid });
    const cpuEnd = cpuTimeMs(pid);
    r.drainMs = await waitForIdle(pid);
    r.deferredCpuMs = cpuTimeMs(pid) - cpuEnd;
    r.serverCpuMs += r.deferredCpuMs;
    r.serverCpuMsPerRequest = r.serverCpuMs / r.total;
    return r;
  };
  const s1 = await one(targets[0]);
  res.productById = await one(targets[1]);
  const s2 = await one(targets[0]);
  res.static = {
    rps: (s1.rps + s2.rps) / 2,
    runs: [s1.rps, s2.rps],
    p50: (s1.p50 + s2.p50) / 2,
    p99: Math.max(s1.p99, s2.p99),
    serverCpuMsPerRequest: (s1.serverCpuMs + s2.serverCpuMs) / (s1.total + s2.total),
    total: s1.total + s2.total,
    non2xx: s1.non2xx + s2.non2xx,
  };
  res.ratio = res.productById.rps / res.static.rps;
  res.cpuRatio = res.static.serverCpuMsPerRequest / res.productById.serverCpuMsPerRequest;
  return res;
}

/** A function turning a Date into the same representation the Prisma adapter used for `sample` (as bench-api). */
export function dateEncoderLike(sample) {
  if (typeof sample === "number" || typeof sample === "bigint") return (d) => d.getTime();
  if (typeof sample !== "string") throw new Error(`unexpected DateTime storage in SQLite: ${typeof sample} ${sample}`);
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(sample)) return (d) => d.toISOString();
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/.test(sample)) return (d) => d.toISOString().replace("Z", "+00:00");
  if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/.test(sample)) return (d) => d.toISOString().replace("T", " ").replace("Z", "");
  if (/^\d+$/.test(sample)) return (d) => String(d.getTime());
  throw new Error(`unrecognised DateTime storage in SQLite: '${sample}'`);
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** lib/ids.ts's format: prefix + 10 chars of milliseconds + 16 random chars, Crockford base32. */
export function timeOrderedId(prefix, ms) {
  let time = "";
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) time = CROCKFORD[t % 32] + time;
  const rnd = Array.from(randomBytes(16), (b) => CROCKFORD[b & 31]).join("");
  return `${prefix}_${time}${rnd}`;
}

/** Polls `sql` (better-sqlite3) until it returns a row, e.g. one the server's recorder writes after a flush. */
export async function waitForRow(Database, file, sql, params = [], timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sqlite = new Database(file, { readonly: true });
    try {
      const row = sqlite.prepare(sql).get(...params);
      if (row) return row;
    } finally {
      sqlite.close();
    }
    if (Date.now() > deadline) throw new Error(`no row for ${sql} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
