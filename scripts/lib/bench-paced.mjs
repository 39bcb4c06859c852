// Latency at a fixed request rate, for `npm run bench:api`: an open-loop generator (request i is sent at
// start + i / rate whether or not earlier ones have been answered, so a slow server meets queued requests rather
// than a politely waiting client) on a keep-alive pool, timing each request to the microsecond (autocannon's
// histogram counts whole milliseconds, too coarse for a goal of 0.3 ms).
//   runPaced({ url, requests: [{ path, headers }], rate, duration, warmup, cpuPid })
// runs the generator in a child process (never sharing an event loop with the server or the script) and
// resolves to { sent, ok, non2xx, errors, p50, p90, p99, max, mean (ms), lagP99Ms, p50FromSend, p99FromSend,
// serverCpuMsPerRequest, times, lags, fromSend }.
// A request's time runs from the moment it is due to the end of its body (waiting for a free socket counts);
// lagP99Ms is how late the generator itself sent them (a busy machine shows here first), and p50FromSend/p99FromSend
// time each request from the moment it was actually sent: the server's share, with the generator's own lag left out
// (printed beside the figures to say whose delay a tail is, never in their place).
import http from "node:http";
import { fileURLToPath, pathToFileURL } from "node:url";
import { percentile, runMeasuringChild, serveAsChild, sumThreadCpu } from "./bench-util.mjs";

const SELF = fileURLToPath(import.meta.url);

export function runPaced({ url, requests, rate = 200, duration = 10, warmup = 2, cpuPid, sockets = 32 }) {
  const opts = { url, requests, rate, duration, warmup, sockets };
  return runMeasuringChild(SELF, "--paced", opts, { cpuPid, killAfterS: warmup + duration + 60, children: runPaced.children }).then((r) => {
    if (r.serverCpuMs !== undefined) r.serverCpuMsPerRequest = r.serverCpuMs / r.sent;
    return r;
  });
}
/** Paced children still running (to kill them if the parent is interrupted). */
runPaced.children = new Set();

function pace({ url, requests, rate, duration, sockets }, onEach) {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const total = Math.round(rate * duration);
  const interval = 1000 / rate;
  const start = performance.now() + 20;
  let next = 0;
  let done = 0;
  return new Promise((resolve) => {
    const send = (i, due) => {
      const r = requests[i % requests.length];
      const sentAt = performance.now();
      const req = http.get({ host: hostname, port, path: r.path, headers: r.headers, agent }, (res) => {
        res.on("data", () => {});
        res.on("end", () => finish(res.statusCode, due, sentAt));
      });
      req.on("error", () => finish(0, due, sentAt));
    };
    const finish = (status, due, sentAt) => {
      onEach(status, performance.now() - due, sentAt - due);
      if (++done === total) {
        agent.destroy();
        resolve();
      }
    };
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        send(next, start + next * interval);
        next++;
      }
      if (next < total) setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
}

async function pacedChild(opts) {
  if (opts.warmup > 0) await pace({ ...opts, duration: opts.warmup }, () => {});
  process.stdout.write("MEASURING\n");
  const times = [];
  const lags = [];
  const fromSend = [];
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  await pace(opts, (status, ms, lag) => {
    if (status === 0) errors++;
    else if (status >= 200 && status < 300) ok++;
    else non2xx++;
    times.push(ms);
    lags.push(lag);
    fromSend.push(ms - lag);
  });
  for (const list of [times, lags, fromSend]) list.sort((a, b) => a - b);
  return {
    rate: opts.rate,
    durationS: opts.duration,
    ok,
    non2xx,
    errors,
    ...figures(times, lags, fromSend),
    // Every request's time, lag and time from its send (each sorted), so that runs can be pooled (combinePaced).
    times,
    lags,
    fromSend,
  };
}

/** What a paced run prints, from its requests' sorted times and lags. */
const figures = (times, lags, fromSend = []) => ({
  sent: times.length,
  p50: percentile(times, 50),
  p90: percentile(times, 90),
  p99: percentile(times, 99),
  max: times.at(-1),
  mean: times.reduce((a, b) => a + b, 0) / times.length,
  lagP99Ms: percentile(lags, 99),
  p50FromSend: fromSend.length ? percentile(fromSend, 50) : NaN,
  p99FromSend: fromSend.length ? percentile(fromSend, 99) : NaN,
});

/**
 * Two or more paced runs of one server as one: percentiles over all their requests. The benchmarks run the two
 * servers A, B, B, A, so that a machine that drifts during the minute (another process's cache, a CPU's clock)
 * weighs on both alike instead of on whichever ran second. `runs` keeps each run's p50 and p99.
 */
export function combinePaced(runs) {
  const times = runs.flatMap((r) => r.times).sort((a, b) => a - b);
  const lags = runs.flatMap((r) => r.lags).sort((a, b) => a - b);
  // Pooled only when every run has them: a p99 over some runs' requests would claim to be all of theirs.
  const fromSend = runs.every((r) => r.fromSend) ? runs.flatMap((r) => r.fromSend).sort((a, b) => a - b) : [];
  const sum = (k) => runs.reduce((n, r) => n + r[k], 0);
  return {
    rate: runs[0].rate,
    durationS: sum("durationS"),
    ok: sum("ok"),
    non2xx: sum("non2xx"),
    errors: sum("errors"),
    ...figures(times, lags, fromSend),
    fromSend,
    serverCpuMsPerRequest: runs.reduce((n, r) => n + (r.serverCpuMsPerRequest ?? NaN) * r.sent, 0) / sum("sent"),
    runs: runs.map((r) => ({ p50: r.p50, p99: r.p99 })),
    // The server's threads' CPU over all the runs (bench-util.mjs's threadCpuSince), when it was measured.
    serverThreads: sumThreadCpu(runs.map((r) => r.serverThreads)),
  };
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.argv[2] === "--paced")
  void serveAsChild(pacedChild);
