// bench:cluster (issue 61): what running three nodes behind haproxy costs beside one node, on the same machine. On a
// 2-core machine the three nodes share the cores one node has, so this measures the cluster's cost (the balancer's
// hop, each node's bus polling, heartbeats and job leases, three processes' caches to warm), not its scaling.
//
//   1. a fresh PostgreSQL database on the machine's server (scripts/lib/test-database.mjs; dropped at the end), the
//      machine's Redis (redis://127.0.0.1:6379, REDIS_URL overrides) under a prefix of the run's own (its keys
//      deleted at the end), a loopback upstream (scripts/bench-gateway-upstream.mjs), a provider with a public API
//      product on it and BENCH_KEYS keys (64: no per-key limit throttles GET /v1/products), a subscribed consumer;
//   2. three nodes as an operator starts them (scripts/start.mjs, one data-plane worker each, a DATA_DIR and NODE_ID
//      of their own, the same database, Redis prefix and secrets; periodic jobs on, under their leases);
//   3. interleaved rounds (BENCH_ROUNDS, 2) of three configurations, each measured alike:
//        A  one node: node 1 alone (nodes 2 and 3 frozen with SIGSTOP: they cost nothing), the load straight to it;
//        B  three nodes behind haproxy with the shipped deploy/haproxy.cfg (Debian's haproxy; started for the
//           configuration and stopped after it);
//        C  one node behind haproxy (NODE1 = NODE2 = NODE3 = node 1; nodes 2 and 3 frozen): the balancer's own cost;
//      in each: the processes' CPU at rest (BENCH_IDLE_S, 5; with the database's backends for the run's database),
//      then GET /gw/{slug}/forecast with the consumer's key and GET /v1/products with the provider's keys, each by
//      runLoad (autocannon in a process of its own, BENCH_WARMUP s of warm-up then BENCH_DURATION s measured, at
//      BENCH_CONNECTIONS connections): req/s, p50, p99, and the CPU of every node's process tree (supervisor, data
//      plane, Next) and of haproxy per request, the CPU they spend right after the run on what it queued included;
//   4. medians over the rounds; B/A (throughput) and B−A (added p50/p99), C against A and B against C; the goal
//      (issue 61): three nodes keep at least 75 % of one node's throughput. Writes bench-results/cluster.json.
// BENCH_RATE=<req/s> (and BENCH_RATE_V1, 200, for /v1): every configuration is offered the same paced load instead of as much as it takes, so the CPU a
// call compares at equal throughput (each of B's nodes then sees a third of A's node's load: what costs more a call
// at a lower load per process, batching per event-loop turn for one, shows as B's cost even at that rate).
// Environment: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_CONNECTIONS (32), BENCH_ROUNDS (2), BENCH_IDLE_S
// (5), BENCH_KEYS (64), REDIS_URL, BENCH_SKIP_BUILD=1 (the build must then be current: scripts/start.mjs would build).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated, sourceHash } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const GOAL_THROUGHPUT = 0.75; // issue 61: no more than 25 % of one node's throughput lost
const CALL_PATH = "/forecast?city=Oslo";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** scripts/start.mjs builds when the sources changed since the build: with BENCH_SKIP_BUILD=1 it must not. */
function assertBuildCurrent() {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  const want = sourceHash();
  const stamp = (file) => (existsSync(file) ? readFileSync(file, "utf8") : null);
  if (stamp(`${dist}/source-stamp`) !== want || stamp("dist/data-plane/source-stamp") !== want)
    throw new Error(
      "BENCH_SKIP_BUILD=1, but the build is older than the sources: the nodes (scripts/start.mjs) would build. Run `npm run bench:cluster` without it.",
    );
}

/** haproxy's path; installed from Debian's packages when missing and we may (as tests/helpers/cluster.ts does). */
function ensureHaproxy() {
  const found = spawnSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).stdout.trim();
  if (found) return found;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).stdout.trim();
  if (process.getuid?.() !== 0 || !apt) throw new Error("haproxy is not installed: run `apt-get install -y haproxy` as root");
  execFileSync("apt-get", ["install", "-y", "-q", "haproxy"], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdio: "ignore",
    timeout: 300_000,
  });
  return "haproxy";
}

let clockTicks;
/** user + system CPU (ms) of one process (not its children), or null when it is gone. */
function processCpuMs(pid) {
  clockTicks ??= Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(f[11]) + Number(f[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}

async function main(run) {
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
    assertBuildCurrent();
  } else prepare();
  const { makeBench, num, api, writeResults, met } = await import("./lib/bench-setup.mjs");
  const { publishAndSubscribe } = await import("./lib/bench-gateway-offer.mjs");
  const { startServer, freePort } = await import("./lib/server.mjs");
  const { createTestDatabase } = await import("./lib/test-database.mjs");
  const { runLoad, waitForIdle, cpuTimeMs, median, round } = await import("./lib/bench-util.mjs");
  const { default: Redis } = await import("ioredis");
  const { default: pg } = await import("pg");

  const DURATION = num("BENCH_DURATION", 10);
  const WARMUP = num("BENCH_WARMUP", 2);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 32));
  const RATE = process.env.BENCH_RATE ? num("BENCH_RATE", 0) : 0;
  // /v1/products is bound by PostgreSQL at a few hundred a second here: its own paced rate.
  const RATES = { gw: RATE, v1: RATE ? num("BENCH_RATE_V1", 200) : 0 };
  const ROUNDS = Math.round(num("BENCH_ROUNDS", 2));
  const IDLE_S = num("BENCH_IDLE_S", 5);
  const KEYS = Math.round(num("BENCH_KEYS", 64));
  const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const REDIS_PREFIX = `bench-cluster-${Date.now()}-${randomBytes(3).toString("hex")}:`;

  const bench = (run.bench = makeBench("bench:cluster"));
  const { log } = bench;
  const loadBefore = bench.loadInfo();
  const haproxyBin = ensureHaproxy();
  try {
    // ---------------------------------------------------------------- set-up: Redis, PostgreSQL, upstream
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    redis.on("error", () => {});
    await redis.connect();
    await redis.ping();
    bench.onCleanup(async () => {
      let cursor = "0";
      let deleted = 0;
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${REDIS_PREFIX}*`, "COUNT", 1000);
        if (keys.length) deleted += await redis.del(...keys);
        cursor = next;
      } while (cursor !== "0");
      redis.disconnect();
      log(`deleted ${deleted} Redis keys under ${REDIS_PREFIX}`);
    });

    const db = await createTestDatabase("postgresql");
    bench.onCleanup(() => db.drop());
    const dbName = new URL(db.url).pathname.slice(1);
    log(`PostgreSQL database ${dbName}, Redis ${REDIS_URL} with prefix ${REDIS_PREFIX}`);
    // The database's backends (by pid) for their CPU at rest; this connection's own excluded.
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    bench.onCleanup(() => sql.end());
    const backendCpu = async () => {
      const { rows } = await sql.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [dbName]);
      return new Map(rows.map((r) => [r.pid, processCpuMs(r.pid)]).filter(([, ms]) => ms !== null));
    };

    const started = async (opts) => {
      const s = await startServer(opts);
      bench.onCleanup(() => s.stop());
      return s;
    };
    const upstream = await started({ script: "scripts/bench-gateway-upstream.mjs" });
    log(`upstream on ${upstream.url}`);

    const dbEnv = { DATABASE_URL: db.url, KEY_HASH_SECRET: bench.KEY_HASH_SECRET };
    const provider = bench.bootstrap(dbEnv, "Cluster bench provider");
    const consumer = bench.bootstrap(dbEnv, "Cluster bench consumer");

    // ---------------------------------------------------------------- three nodes
    const nodeEnv = {
      ...dbEnv,
      REDIS_URL,
      REDIS_PREFIX,
      NEXTAUTH_SECRET: `bench-${randomBytes(24).toString("base64url")}`,
      DATA_PLANE_WORKERS: "1",
      ALLOW_PRIVATE_URLS: "true",
    };
    const frozen = new Set();
    const freeze = async (node) => {
      if (frozen.has(node)) return;
      await waitForIdle(node.child.pid, { timeoutMs: 10_000 });
      process.kill(-node.child.pid, "SIGSTOP");
      frozen.add(node);
    };
    const thaw = (node) => {
      if (!frozen.delete(node)) return;
      process.kill(-node.child.pid, "SIGCONT");
    };
    const startNode = async (i) => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `bench-cluster-node${i}-`));
      bench.onCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
      const s = await startServer({
        script: "scripts/start.mjs",
        env: { ...nodeEnv, NODE_ID: `bench-${i}`, DATA_DIR: dataDir },
        startTimeoutMs: 180_000,
      });
      const node = { ...s, id: `bench-${i}`, dataDir };
      // A frozen node's SIGTERM would wait for its SIGCONT.
      bench.onCleanup(async () => {
        thaw(node);
        await s.stop();
      });
      return node;
    };
    const t0 = Date.now();
    const nodes = await Promise.all([1, 2, 3].map(startNode));
    log(
      `nodes ${nodes.map((n) => `${n.id} on ${n.url} (pid ${n.child.pid})`).join(", ")}, up in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    const offer = await publishAndSubscribe({
      url: nodes[0].url,
      provider,
      consumer,
      upstreamUrl: `${upstream.url}/v1`,
      rateLimit: { limit: 1_000_000_000, windowSeconds: 60 },
    });
    const keys = [provider.testKey];
    while (keys.length < KEYS) {
      const r = await api(`${nodes[0].url}/v1/api-keys`, {
        method: "POST",
        key: provider.testKey,
        body: { name: `bench ${keys.length}`, scopes: ["products:read"] },
      });
      keys.push(r.data.key);
    }
    log(`offer /gw/${offer.slug}, ${keys.length} provider keys`);
    const loads = {
      gw: {
        label: `GET /gw/{slug}${CALL_PATH}`,
        requests: [{ method: "GET", path: `/gw/${offer.slug}${CALL_PATH}`, headers: { authorization: `Bearer ${consumer.testKey}` } }],
      },
      v1: {
        label: "GET /v1/products",
        requests: keys.map((k) => ({ method: "GET", path: "/v1/products", headers: { authorization: `Bearer ${k}` } })),
      },
    };
    // Each node answers both before anything is measured (its caches, a first call's connections).
    for (const n of nodes)
      for (const l of Object.values(loads)) {
        const r = await fetch(`${n.url}${l.requests[0].path}`, { headers: l.requests[0].headers });
        const text = await r.text();
        if (r.status !== 200) throw new Error(`${n.id}: ${l.label} answered ${r.status}: ${text.slice(0, 300)}`);
      }

    // ---------------------------------------------------------------- haproxy, per configuration
    async function startBalancer(addresses) {
      const port = await freePort();
      const env = { ...process.env, LB_BIND: "127.0.0.1", LB_PORT: String(port) };
      addresses.forEach((a, i) => (env[`NODE${i + 1}`] = a));
      // Its log (one line a request, `log stdout`) goes to /dev/null: written as in production, read by no one.
      const child = spawn(haproxyBin, ["-f", "deploy/haproxy.cfg", "-db"], { env, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (d) => (stderr = (stderr + d).slice(-20_000)));
      const stop = () =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        });
      bench.onCleanup(stop);
      const url = `http://127.0.0.1:${port}`;
      // In rotation: every node named answers /readyz through it, and 6 answers in a row are 200.
      const want = new Set(addresses.map((a) => nodes.find((n) => n.url.endsWith(a)).id));
      const deadline = Date.now() + 30_000;
      let seen = new Set();
      let ok = 0;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${stderr}`);
        const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) })
          .then(async (res) => ({ status: res.status, body: await res.json().catch(() => null) }))
          .catch(() => null);
        if (r?.status === 200) {
          ok++;
          seen.add(r.body?.node);
        } else {
          ok = 0;
          seen = new Set();
        }
        if (ok >= 6 && [...want].every((id) => seen.has(id))) break;
        if (Date.now() > deadline) throw new Error(`haproxy did not put ${[...want].join(", ")} in rotation: ${stderr}`);
        await sleep(r?.status === 200 ? 20 : 200);
      }
      return { url, pid: child.pid, stop };
    }

    const address = (n) => `127.0.0.1:${n.port}`;
    const configs = [
      { key: "A", name: "one node", nodes: [nodes[0]], balancer: null },
      { key: "B", name: "three nodes behind haproxy", nodes, balancer: nodes.map(address) },
      { key: "C", name: "one node behind haproxy", nodes: [nodes[0]], balancer: [1, 2, 3].map(() => address(nodes[0])) },
    ];

    async function enter(cfg) {
      for (const n of nodes) if (!cfg.nodes.includes(n)) await freeze(n);
      for (const n of cfg.nodes) thaw(n);
      for (const n of cfg.nodes) {
        const deadline = Date.now() + 30_000;
        while ((await fetch(`${n.url}/readyz`).catch(() => null))?.status !== 200) {
          if (Date.now() > deadline) throw new Error(`${n.id} is not ready 30 s after SIGCONT`);
          await sleep(100);
        }
      }
      const lb = cfg.balancer ? await startBalancer(cfg.balancer) : null;
      return { url: lb?.url ?? cfg.nodes[0].url, lb, pids: [...cfg.nodes.map((n) => n.child.pid), ...(lb ? [lb.pid] : [])] };
    }
    const settle = async (pids) => {
      for (const pid of pids) await waitForIdle(pid, { timeoutMs: 15_000 });
    };
    const cpuOf = (pids) => pids.map((pid) => cpuTimeMs(pid));

    /** CPU at rest, ms a second: the configuration's processes (nodes' trees, haproxy) and the database's backends. */
    async function atRest(cfg, live) {
      await settle(live.pids);
      const before = cpuOf(live.pids);
      const pgBefore = await backendCpu();
      const t = performance.now();
      await sleep(IDLE_S * 1000);
      const after = cpuOf(live.pids);
      const pgAfter = await backendCpu();
      const s = (performance.now() - t) / 1000;
      const nodesMs = cfg.nodes.reduce((sum, _, i) => sum + after[i] - before[i], 0);
      const lbMs = live.lb ? after.at(-1) - before.at(-1) : 0;
      let pgMs = 0;
      for (const [pid, ms] of pgAfter) pgMs += ms - (pgBefore.get(pid) ?? 0);
      return { nodesMsPerS: nodesMs / s, balancerMsPerS: lbMs / s, databaseMsPerS: pgMs / s };
    }

    /** One measured load; CPU of every node's tree and haproxy's, what they spend right after it included. */
    async function measure(cfg, live, name) {
      const load = loads[name];
      await settle(live.pids);
      const [first, ...others] = live.pids;
      const r = await runLoad({
        url: live.url,
        requests: load.requests,
        connections: CONNECTIONS,
        duration: DURATION,
        warmup: WARMUP,
        ...(RATE ? { overallRate: RATES[name] } : {}),
        cpuPid: first,
        otherPids: Object.fromEntries(others.map((pid) => [String(pid), pid])),
      });
      const atEnd = cpuOf(live.pids);
      await settle(live.pids);
      const deferred = cpuOf(live.pids).map((ms, i) => ms - atEnd[i]);
      const cpuMs = live.pids.map((pid, i) => (i === 0 ? r.serverCpuMs : r.otherCpuMs[String(pid)]) + deferred[i]);
      const nodesMs = cpuMs.slice(0, cfg.nodes.length).reduce((a, b) => a + b, 0);
      const lbMs = live.lb ? cpuMs.at(-1) : 0;
      const out = {
        rps: r.rps,
        p50: r.p50,
        p99: r.p99,
        total: r.total,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
        nodesCpuMsPerRequest: nodesMs / r.total,
        balancerCpuMsPerRequest: lbMs / r.total,
        cpuMsPerRequest: (nodesMs + lbMs) / r.total,
        perNodeCpuMs: cpuMs.slice(0, cfg.nodes.length).map((ms) => round(ms, 0)),
        generatorCpuMsPerRequest: r.generatorCpuMs / r.total,
        machineBusyCores: r.machineBusyCores,
      };
      log(
        `${cfg.key} (${cfg.name}), ${load.label}: ${Math.round(out.rps)} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ` +
          `CPU ${out.nodesCpuMsPerRequest.toFixed(3)} ms a request in the nodes + ${out.balancerCpuMsPerRequest.toFixed(3)} in haproxy` +
          (cfg.nodes.length > 1 ? ` (by node: ${out.perNodeCpuMs.join(", ")} ms)` : "") +
          `, ${r.machineBusyCores?.toFixed(2) ?? "?"} cores busy`,
      );
      if (r.non2xx || r.errors || r.timeouts) {
        const codes = Object.entries(r.statusCodes ?? {})
          .map(([code, v]) => `${code}: ${v.count}`)
          .join(", ");
        log(`WARNING: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.total} (status codes ${codes})`);
      }
      return out;
    }

    // ---------------------------------------------------------------- interleaved rounds
    const runs = Object.fromEntries(configs.map((c) => [c.key, { rest: [], gw: [], v1: [] }]));
    for (let round_ = 1; round_ <= ROUNDS; round_++) {
      for (const cfg of configs) {
        log(`round ${round_}/${ROUNDS}: ${cfg.key}, ${cfg.name}`);
        const live = await enter(cfg);
        try {
          const rest = await atRest(cfg, live);
          log(
            `${cfg.key} at rest: nodes ${rest.nodesMsPerS.toFixed(1)} ms CPU a second, haproxy ${rest.balancerMsPerS.toFixed(1)}, ` +
              `the database's backends ${rest.databaseMsPerS.toFixed(1)}`,
          );
          runs[cfg.key].rest.push(rest);
          for (const name of Object.keys(loads)) runs[cfg.key][name].push(await measure(cfg, live, name));
        } finally {
          await live.lb?.stop();
        }
      }
    }
    for (const n of nodes) thaw(n);

    // ---------------------------------------------------------------- report
    const med = (list, k) => median(list.map((x) => x[k]));
    const summary = {};
    for (const cfg of configs) {
      summary[cfg.key] = { name: cfg.name, rest: {}, loads: {} };
      for (const k of ["nodesMsPerS", "balancerMsPerS", "databaseMsPerS"]) summary[cfg.key].rest[k] = round(med(runs[cfg.key].rest, k), 1);
      for (const name of Object.keys(loads)) {
        const list = runs[cfg.key][name];
        summary[cfg.key].loads[name] = {
          rps: round(med(list, "rps"), 0),
          p50: med(list, "p50"),
          p99: med(list, "p99"),
          cpuMsPerRequest: round(med(list, "cpuMsPerRequest"), 3),
          nodesCpuMsPerRequest: round(med(list, "nodesCpuMsPerRequest"), 3),
          balancerCpuMsPerRequest: round(med(list, "balancerCpuMsPerRequest"), 3),
          machineBusyCores: round(med(list, "machineBusyCores"), 2),
          runs: list.map((r) => Math.round(r.rps)),
          non2xx: list.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
        };
      }
    }
    const compare = (x, y) =>
      Object.fromEntries(
        Object.keys(loads).map((name) => {
          const a = summary[y].loads[name];
          const b = summary[x].loads[name];
          return [
            name,
            {
              throughput: round(b.rps / a.rps, 3),
              addedP50Ms: round(b.p50 - a.p50, 2),
              addedP99Ms: round(b.p99 - a.p99, 2),
              cpuRatio: round(b.cpuMsPerRequest / a.cpuMsPerRequest, 3),
            },
          ];
        }),
      );
    const ratios = { BvsA: compare("B", "A"), CvsA: compare("C", "A"), BvsC: compare("B", "C") };

    const pad = (s, n) => String(s).padEnd(n);
    const lpad = (s, n) => String(s).padStart(n);
    console.log(
      `\nbench:cluster, ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s measured, medians of ${ROUNDS} interleaved round(s); ` +
        `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), load at the start ${loadBefore.map((l) => l.toFixed(2)).join(" ")}`,
    );
    console.log(
      `  ${pad("configuration", 34)}${pad("load", 34)}${lpad("req/s", 8)}${lpad("p50", 7)}${lpad("p99", 7)}  CPU ms a request (nodes + haproxy)`,
    );
    for (const cfg of configs)
      for (const [name, l] of Object.entries(loads)) {
        const s = summary[cfg.key].loads[name];
        console.log(
          `  ${pad(`${cfg.key} ${cfg.name}`, 34)}${pad(l.label, 34)}${lpad(s.rps, 8)}${lpad(s.p50, 7)}${lpad(s.p99, 7)}  ` +
            `${s.cpuMsPerRequest.toFixed(3)} (${s.nodesCpuMsPerRequest.toFixed(3)} + ${s.balancerCpuMsPerRequest.toFixed(3)}), runs ${s.runs.join(" / ")}`,
        );
      }
    console.log("  at rest, ms of CPU a second (nodes, haproxy, the database's backends):");
    for (const cfg of configs) {
      const r = summary[cfg.key].rest;
      console.log(`    ${pad(`${cfg.key} ${cfg.name}`, 32)}${r.nodesMsPerS} + ${r.balancerMsPerS} + ${r.databaseMsPerS}`);
    }
    const signed = (n) => `${n >= 0 ? "+" : ""}${n}`;
    const pct = (x) => `${Math.round(x * 100)}%`;
    const goals = {};
    for (const [name, l] of Object.entries(loads)) {
      const b = ratios.BvsA[name];
      const c = ratios.CvsA[name];
      if (RATE) {
        // Paced: every configuration was offered the same load, so throughput says nothing; the CPU a call does.
        console.log(
          `${l.label} at ${RATES[name]} req/s offered to each: CPU a request, three nodes against one ×${b.cpuRatio}, ` +
            `haproxy and one node against one node ×${c.cpuRatio}; ${signed(b.addedP50Ms)} ms p50, ${signed(b.addedP99Ms)} ms p99 (no goal: paced)`,
        );
        continue;
      }
      goals[name] = b.throughput >= GOAL_THROUGHPUT;
      console.log(
        `${l.label}: three nodes on one 2-core machine: ${pct(b.throughput)} of one node's throughput (goal: no more than 25% lost), ` +
          `${signed(b.addedP50Ms)} ms p50, ${signed(b.addedP99Ms)} ms p99, CPU a request ×${b.cpuRatio} — ${met(goals[name])}; ` +
          `haproxy alone (C): ${pct(c.throughput)}, ${signed(c.addedP50Ms)} ms p50, ${signed(c.addedP99Ms)} ms p99`,
      );
    }
    const failed = Object.values(summary).reduce((n, s) => n + Object.values(s.loads).reduce((m, l) => m + l.non2xx, 0), 0);
    if (failed) console.log(`WARNING: ${failed} answers were not 2xx (or failed) over all runs`);
    const file = writeResults(RATE ? "cluster-paced" : "cluster", {
      rate: RATE || null,
      duration: DURATION,
      warmup: WARMUP,
      connections: CONNECTIONS,
      rounds: ROUNDS,
      idleSeconds: IDLE_S,
      keys: KEYS,
      cpuModel: os.cpus()[0]?.model ?? null,
      loadAtStart: loadBefore,
      goal: { throughputBvsA: GOAL_THROUGHPUT },
      goalsMet: goals,
      summary,
      ratios,
      runs,
    });
    log(`wrote ${file}`);
  } finally {
    await bench.cleanup();
  }
}

const run = { bench: null };
main(run).catch(async (e) => {
  console.error(e);
  await run.bench?.cleanup();
  process.exit(1);
});
