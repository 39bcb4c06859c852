// `npm run bench:pages-direct`: how much of the isolation run's tail is the data plane's part in the pages. Issue 37's
// isolation goal (bench:gateway, bench:api) compares gateway calls paced alone with the same calls while 4 loops fetch
// Next-rendered pages through the public port, so the data plane both answers the calls and reads every page's
// request (and hands its connection to Next, or with PAGE_CONNECTIONS=stream streams the page). This runs that isolation run (scripts/lib/bench-isolation.mjs, A B B A inside) two ways, in
// interleaved rounds on one platform (A B, B A, ...):
//   - through: the page loops fetch from the public port, as the goal's run does;
//   - direct:  the page loops fetch from Next's private address (127.0.0.1, the port the supervisor chose), so no
//     page byte crosses the data plane: the bound a data plane that never touched a page could reach on this machine.
// For each run: p50 / p99 alone and loaded, the p99 ratio, the pages a second, the paced generator's lag, and the
// data plane's CPU a paced call alone and loaded (what the loaded run's extra CPU comes to a page). Then each way's
// mean. Not a goal's judge: a diagnostic for docs/benchmarks.md.
// Environment: BENCH_ROUNDS (2), BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_RATE (200), BENCH_SKIP_BUILD=1.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";
import { runBench } from "./lib/bench-run.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const CALL_PATH = "/forecast?city=Oslo";
const PAGE_LOOPS = 4;
const WAYS = ["through", "direct"];

async function main(run) {
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, writeResults } = await import("./lib/bench-setup.mjs");
  const { startOfferSetup } = await import("./lib/bench-gateway-offer.mjs");
  const { runPaced } = await import("./lib/bench-paced.mjs");
  const { runIsolation, startPageLoops } = await import("./lib/bench-isolation.mjs");

  const ROUNDS = Math.max(1, Math.round(num("BENCH_ROUNDS", 2)));
  const DURATION = num("BENCH_DURATION", 10);
  const WARMUP = num("BENCH_WARMUP", 2);
  const RATE = num("BENCH_RATE", 200);

  const bench = (run.bench = makeBench("bench:pages-direct"));
  const { log } = bench;
  bench.onCleanup(() => {
    for (const c of runPaced.children) c.kill("SIGKILL");
    for (const c of startPageLoops.children) c.kill("SIGKILL");
  });
  const { consumer, platform, offer } = await startOfferSetup(bench);
  // The supervisor passes Next's lines on with their prefix: "next ready on http://127.0.0.1:PORT (pid N)".
  const nextUrl = /next ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(platform.stdout())?.[1];
  if (!nextUrl) throw new Error("the platform did not say where Next listens (no 'next ready on' line in its output)");
  log(`platform on ${platform.url} (data plane pid ${platform.pid}), Next on ${nextUrl}; product /gw/${offer.slug}`);
  const requests = [{ method: "GET", path: `/gw/${offer.slug}${CALL_PATH}`, headers: { authorization: `Bearer ${consumer.testKey}` } }];
  const pages = ["/catalog", `/p/${offer.slug}`, `/p/${offer.slug}/docs`, "/docs"];

  const runs = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const way of round % 2 ? [...WAYS].reverse() : WAYS) {
      const iso = await runIsolation({
        url: platform.url,
        pagesUrl: way === "direct" ? nextUrl : platform.url,
        requests,
        pages,
        loops: PAGE_LOOPS,
        rate: RATE,
        duration: DURATION,
        warmup: WARMUP,
        cpuPid: platform.pid,
      });
      const figures = {
        way,
        aloneP50: iso.alone.p50,
        aloneP99: iso.alone.p99,
        loadedP50: iso.loaded.p50,
        loadedP99: iso.loaded.p99,
        p99Ratio: iso.p99Ratio,
        pagesPerSecond: iso.pages.perSecond,
        lagP99Alone: iso.alone.lagP99Ms,
        lagP99Loaded: iso.loaded.lagP99Ms,
        cpuMsPerCallAlone: iso.alone.serverCpuMsPerRequest,
        cpuMsPerCallLoaded: iso.loaded.serverCpuMsPerRequest,
      };
      // The loaded run's extra CPU in the data plane, spread over the pages fetched meanwhile: through, mostly the
      // streaming; direct, only what the page load's contention adds to the calls themselves.
      figures.extraCpuMsPerPage = ((figures.cpuMsPerCallLoaded - figures.cpuMsPerCallAlone) * RATE) / figures.pagesPerSecond;
      runs.push(figures);
      log(
        `${way.padEnd(7)} alone p50 ${figures.aloneP50.toFixed(3)} / p99 ${figures.aloneP99.toFixed(3)} ms; loaded p50 ` +
          `${figures.loadedP50.toFixed(3)} / p99 ${figures.loadedP99.toFixed(3)} ms; p99 ratio ${figures.p99Ratio.toFixed(2)}; ` +
          `${figures.pagesPerSecond.toFixed(1)} pages/s; generator lag p99 ${figures.lagP99Alone.toFixed(2)} / ` +
          `${figures.lagP99Loaded.toFixed(2)} ms; data plane CPU a call ${figures.cpuMsPerCallAlone.toFixed(3)} → ` +
          `${figures.cpuMsPerCallLoaded.toFixed(3)} ms (${figures.extraCpuMsPerPage.toFixed(3)} ms a page)`,
      );
    }
  }

  const mean = (way, key) => {
    const of = runs.filter((r) => r.way === way).map((r) => r[key]);
    return of.reduce((a, b) => a + b, 0) / of.length;
  };
  console.log(`\nbench:pages-direct: ${ROUNDS} round(s), gateway calls at ${RATE} req/s, ${PAGE_LOOPS} page loops (means)`);
  console.log("| pages fetched | alone p99 (ms) | loaded p99 (ms) | p99 ratio | pages/s | data plane extra CPU a page (ms) |");
  console.log("|---|---|---|---|---|---|");
  for (const way of WAYS)
    console.log(
      `| ${way === "direct" ? "from Next's private port" : "through the public port"} | ${mean(way, "aloneP99").toFixed(3)} | ` +
        `${mean(way, "loadedP99").toFixed(3)} | ${mean(way, "p99Ratio").toFixed(2)} | ${mean(way, "pagesPerSecond").toFixed(1)} | ` +
        `${mean(way, "extraCpuMsPerPage").toFixed(3)} |`,
    );
  const file = writeResults("pages-direct", { rounds: ROUNDS, rate: RATE, durationS: DURATION, runs });
  log(`wrote ${file}`);
}

runBench(main);
