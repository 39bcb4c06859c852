// The supervisor `npm start` ends in (after installing, migrating and building): two kinds of process, as Kong's and
// APISIX's data and control planes are separate.
//   data plane   data-plane.mjs, DATA_PLANE_WORKERS node:cluster workers sharing PORT on HOST: /v1, OAuth's
//                endpoints, /gw, /healthz, /readyz; every other path streamed to Next. The first worker also runs
//                the jobs and the webhook worker.
//   next         next-server.mjs on 127.0.0.1:NEXT_PRIVATE_PORT (a free port unless set): the portal and the pages.
// A page's connection goes from a worker to Next and back through here (PAGE_CONNECTIONS, scripts/lib/connection-handoff.mjs):
// this process passes the socket on over the other IPC channel and never reads from it.
// A process that dies is started again after a back-off (0.5 s, doubling to 15 s); more than CRASH_LOOP_LIMIT
// deaths of one kind in a minute is a crash loop: the supervisor says so and stops everything (exit 1). SIGTERM or
// SIGINT drains both (each finishes its requests in flight and flushes its queues) before the supervisor exits.
// Each line a child prints is prefixed with its name. Needs installed packages and a build: scripts/start.mjs.
import cluster from "node:cluster";
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { createInterface } from "node:readline";
import { serverNodeFlags } from "./lib/server-flags.mjs";
import { freePort } from "./lib/server.mjs";
import { redisConfigured } from "./lib/redis-settings.mjs";
import { holdStill, pageConnectionsSetting, portalUnavailableAnswer } from "./lib/connection-handoff.mjs";

const CRASH_LOOP_LIMIT = Number(process.env.CRASH_LOOP_LIMIT ?? 5);
const CRASH_WINDOW_MS = 60_000;

/** How many data-plane workers to run, or the sentence that says why the setting cannot be honoured. */
export function dataPlaneWorkers(env = process.env, cores = availableParallelism()) {
  const redis = redisConfigured(env);
  const raw = env.DATA_PLANE_WORKERS?.trim();
  if (!raw) return { workers: redis ? cores : 1 };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) return { error: `DATA_PLANE_WORKERS must be a whole number of at least 1, not "${raw}".` };
  if (n > 1 && !redis)
    return {
      error: `DATA_PLANE_WORKERS=${n} needs REDIS_URL (or REDIS_SENTINELS): without Redis each worker would keep its own rate-limit windows and quotas, so plan limits would be ${n} times too generous.`,
    };
  return { workers: n };
}

/** DATA_PLANE_IDLE_RELEASE_MS: how long a data-plane process waits without a request before it gives back the memory
 * its last burst grew (lib/server/idle-memory.ts): 6000 ms unless set, 0 turns it off; or the sentence that says why
 * the setting cannot be honoured. */
export function idleReleaseQuietMs(env = process.env) {
  const raw = env.DATA_PLANE_IDLE_RELEASE_MS?.trim();
  if (!raw) return { ms: 6000 };
  const ms = Number(raw);
  if (!Number.isFinite(ms) || ms < 0)
    return { error: `DATA_PLANE_IDLE_RELEASE_MS must be a number of milliseconds (0 turns it off), not "${raw}".` };
  return { ms };
}

function prefixLines(stream, name, out) {
  if (!stream) return;
  createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => out.write(`[${name}] ${line}\n`));
}

/** next-server.mjs's exit code when its private port was taken (EADDRINUSE is errno 98 on Linux). */
const NEXT_PORT_TAKEN = 98;

/**
 * `membership`: this node's place in the cluster (scripts/lib/cluster-node.mjs's joinCluster), beaten every
 * HEARTBEAT_MS and marked draining, then removed, when the supervisor stops; null when started without one.
 */
export async function serve({ membership = null } = {}) {
  const plan = dataPlaneWorkers();
  const idleRelease = idleReleaseQuietMs();
  const pageConnections = pageConnectionsSetting();
  for (const refused of [plan.error, idleRelease.error, pageConnections.error].filter(Boolean)) {
    console.error(`[supervisor] ${refused}`);
    process.exit(1);
  }
  const pinnedNextPort = Number(process.env.NEXT_PRIVATE_PORT) || 0;
  let nextPort = pinnedNextPort || (await freePort());
  const env = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: process.env.NODE_ENV ?? "production",
    NEXT_PRIVATE_PORT: String(nextPort),
    // How many data-plane workers answer a request to write their queued usage (lib/usage/flush-everywhere.ts).
    DATA_PLANE_WORKER_COUNT: String(plan.workers),
    DATA_PLANE_IDLE_RELEASE_MS: String(idleRelease.ms),
    // Names this supervisor's processes on the local bus, which other deployments on the same database share.
    PLATFORM_DEPLOYMENT_ID: randomBytes(8).toString("hex"),
    PLATFORM_INTERNAL_TOKEN: randomBytes(24).toString("base64url"),
  };
  if (membership) {
    env.NODE_ID = membership.node.id;
    const { HEARTBEAT_MS } = await import("./lib/cluster-node.mjs");
    setInterval(() => void membership.beat(), HEARTBEAT_MS).unref();
  }
  let stopping = false;
  const deaths = { "data-plane": [], next: [] };

  /** Counts a death of `kind`; true when it is a crash loop. */
  function crashLoop(kind) {
    const now = Date.now();
    deaths[kind] = deaths[kind].filter((t) => now - t < CRASH_WINDOW_MS);
    deaths[kind].push(now);
    return deaths[kind].length > CRASH_LOOP_LIMIT;
  }
  const backoff = (kind) => Math.min(15_000, 500 * 2 ** Math.max(0, deaths[kind].length - 1));

  function died(kind, name, code, signal, restart) {
    if (stopping) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (crashLoop(kind)) {
      console.error(
        `[supervisor] ${name} died (${how}) ${deaths[kind].length} times within a minute: a crash loop. Giving up; stopping everything.`,
      );
      void stop("crash loop", 1);
      return;
    }
    const wait = backoff(kind);
    console.error(`[supervisor] ${name} died (${how}); starting it again in ${wait} ms`);
    // Not unref'd: while every child is down, this timer is what keeps the supervisor alive.
    setTimeout(() => stopping || restart(), wait);
  }

  // Next: a plain child with an IPC channel (it exits when the channel closes, i.e. when this process is gone).
  let nextChild = null;
  // Whether Next takes page connections: from its "next-ready" to its exit, unless PAGE_CONNECTIONS=stream.
  let nextTakesConnections = false;
  function tellWorkers(worker) {
    const message = { type: "next-connections", on: nextTakesConnections };
    for (const w of worker ? [worker] : slots.values()) if (w.isConnected()) w.send(message);
  }
  // A page's connection from a worker, passed on to Next; when Next cannot take it, the client gets the data plane's
  // 502 from here.
  function toNextProcess(message, socket) {
    holdStill(socket);
    const child = nextChild;
    if (!nextTakesConnections || !child?.connected) return portalUnavailableAnswer(socket, message.head, "next is not running");
    // Only what Next needs (node adds the sending server's key to a message that carries one of its connections).
    child.send({ type: message.type, head: message.head }, socket, { keepOpen: false }, (err) => {
      if (err) portalUnavailableAnswer(socket, message.head, err.message);
      else socket.destroy();
    });
  }
  // A connection Next gives back, to the next worker in turn.
  let nextSlot = 0;
  function toWorker(socket) {
    holdStill(socket);
    const workers = [...slots.values()].filter((w) => w.isConnected());
    if (workers.length === 0) return socket.destroy();
    const worker = workers[nextSlot++ % workers.length];
    worker.send({ type: "connection-back" }, socket, { keepOpen: false }, () => socket.destroy());
  }
  const nextPriority = nextCpuPriority();
  function startNext() {
    const command = [process.execPath, ...serverNodeFlags(), "next-server.mjs"];
    const [file, ...args] = [...nextPriority, ...command];
    nextChild = spawn(file, args, { env, stdio: ["ignore", "pipe", "pipe", "ipc"] });
    prefixLines(nextChild.stdout, "next", process.stdout);
    prefixLines(nextChild.stderr, "next", process.stderr);
    const child = nextChild;
    child.on("message", (m, handle) => {
      if (m?.type === "next-ready") {
        nextTakesConnections = pageConnections.handoff;
        tellWorkers();
      }
      if (m?.type === "connection-back" && handle) toWorker(handle);
    });
    child.on("exit", async (code, signal) => {
      nextTakesConnections = false;
      tellWorkers();
      // Its port was taken between our choice and its listen: another port, told to the workers, and at once.
      if (code === NEXT_PORT_TAKEN && !pinnedNextPort && !stopping) {
        nextPort = await freePort();
        env.NEXT_PRIVATE_PORT = String(nextPort);
        for (const worker of slots.values()) worker.send({ type: "next-port", port: nextPort });
        console.error(`[supervisor] next's port was taken; next on 127.0.0.1:${nextPort} now`);
        if (!crashLoop("next")) return startNext();
      }
      died("next", "next", code, signal, startNext);
    });
  }

  // The data plane: node:cluster workers; the primary (this process) holds the port and hands connections to them.
  // DATA_PLANE_NODE_FLAGS: more node flags for the data-plane workers only (a benchmark's --cpu-prof, say).
  const dataPlaneFlags = (process.env.DATA_PLANE_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
  // --expose-gc: for the idle release alone (lib/server/idle-memory.ts).
  cluster.setupPrimary({
    exec: "data-plane.mjs",
    execArgv: [...serverNodeFlags(), "--expose-gc", ...dataPlaneFlags],
    silent: true,
  });
  const slots = new Map(); // slot number → worker
  function startWorker(slot) {
    const worker = cluster.fork({
      ...env,
      DATA_PLANE_SLOT: String(slot),
      DATA_PLANE_BACKGROUND: slot === 1 ? "true" : "false",
      // One glibc malloc arena rather than one per thread (up to 8 per core): the SQLite thread, V8's compiler and
      // GC helpers and libuv's pool each kept an arena of their own, 55 MB between them after bench:gateway's load,
      // mostly freed but never returned. One arena: RSS after the load 15 MB lower (158 against 173 MB), with no
      // throughput cost the benchmark could tell from its noise (four interleaved rounds, 2026-11-29). Set it to
      // run glibc's default.
      MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? "1",
      // glibc's mmap threshold held at its first value, 128 KB: a block that large is mapped for itself and given back
      // when freed. Left to glibc, the threshold rises to the size of any mapped block freed (up to 32 MB), and from
      // then on blocks under it come from the arena, where what one long-lived block pins stays the process's: after
      // repeated bench:gateway loads the arena held 41–43 MB left to glibc, 27–28 with the threshold held in one run
      // of three loads and 37 in another of four (2026-11-30, docs/benchmarks.md): a help, not a cure, at no cost the
      // runs could see (main thread 114.0 against 112.3 µs a call, four interleaved rounds each). Set it to choose
      // another size.
      MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? "131072",
    });
    slots.set(slot, worker);
    const name = plan.workers > 1 ? `data-plane:${slot}` : "data-plane";
    prefixLines(worker.process.stdout, name, process.stdout);
    prefixLines(worker.process.stderr, name, process.stderr);
    worker.on("exit", (code, signal) => {
      if (slots.get(slot) === worker) slots.delete(slot);
      died("data-plane", name, code, signal, () => startWorker(slot));
    });
  }

  async function stop(why, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    console.log(`[supervisor] ${why}: draining the data plane and Next`);
    // A load balancer takes the node out first: /readyz answers 503 "draining" for DRAIN_GRACE_MS (default 0) while
    // the node still serves, then every process finishes what it has in flight and stops.
    await membership?.draining();
    for (const w of slots.values()) if (w.isConnected()) w.send({ type: "draining" });
    const grace = Math.max(0, Number(process.env.DRAIN_GRACE_MS) || 0);
    if (grace > 0 && exitCode === 0) await new Promise((r) => setTimeout(r, grace));
    const children = [...[...slots.values()].map((w) => w.process), nextChild].filter(
      (c) => c && c.exitCode === null && c.signalCode === null,
    );
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) => {
            c.once("exit", resolve);
            c.kill("SIGTERM");
            setTimeout(() => c.kill("SIGKILL"), 15_000).unref();
          }),
      ),
    );
    await membership?.leave();
    process.exit(exitCode);
  }
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  // Under `npm start`, a SIGTERM sent to npm never gets here: npm (11) runs the script through `sh -c`, and the signal
  // ends npm and that shell, leaving this process to serve on as an orphan that holds the port, never drained. So when
  // the process that started it goes away, the node stops as on SIGTERM, drain included. Only under npm's `start`
  // (npm_lifecycle_event): a supervisor started by hand or by a service manager keeps its parent's choice.
  if (process.env.npm_lifecycle_event === "start") {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) void stop("npm start ended");
    }, 250).unref();
  }

  // GET /metrics: a worker asks, and prom-client's AggregatorRegistry sums what every worker counted (over the
  // cluster's IPC). Loaded here, after `npm start`'s install step, as every package is.
  const { AggregatorRegistry } = await import("prom-client");
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker, m, handle) => {
    if (m?.type === "page-connection" && handle) return toNextProcess(m, handle);
    if (m?.type === "data-plane-ready") return tellWorkers(worker);
    if (m?.type !== "metrics-request") return;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: "metrics-answer", id: m.id, text }),
      (e) => worker.isConnected() && worker.send({ type: "metrics-answer", id: m.id, error: `metrics not collected: ${e.message}` }),
    );
  });

  console.log(
    `[supervisor] data plane: ${plan.workers} worker${plan.workers > 1 ? "s" : ""} on ${env.HOST ?? "0.0.0.0"}:${env.PORT ?? 3000}; next on 127.0.0.1:${nextPort}`,
  );
  startNext();
  for (let slot = 1; slot <= plan.workers; slot++) startWorker(slot);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { joinOrRefuse } = await import("./lib/cluster-node.mjs");
  await serve({ membership: await joinOrRefuse() });
}

/**
 * What Next is started under, so that a page render never holds a core an API call wants (NEXT_NICE):
 * - `idle` (the default): SCHED_IDLE (`chrt --idle 0`, which any user may ask for itself). The kernel runs Next
 *   only on a core no other process wants, and preempts it the moment the data plane wakes; at nice 10 it let Next
 *   finish its time slice first (EEVDF's slice protection, Linux 6.6 on), a few milliseconds the gateway's p99 paid.
 *   bench:gateway's isolation run on 2026-11-29 (2-core VM, three runs each, interleaved): the gateway's p99 while
 *   pages rendered 10.8, 14.1 and 15.0 ms against 17.2, 17.0 and 19.1 at nice 10. Next still gets every idle cycle;
 *   only a deployment whose data plane holds every core (it is then at capacity) leaves pages slow.
 * - a number: that nice level (`0` runs Next like any process).
 * Where chrt or SCHED_IDLE is not available, nice 10, said once.
 */
function nextCpuPriority() {
  const setting = process.env.NEXT_NICE ?? "idle";
  if (setting === "idle") {
    if (spawnSync("chrt", ["--idle", "0", "true"], { stdio: "ignore" }).status === 0) return ["chrt", "--idle", "0"];
    console.error("[supervisor] SCHED_IDLE is not available here (chrt --idle): Next runs at nice 10");
    return ["nice", "-n", "10"];
  }
  const niceness = Number(setting);
  if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
    console.error(`[supervisor] NEXT_NICE must be "idle" or a nice level from 0 to 19 (it is "${setting}")`);
    process.exit(1);
  }
  return niceness > 0 ? ["nice", "-n", String(niceness)] : [];
}
