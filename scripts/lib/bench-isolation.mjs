// The isolation run of `npm run bench:gateway` and `npm run bench:api`: does a page render hold up an API call?
// The data plane and Next run on different event loops (docs/operations.md), so a call paced at 200 req/s should
// answer about as fast while pages are being rendered as it does alone.
//   runIsolation({ url, requests, pages: [paths], loops: 4, rate, duration, warmup, cpuPid, log, pagesUrl })
// runs the paced calls (bench-paced.mjs) four times, A B B A: alone, while `loops` concurrent loops fetch the pages
// (each loop the next page as soon as the last one's body is read), again, and alone again; then pools the two of
// each (combinePaced). The page loops run in a child process of their own (`--pages`), never on the event loop of
// the script or the paced generator. Resolves to { alone, loaded, pages: { pages, seconds, perSecond, non2xx,
// errors, byPath }, ...isolationFigures(alone, loaded) }. The pages come from `url` too unless `pagesUrl` says where
// (bench-pages-direct.mjs: Next's private address, to see what the data plane's streaming of them costs).
import http from "node:http";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { combinePaced, runPaced } from "./bench-paced.mjs";

const SELF = fileURLToPath(import.meta.url);
export const ISOLATION_GOALS = { p50Ratio: 1.5, p99Ratio: 2 };

/** The ratios of the paced calls' p50 and p99 under page load to those alone, against the goals. */
export function isolationFigures(alone, loaded, goals = ISOLATION_GOALS) {
  const p50Ratio = loaded.p50 / alone.p50;
  const p99Ratio = loaded.p99 / alone.p99;
  return {
    p50Ratio,
    p99Ratio,
    p50Met: Number.isFinite(p50Ratio) && p50Ratio <= goals.p50Ratio,
    p99Met: Number.isFinite(p99Ratio) && p99Ratio <= goals.p99Ratio,
  };
}

/** The isolation run's report, as both benchmarks print it: `what` names the paced calls. */
export function isolationReport(iso, { what, rate, loops = 4 }) {
  const n = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : "-");
  const met = (ok) => (ok ? "met" : "NOT met");
  const byPath = Object.entries(iso.pages.byPath)
    .map(([p, c]) => `${p} ${c}`)
    .join(", ");
  return [
    `  isolation, ${what} at ${rate} req/s, two runs each (A B B A): alone p50 ${n(iso.alone.p50, 3)} / p99 ${n(iso.alone.p99, 3)} ms; ` +
      `while ${loops} loops fetch pages p50 ${n(iso.loaded.p50, 3)} / p99 ${n(iso.loaded.p99, 3)} ms`,
    `    p50 ratio ${n(iso.p50Ratio, 2)} (goal <= ${ISOLATION_GOALS.p50Ratio}): ${met(iso.p50Met)}; ` +
      `p99 ratio ${n(iso.p99Ratio, 2)} (goal <= ${ISOLATION_GOALS.p99Ratio}): ${met(iso.p99Met)}`,
    `    the page loops: ${n(iso.pages.perSecond, 1)} pages/s (${iso.pages.pages} pages: ${byPath}; ${iso.pages.non2xx} non-2xx, ` +
      `${iso.pages.errors} errors); generator lag p99 alone ${n(iso.alone.lagP99Ms, 2)}, loaded ${n(iso.loaded.lagP99Ms, 2)} ms`,
    // Whose delay the tail is: timed from each call's actual send, the generator's own lag (its process starved of a
    // core by the same page load) drops out and what is left is the server's. Said beside the goal, not instead.
    `    timed from each call's send instead of when it was due (the generator's lag left out): p50 ${n(iso.alone.p50FromSend, 3)} → ` +
      `${n(iso.loaded.p50FromSend, 3)} ms, p99 ${n(iso.alone.p99FromSend, 3)} → ${n(iso.loaded.p99FromSend, 3)} ms ` +
      `(${n(iso.loaded.p99FromSend / iso.alone.p99FromSend, 2)}x)`,
  ];
}

/** Pages fetched per second over a stretch of `ms` milliseconds. */
export const perSecond = (count, ms) => (ms > 0 ? (count * 1000) / ms : NaN);

/** Starts the page loops; `mark()` restarts their count, `stop()` ends them and resolves to what they did since. */
export function startPageLoops({ url, paths, loops = 4 }) {
  const child = spawn(process.execPath, [SELF, "--pages", JSON.stringify({ url, paths, loops })], { stdio: ["pipe", "pipe", "inherit"] });
  startPageLoops.children.add(child);
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  // A child that dies answers whatever is waited for with nothing done, rather than leaving the run hanging.
  const dead = JSON.stringify({ failed: ["(the page loops exited)"], pages: 0, ms: 0, non2xx: 0, errors: 0, byPath: {} });
  child.on("exit", () => {
    while (waiting.length) waiting.shift()(dead);
  });
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const ready = next(); // READY: every page answered once
  return {
    ready,
    mark: () => child.stdin.write("mark\n"),
    async stop() {
      const result = next();
      child.stdin.end("stop\n");
      const line = await result;
      startPageLoops.children.delete(child);
      return JSON.parse(line);
    },
    kill: () => child.kill("SIGKILL"),
  };
}
/** Page-loop children still running (to kill them if the parent is interrupted). */
startPageLoops.children = new Set();

export async function runIsolation({
  url,
  requests,
  pages,
  loops = 4,
  rate = 200,
  duration = 10,
  warmup = 2,
  cpuPid,
  log = () => {},
  pagesUrl = url,
}) {
  const pacedOpts = { url, requests, rate, duration, warmup, cpuPid };
  const alone = async (label) => {
    log(`isolation, ${label}: ${rate} req/s paced alone, ${warmup} s warm-up + ${duration} s`);
    return runPaced(pacedOpts);
  };
  const loaded = async (label) => {
    const loopsRun = startPageLoops({ url: pagesUrl, paths: pages, loops });
    const ready = JSON.parse(await loopsRun.ready);
    if (ready.failed.length) log(`WARNING: pages not answering 200: ${ready.failed.join(", ")}`);
    loopsRun.mark();
    log(`isolation, ${label}: ${rate} req/s paced while ${loops} loops fetch ${pages.join(", ")}`);
    const r = await runPaced(pacedOpts);
    r.pageLoops = await loopsRun.stop();
    log(`  the page loops fetched ${r.pageLoops.pages} pages in ${(r.pageLoops.ms / 1000).toFixed(1)} s`);
    return r;
  };
  const a1 = await alone("alone");
  const b1 = await loaded("under page load");
  const b2 = await loaded("under page load (again)");
  const a2 = await alone("alone (again)");
  const aloneRuns = combinePaced([a1, a2]);
  const loadedRuns = combinePaced([b1, b2]);
  const sum = (k) => b1.pageLoops[k] + b2.pageLoops[k];
  const byPath = {};
  for (const r of [b1, b2]) for (const [p, n] of Object.entries(r.pageLoops.byPath)) byPath[p] = (byPath[p] ?? 0) + n;
  const pagesDone = { pages: sum("pages"), ms: sum("ms"), non2xx: sum("non2xx"), errors: sum("errors"), byPath };
  pagesDone.perSecond = perSecond(pagesDone.pages, pagesDone.ms);
  return { alone: aloneRuns, loaded: loadedRuns, pages: pagesDone, ...isolationFigures(aloneRuns, loadedRuns) };
}

// ---------------------------------------------------------------- the page-loop child

async function pageLoopsChild({ url, paths, loops }) {
  const { hostname, port } = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: loops });
  const get = (path) =>
    new Promise((resolve) => {
      const req = http.get({ host: hostname, port, path, agent, headers: { accept: "text/html" } }, (res) => {
        res.on("data", () => {});
        res.on("end", () => resolve(res.statusCode));
        res.on("error", () => resolve(0));
      });
      req.on("error", () => resolve(0));
    });
  // Every page once first: Next's first render of a route is slower, and a page that fails is said at once.
  const failed = [];
  for (const p of paths) {
    const status = await get(p);
    if (status !== 200) failed.push(`${p} (${status})`);
  }
  let count = { pages: 0, non2xx: 0, errors: 0, byPath: {}, since: performance.now() };
  let stopping = false;
  const loop = async (i) => {
    for (let n = i; !stopping; n++) {
      const p = paths[n % paths.length];
      const status = await get(p);
      if (status === 0) count.errors++;
      else if (status < 200 || status >= 300) count.non2xx++;
      count.pages++;
      count.byPath[p] = (count.byPath[p] ?? 0) + 1;
    }
  };
  const running = Array.from({ length: loops }, (_, i) => loop(i));
  process.stdout.write(JSON.stringify({ failed }) + "\n");
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === "mark") count = { pages: 0, non2xx: 0, errors: 0, byPath: {}, since: performance.now() };
    if (line === "stop") break;
  }
  const ms = performance.now() - count.since;
  const done = { pages: count.pages, non2xx: count.non2xx, errors: count.errors, byPath: { ...count.byPath } };
  stopping = true;
  await Promise.all(running);
  agent.destroy();
  process.stdout.write(JSON.stringify({ ...done, ms }) + "\n");
  process.exit(0);
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url && process.argv[2] === "--pages")
  void pageLoopsChild(JSON.parse(process.argv[3]));
