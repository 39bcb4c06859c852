// Helpers shared by the benchmark scripts (scripts/bench-*.mjs):
//   runLoad()          autocannon in a SEPARATE node process (so the load generator never shares an event loop
//                      with the code under test or the script's own bookkeeping), a warm-up then a measured run
//   runMeasuringChild() the load children's common part (this one's and bench-paced.mjs's): spawn, CPU from MEASURING on
//   startRssSampler()  peak memory of a process and all its descendants, from /proc
//   threadCpuMs(), threadCpuSince(), sumThreadCpu()  a process's CPU by thread (main, busiest other, the rest)
//   cpuTimeMs()        CPU time of a process tree (runLoad({cpuPid}) turns it into server CPU ms per request,
//                      a figure far less sensitive than requests/s to other work on a shared machine)
//   waitForIdle()      until a process tree stops using CPU (say, a server's queued writes are done)
//   timeSequential()   wall time of N sequential requests on one keep-alive connection
//   percentile(), median(), fmt helpers
//
// Run directly as `node scripts/lib/bench-util.mjs --autocannon` with its JSON options on stdin (a long list of
// requests does not fit in one argument) it is the load child: it prints one JSON line with the measured run's
// figures on stdout.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { cpus } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";

const SELF = fileURLToPath(import.meta.url);

// ---------------------------------------------------------------- statistics

/** The p-th percentile (0..100) of already sorted numbers, linearly interpolated. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export function median(values) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export const round = (n, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : n);

// ---------------------------------------------------------------- load generation

/**
 * Loads `url` with autocannon from a child process: `warmup` seconds (discarded), then `duration` seconds measured.
 * Returns { rps, p50, p90, p99, mean, max, total, non2xx, errors, timeouts, durationS } (latencies in ms).
 */
export function runLoad({
  url,
  connections = 16,
  duration = 10,
  warmup = 2,
  headers = {},
  method = "GET",
  body,
  timeoutS = 10,
  cpuPid,
  otherPids,
  requests,
  overallRate,
}) {
  // `requests`: autocannon's list of requests each connection cycles through (say, one per API key). `overallRate`:
  // requests a second over all connections (paced load), else as fast as the connections go.
  const opts = { url, connections, duration, warmup, headers, method, body, timeout: timeoutS, requests, overallRate };
  return runMeasuringChild(SELF, "--autocannon", opts, {
    cpuPid,
    otherPids,
    killAfterS: warmup + duration + 60,
    children: runLoad.children,
  }).then((r) => {
    if (r.serverCpuMs !== undefined) {
      r.serverCpuMsPerRequest = r.total ? r.serverCpuMs / r.total : NaN;
      r.serverCpuCores = r.serverCpuMs / (r.durationS * 1000); // average cores busy in the server
    }
    return r;
  });
}

/**
 * Runs a load child (`node script mode`, its options as JSON on stdin: a long list of requests does not fit in one
 * argument) that prints MEASURING when its warm-up ends and its figures as one JSON line last. With `cpuPid`, the
 * figures gain that process's CPU time from then on (`serverCpuMs`) and its threads' (`serverThreads`).
 */
export function runMeasuringChild(script, mode, opts, { cpuPid, otherPids = {}, killAfterS, children }) {
  let cpuStart = null;
  let threadsStart = null;
  let othersStart = null;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, mode], { stdio: ["pipe", "pipe", "pipe"] });
    child.stdin.end(JSON.stringify(opts));
    children.add(child);
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      if (cpuStart === null && cpuPid && out.includes("MEASURING\n")) {
        cpuStart = cpuTimeMs(cpuPid);
        threadsStart = threadCpuMs(cpuPid);
        othersStart = Object.fromEntries(Object.entries(otherPids).map(([name, pid]) => [name, cpuTimeMs(pid)]));
      }
    });
    child.stderr.on("data", (d) => {
      err += d;
      if (err.length > 10_000) err = err.slice(-10_000);
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), killAfterS * 1000);
    child.on("error", reject);
    child.on("exit", (code) => {
      clearTimeout(killer);
      children.delete(child);
      const line = out.trim().split("\n").at(-1);
      if (code !== 0 || !line) return reject(new Error(`${mode} child exited with ${code}: ${err.trim()}`));
      let r;
      try {
        r = JSON.parse(line);
      } catch {
        return reject(new Error(`${mode} child printed no result: ${out}${err}`));
      }
      if (cpuStart !== null) {
        r.serverCpuMs = cpuTimeMs(cpuPid) - cpuStart;
        r.serverThreads = threadCpuSince(threadsStart, threadCpuMs(cpuPid), cpuPid);
        // The other processes the run kept busy (say, the upstream behind a proxy), from MEASURING until the load
        // child exited (a moment after its measured seconds).
        r.otherCpuMs = Object.fromEntries(Object.entries(othersStart).map(([name, ms]) => [name, cpuTimeMs(otherPids[name]) - ms]));
      }
      resolve(r);
    });
  });
}

/** The entry point of a load child: `run` over the options on stdin; its result printed as one JSON line. */
export async function serveAsChild(run) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  run(JSON.parse(Buffer.concat(chunks).toString("utf8")))
    .then((r) => {
      process.stdout.write(JSON.stringify(r) + "\n");
      process.exit(0);
    })
    .catch((e) => {
      console.error(e?.stack ?? e);
      process.exit(1);
    });
}
/** Load children still running (to kill them if the parent is interrupted). */
runLoad.children = new Set();

async function autocannonChild(opts) {
  const { default: autocannon } = await import("autocannon");
  const base = {
    url: opts.url,
    connections: opts.connections,
    headers: opts.headers,
    method: opts.method,
    body: opts.body,
    timeout: opts.timeout,
    ...(opts.requests ? { requests: opts.requests } : {}),
    ...(opts.overallRate ? { overallRate: opts.overallRate } : {}),
  };
  if (opts.warmup > 0) await autocannon({ ...base, duration: opts.warmup });
  process.stdout.write("MEASURING\n");
  const machineBefore = machineCpuTicks();
  const ownBefore = process.cpuUsage();
  const r = await autocannon({ ...base, duration: opts.duration });
  const own = process.cpuUsage(ownBefore);
  const machineAfter = machineCpuTicks();
  const durationS = r.duration ?? opts.duration;
  return {
    rps: r.requests.average,
    rpsFromTotal: r.requests.total / durationS,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    mean: r.latency.average,
    max: r.latency.max,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    durationS,
    connections: opts.connections,
    statusCodes: r.statusCodeStats ?? null,
    // The load generator's own CPU (it shares the machine with what it measures), and how busy the whole machine
    // was: together they say whether a run was bounded by the server or by the machine.
    generatorCpuMs: (own.user + own.system) / 1000,
    machineBusyCores: machineAfter && machineBefore ? busyCores(machineBefore, machineAfter) : null,
  };
}

/** The machine's CPU time so far from /proc/stat's first line, in clock ticks: all of it, and the idle part. */
function machineCpuTicks() {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is counted in user already)
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { total, idle: fields[3] + fields[4] };
  } catch {
    return null;
  }
}

/** Cores busy on average between two machineCpuTicks() readings. */
function busyCores(before, after) {
  const total = after.total - before.total;
  return total > 0 ? ((total - (after.idle - before.idle)) / total) * cpus().length : null;
}

// ---------------------------------------------------------------- sequential timing

/** Wall times (ms) of `n` sequential GETs, body read included; throws on a non-2xx answer. */
export async function timeSequential(url, { n = 50, headers = {} } = {}) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers });
    const text = await res.text();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return times;
}

// ---------------------------------------------------------------- CPU and memory

let clockTicks;
/** The kernel's clock ticks a second, in which /proc counts CPU time. */
function ticksPerSecond() {
  clockTicks ??= (() => {
    try {
      return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      return 100;
    }
  })();
  return clockTicks;
}

/** User + system CPU time (ms) used so far by `rootPid` and its descendants (live ones; reaped children via cutime). */
export function cpuTimeMs(rootPid) {
  let ticks = 0;
  for (const pid of processTree(rootPid)) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]); // utime stime cutime cstime
    } catch {
      /* exited */
    }
  }
  return (ticks * 1000) / ticksPerSecond();
}

/** Each thread of `pid` (not its children): { tid: { user, sys } } in ms of CPU so far (Linux /proc). */
export function threadCpuMs(pid) {
  const perTick = 1000 / ticksPerSecond();
  const threads = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        threads[tid] = { user: Number(f[11]) * perTick, sys: Number(f[12]) * perTick };
      } catch {
        /* exited */
      }
    }
  } catch {
    /* the process is gone */
  }
  return threads;
}

/**
 * What each thread used between two threadCpuMs() readings, as the main thread's user and system time (the thread
 * whose id is `pid`: the event loop), the busiest other thread's (a worker: the gateway's SQLite thread)
 * and all the others' together (V8's GC helpers, libuv's pool), in ms.
 */
export function threadCpuSince(before, after, pid) {
  const used = Object.entries(after).map(([tid, t]) => {
    const b = before?.[tid] ?? { user: 0, sys: 0 };
    return { tid: Number(tid), user: t.user - b.user, sys: t.sys - b.sys };
  });
  const mainThread = used.find((t) => t.tid === pid) ?? { user: 0, sys: 0 };
  const others = used.filter((t) => t.tid !== pid).sort((a, b) => b.user + b.sys - (a.user + a.sys));
  const sum = (list) => list.reduce((n, t) => n + t.user + t.sys, 0);
  return { mainUser: mainThread.user, mainSys: mainThread.sys, busiestOther: sum(others.slice(0, 1)), rest: sum(others.slice(1)) };
}

/** Several threadCpuSince() figures as one (runs of one server pooled); undefined when any run has none. */
export function sumThreadCpu(list) {
  if (!list.every(Boolean)) return undefined;
  return Object.fromEntries(Object.keys(list[0]).map((k) => [k, list.reduce((n, t) => n + t[k], 0)]));
}

function readStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
    return { pid, name: /^Name:\s+(.*)$/m.exec(text)?.[1] ?? "?", rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
  } catch {
    return null; // gone
  }
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
  } catch {
    return "";
  }
}

/** `rootPid` and all its descendants (Linux /proc). */
export function processTree(rootPid) {
  const children = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  const out = [];
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * Waits until the process tree has been (nearly) idle for two consecutive `intervalMs` windows, e.g. until a
 * server has written what it queued during the previous load. Resolves to the milliseconds waited.
 */
export async function waitForIdle(rootPid, { intervalMs = 250, busyShare = 0.1, timeoutMs = 30_000 } = {}) {
  const start = Date.now();
  let quiet = 0;
  let last = cpuTimeMs(rootPid);
  while (quiet < 2 && Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, intervalMs));
    const now = cpuTimeMs(rootPid);
    quiet = now - last <= intervalMs * busyShare ? quiet + 1 : 0;
    last = now;
  }
  return Date.now() - start;
}

/**
 * Samples the resident memory of `rootPid`'s process tree every `intervalMs`. stop() returns
 * { peakTreeRssMB, peakHwmMB (the largest single-process high-water mark), processes: [{pid, name, cmd, hwmMB}] }.
 * The kernel's VmHWM catches peaks between samples for each process; the tree sum is sampled.
 */
export function startRssSampler(rootPid, intervalMs = 200) {
  const seen = new Map(); // pid -> { name, cmd, hwmKb }
  let peakTreeKb = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of processTree(rootPid)) {
      const s = readStatus(pid);
      if (!s) continue;
      sum += s.rssKb;
      const prev = seen.get(pid);
      if (!prev) seen.set(pid, { name: s.name, cmd: cmdline(pid).slice(0, 120), hwmKb: s.hwmKb });
      else prev.hwmKb = Math.max(prev.hwmKb, s.hwmKb);
    }
    peakTreeKb = Math.max(peakTreeKb, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    sample,
    stop() {
      sample();
      clearInterval(timer);
      const processes = [...seen].map(([pid, p]) => ({ pid, name: p.name, cmd: p.cmd, hwmMB: round(p.hwmKb / 1024) }));
      return {
        peakTreeRssMB: round(peakTreeKb / 1024),
        peakHwmMB: round(Math.max(0, ...processes.map((p) => p.hwmMB))),
        processes,
      };
    },
  };
}

// ---------------------------------------------------------------- child entry point

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.argv[2] === "--autocannon")
  void serveAsChild(autocannonChild);
