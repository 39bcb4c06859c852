// `npm run bench:gateway`: the gateway (/gw/{slug}/…) against a bare pass-through proxy, in one run on one machine.
//   1. prepare() (install / generate / build when needed; BENCH_SKIP_BUILD=1 uses the build there is)
//   2. a loopback upstream in its own process (scripts/bench-gateway-upstream.mjs: one small JSON body), the bare
//      proxy pointing at it (scripts/bare-proxy.mjs: node:http, keep-alive agent, piped both ways, hop-by-hop
//      headers removed) and the project's server (ALLOW_PRIVATE_URLS=true, no Redis, no periodic jobs) on a fresh
//      SQLite database: a provider business publishes an API product whose upstream is that server, with a usage
//      price whose plan rate limit is 1,000,000,000 a minute (limits, metering and rating run but never refuse);
//      a consumer business subscribes with a test card and calls with its test key
//   3. both must answer the same body; then, for each proxy, from separate processes on loopback:
//        - throughput: autocannon at BENCH_CONNECTIONS (32), BENCH_WARMUP s (2) then BENCH_DURATION s (10): req/s and
//          CPU ms per call of the proxy process (utime+stime from /proc, the gateway's queued usage writes finished
//          after the run included), and of the upstream and the load generator, and how many cores the machine was
//          busy; the bare proxy is measured before and after the gateway (the mean is the baseline, the difference
//          says how much outside load moved it). From these, the goal's budget: what the gateway's main thread and
//          process could spend a call at 0.7 of the bare proxy's rate
//        - latency at a paced BENCH_RATE (200) req/s, open loop, microsecond timing: p50 / p99 over two runs each, in
//          the order bare proxy, gateway, gateway, bare proxy
//        - the same-work reference (scripts/bench-gateway-reference.mjs: the gateway's work per call in the least
//          node:http code, SQLite writes on a worker thread) measured like the bare proxy, in the order bare,
//          reference, gateway, reference, bare: its ratio to the bare proxy and the gateway's to it (goal >= 0.9)
//        - isolation (scripts/lib/bench-isolation.mjs): the gateway's calls at BENCH_RATE alone and while 4 loops
//          fetch pages Next renders (/catalog, /p/{slug}, /p/{slug}/docs, /docs), A B B A: p50 / p99 both ways and
//          their ratios (goals <= 1.5 and <= 2), and the pages a second the loops got
//        - RSS (VmRSS) right after all of it and once it has been over for BENCH_SETTLE s (10; the data plane's, the
//          goal, <= 120 MB, judged on the second), and the data plane's start time from its "data plane 1 ready … in
//          N ms" line (goal <= 3 s)
//      Every CPU, thread and memory figure of the platform is its data-plane worker's (the pid its /healthz names),
//      not the supervisor's; BENCH_PROFILE and BENCH_NODE_ARGS reach that worker through DATA_PLANE_NODE_FLAGS.
//      and checks that the gateway recorded a usage event for every call it answered
//   3b. unless BENCH_PREPAID=0: the same calls on a prepaid plan (credits reserved before each call, settled after),
//      throughput and paced p50 against the postpaid gateway, A B B A (goals: >= 0.9 of its throughput, <= 0.1 ms p50)
//   3c. unless BENCH_SSE=0: an LLM-style SSE answer through a per-call price and through a price with two token
//      metrics read from the stream (issue 40): throughput and paced p50, A B B A (goal: <= 0.2 ms p50 added)
//   4. optional (on unless BENCH_REDIS=0; skipped when Redis does not answer): limits exact over 2 processes: two
//      more project servers on the same database sharing REDIS_URL (redis://127.0.0.1:6379) and a unique
//      REDIS_PREFIX, a plan with rateLimit {limit: 500, windowSeconds: 60}, 1,000 calls alternating between them:
//      how many got 200 (must be 500). Only printed.
//   5. unless BENCH_CRASH=0: 0 usage events lost across a kill -9: two more servers on the database, 8 connections
//      calling each for 4 s, one killed with SIGKILL after 2 s; the survivor replays the dead one's usage journal;
//      every call answered 200 must have its usage event (calls cut off by the kill may be metered: at least once).
// Prints a table, the ratios against the goals (met / not met; never asserted: exits 0 when one is missed) and
// writes bench-results/gateway.json. Always stops the processes, drops the database and deletes its Redis keys.
// Environment: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 2), BENCH_SETTLE (s, 10), BENCH_CONNECTIONS (32), BENCH_RATE (200),
//   BENCH_PACED_DURATION (s, BENCH_DURATION), BENCH_SKIP_BUILD=1, BENCH_REDIS=0, REDIS_URL, BENCH_PROFILE=1 (the
//   gateway's server and the bare proxy run under `node --cpu-prof`, which slows them: a run for the profiles, not for
//   the figures; where the gateway's CPU went during the throughput run is printed, then both proxies' main-thread
//   CPU per call by kind, side by side; the profiles stay in bench-results/profiles), BENCH_NODE_ARGS
//   (more node flags for the gateway's server, e.g. `--import ./gc-log.mjs` to watch its pauses), BENCH_SERVER_STDOUT=1
//   (the servers' stdout is let through instead of dropped: with `SERVER_NODE_FLAGS="… --trace-gc-nvp"`, a line a GC).
import http from "node:http";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";
import { runBench } from "./lib/bench-run.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const GOALS = {
  throughputRatio: 0.7,
  referenceRatio: 0.9,
  addedP50Ms: 0.5,
  addedP99Ms: 2,
  rssMB: 120,
  startMs: 3000,
  // Issue 39: prepaid credits on must keep >= 0.9 of the throughput and add <= 0.1 ms p50.
  prepaidThroughputRatio: 0.9,
  prepaidAddedP50Ms: 0.1,
  // Issue 40: an SSE answer metered for tokens must add <= 0.2 ms p50 over the same stream unmetered.
  meteringAddedP50Ms: 0.2,
};
const PAGE_LOOPS = 4;
const CALL_PATH = "/forecast?city=Oslo";

async function main(run) {
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num, api, writeResults, met } = await import("./lib/bench-setup.mjs");
  const { publishAndSubscribe: publishOffer, referenceEnv } = await import("./lib/bench-gateway-offer.mjs");
  const { startServer } = await import("./lib/server.mjs");
  const { runLoad, waitForIdle, cpuTimeMs, round, sumThreadCpu } = await import("./lib/bench-util.mjs");
  const { runPaced, combinePaced } = await import("./lib/bench-paced.mjs");
  const { monotonicUs, latestProfile, summarize } = await import("./lib/bench-profile.mjs");
  const { runIsolation, startPageLoops, isolationReport, ISOLATION_GOALS } = await import("./lib/bench-isolation.mjs");
  const { default: Database } = await import("better-sqlite3");

  const DURATION = num("BENCH_DURATION", 10);
  const WARMUP = num("BENCH_WARMUP", 2);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 32));
  const RATE = num("BENCH_RATE", 200);
  const PACED_DURATION = num("BENCH_PACED_DURATION", DURATION);
  const SETTLE = num("BENCH_SETTLE", 10);
  const REDIS_URL = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const REDIS_PREFIX = `bench-gateway-${Date.now()}-${randomBytes(3).toString("hex")}:`;
  const PROFILE = process.env.BENCH_PROFILE === "1";
  const profileDir = path.resolve("bench-results/profiles", `${new Date().toISOString().replace(/[:.]/g, "-")}-gateway`);

  const bench = (run.bench = makeBench("bench:gateway"));
  const { log } = bench;
  bench.onCleanup(() => {
    for (const c of runPaced.children) c.kill("SIGKILL");
    for (const c of startPageLoops.children) c.kill("SIGKILL");
  });
  const loadBefore = bench.loadInfo();
  const started = async (opts) => {
    const s = await startServer(opts);
    bench.onCleanup(() => s.stop());
    return s;
  };
  const vmRssMB = (pid) => {
    try {
      return round(Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024, 1);
    } catch {
      return null;
    }
  };

  // ---------------------------------------------------------------- set-up

  const upstream = await started({ script: "scripts/bench-gateway-upstream.mjs" });
  log(`upstream on ${upstream.url}, pid ${upstream.child.pid}`);
  // Profiled too with BENCH_PROFILE=1: what a call costs the least proxy, beside what it costs the gateway.
  const bare = await started({
    script: "scripts/bare-proxy.mjs",
    env: { UPSTREAM_URL: `${upstream.url}/v1` },
    nodeArgs: PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}-bare`] : [],
  });
  log(`bare proxy on ${bare.url}, pid ${bare.child.pid}`);

  const db = await bench.freshDb();
  const provider = bench.bootstrap(db.env, "Bench provider");
  const consumer = bench.bootstrap(db.env, "Bench consumer");
  const platformEnv = { ...db.env, ALLOW_PRIVATE_URLS: "true", JOBS_IN_SERVER: "false" };
  const extraNodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter(Boolean);
  // The supervisor (scripts/serve.mjs) passes DATA_PLANE_NODE_FLAGS to the data-plane worker, the process measured
  // here (platform.pid, from its /healthz; platform.child.pid is the supervisor's).
  const platform = await started({
    env: {
      ...platformEnv,
      DATA_PLANE_NODE_FLAGS: [...extraNodeArgs, ...(PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])].join(" "),
    },
  });
  const readyLine = /data plane \d+ ready .* in (\d+) ms/.exec(platform.stdout());
  const dataPlaneStartMs = readyLine ? Number(readyLine[1]) : null;
  log(
    `database ${db.file}; platform on ${platform.url}: supervisor pid ${platform.child.pid}, data plane pid ${platform.pid}, ready in ${dataPlaneStartMs ?? "?"} ms`,
  );

  /** Provider publishes an API product on the upstream with a usage price; consumer subscribes. */
  const publishAndSubscribe = (url, rateLimit, priceExtra = {}) =>
    publishOffer({ url, provider, consumer, upstreamUrl: `${upstream.url}/v1`, rateLimit, priceExtra });
  const offer = await publishAndSubscribe(platform.url, { limit: 1_000_000_000, windowSeconds: 60 });
  const gwPath = `/gw/${offer.slug}${CALL_PATH}`;
  log(`product ${offer.productId} (/gw/${offer.slug}), subscription ${offer.subscriptionId}`);
  // The same-work reference: the same upstream, key and slug; its journal and SQLite file in a directory of its own.
  const reference = await started({
    script: "scripts/bench-gateway-reference.mjs",
    env: referenceEnv({ upstreamUrl: `${upstream.url}/v1`, keyHashSecret: bench.KEY_HASH_SECRET, consumer, slug: offer.slug }),
    nodeArgs: PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}-reference`] : [],
  });
  log(`same-work reference on ${reference.url}, pid ${reference.pid}`);

  // Same upstream, same answer; the gateway's carries the call's cost and the plan's limit.
  const auth = { authorization: `Bearer ${consumer.testKey}` };
  const [viaBare, viaGateway, viaReference] = await Promise.all([
    fetch(`${bare.url}${CALL_PATH}`, { headers: auth }),
    fetch(`${platform.url}${gwPath}`, { headers: auth }),
    fetch(`${reference.url}${gwPath}`, { headers: auth }),
  ]);
  const [bareBody, gwBody, refBody] = await Promise.all([viaBare.text(), viaGateway.text(), viaReference.text()]);
  if (viaBare.status !== 200 || viaGateway.status !== 200 || viaReference.status !== 200 || bareBody !== gwBody || refBody !== gwBody)
    throw new Error(
      `the proxies answer differently:\nbare      ${viaBare.status} ${bareBody}\ngateway   ${viaGateway.status} ${gwBody}\nreference ${viaReference.status} ${refBody}`,
    );
  const cost = viaGateway.headers.get("x-request-cost");
  const policy = viaGateway.headers.get("ratelimit-policy");
  if (!cost || !policy) throw new Error(`the gateway's answer has no X-Request-Cost (${cost}) or RateLimit-Policy (${policy})`);
  log(`both answer ${bareBody.length} bytes; the gateway adds X-Request-Cost: ${cost}, RateLimit-Policy: ${policy}`);

  // ---------------------------------------------------------------- load

  const targets = {
    bare: { server: bare, path: CALL_PATH },
    reference: { server: reference, path: gwPath },
    gateway: { server: platform, path: gwPath },
  };
  const requestsFor = (t) => [{ method: "GET", path: t.path, headers: auth }];
  log(`warming both (${WARMUP} s each)`);
  for (const t of Object.values(targets))
    await runLoad({ url: t.server.url, requests: requestsFor(t), connections: CONNECTIONS, duration: WARMUP, warmup: 0 });

  /** One call more after a run with refusals, to say what they were (a circuit left open, a limit). */
  async function sayWhatACallGets(t) {
    const probe = await fetch(`${t.server.url}${t.path}`, { headers: auth });
    log(`  a call now: ${probe.status} ${(await probe.text()).slice(0, 300)}`);
  }
  async function measure(label, t) {
    const pid = t.server.pid;
    await waitForIdle(pid);
    log(`${label}: ${CONNECTIONS} connections, ${WARMUP} s warm-up + ${DURATION} s`);
    const r = await runLoad({
      url: t.server.url,
      requests: requestsFor(t),
      connections: CONNECTIONS,
      duration: DURATION,
      warmup: WARMUP,
      cpuPid: pid,
      otherPids: { upstream: upstream.child.pid },
    });
    r.windowUs = [monotonicUs() - DURATION * 1e6, monotonicUs()];
    const cpuAtEnd = cpuTimeMs(pid);
    r.drainMs = await waitForIdle(pid);
    r.deferredCpuMs = cpuTimeMs(pid) - cpuAtEnd;
    r.serverCpuMs += r.deferredCpuMs;
    r.serverCpuMsPerRequest = r.serverCpuMs / r.total;
    r.upstreamRssMB = vmRssMB(upstream.child.pid);
    if (r.non2xx || r.errors || r.timeouts) {
      log(`WARNING: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.total}`);
      await sayWhatACallGets(t);
    }
    log(`${label}: ${Math.round(r.rps)} req/s, ${r.serverCpuMsPerRequest.toFixed(3)} ms CPU per call`);
    return r;
  }
  async function paced(label, t) {
    await waitForIdle(t.server.pid);
    log(`${label}: ${RATE} req/s paced, ${WARMUP} s warm-up + ${PACED_DURATION} s`);
    const r = await runPaced({
      url: t.server.url,
      requests: requestsFor(t),
      rate: RATE,
      duration: PACED_DURATION,
      warmup: WARMUP,
      cpuPid: t.server.pid,
    });
    if (r.non2xx || r.errors) {
      log(`WARNING: ${label}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.sent}`);
      await sayWhatACallGets(t);
    }
    log(`${label}: p50 ${r.p50.toFixed(3)} ms, p99 ${r.p99.toFixed(3)} ms (generator lag p99 ${r.lagP99Ms.toFixed(2)} ms)`);
    return r;
  }
  const usageEvents = () => {
    const s = new Database(db.file, { readonly: true });
    try {
      return s.prepare(`SELECT COUNT(*) AS n FROM "UsageEvent" WHERE "productId" = ? AND "statusCode" = 200`).get(offer.productId).n;
    } finally {
      s.close();
    }
  };

  // Bare, reference, gateway, reference, bare: each pair's mean is centred on the gateway's run.
  const bare1 = await measure("bare proxy", targets.bare);
  const ref1 = await measure("same-work reference", targets.reference);
  const eventsBefore = usageEvents();
  const gateway = await measure("gateway", targets.gateway);
  const eventsAfter = usageEvents();
  const ref2 = await measure("same-work reference (again)", targets.reference);
  const bare2 = await measure("bare proxy (again)", targets.bare);
  const metered = eventsAfter - eventsBefore; // the measured run's calls and its warm-up's
  if (metered < gateway.total - gateway.non2xx)
    log(`WARNING: ${metered} usage events for ${gateway.total - gateway.non2xx} answered calls: metering lost some`);
  /** Two throughput runs of one proxy as one. */
  const bothRuns = (a, b) => ({
    rps: (a.rps + b.rps) / 2,
    runs: [a.rps, b.rps],
    serverCpuMsPerRequest: (a.serverCpuMs + b.serverCpuMs) / (a.total + b.total),
    total: a.total + b.total,
    durationS: a.durationS + b.durationS,
    serverThreads: sumThreadCpu([a.serverThreads, b.serverThreads]),
    generatorCpuMs: a.generatorCpuMs + b.generatorCpuMs,
    otherCpuMs: { upstream: a.otherCpuMs.upstream + b.otherCpuMs.upstream },
    // null where /proc/stat could not be read
    machineBusyCores: a.machineBusyCores === null || b.machineBusyCores === null ? null : (a.machineBusyCores + b.machineBusyCores) / 2,
  });
  const bareLoad = bothRuns(bare1, bare2);
  const refLoad = bothRuns(ref1, ref2);
  const drift = Math.abs(bare1.rps - bare2.rps) / Math.max(bare1.rps, bare2.rps);
  const refDrift = Math.abs(ref1.rps - ref2.rps) / Math.max(ref1.rps, ref2.rps);
  // A, B, B, A (bench-paced.mjs's combinePaced says why).
  const barePaced1 = await paced("bare proxy", targets.bare);
  const gatewayPaced1 = await paced("gateway", targets.gateway);
  const gatewayPaced2 = await paced("gateway", targets.gateway);
  const barePaced2 = await paced("bare proxy", targets.bare);
  const barePaced = combinePaced([barePaced1, barePaced2]);
  const gatewayPaced = combinePaced([gatewayPaced1, gatewayPaced2]);

  // Metering from the answer (issue 40): the same SSE answer through a per-call price and through a price with two
  // token metrics read from the stream (the cost then a trailer). Throughput and paced latency, A B B A.
  let ssePart = { skipped: "BENCH_SSE=0" };
  if (process.env.BENCH_SSE !== "0") {
    const plainSse = await publishAndSubscribe(platform.url, { limit: 1_000_000_000, windowSeconds: 60 });
    const meteredSse = await publishAndSubscribe(
      platform.url,
      { limit: 1_000_000_000, windowSeconds: 60 },
      {
        type: "metered",
        amount: undefined,
        metrics: [
          { name: "input tokens", unit: "1M tokens", amount: 1, from: { source: "response.json", path: "usage.input_tokens" } },
          { name: "output tokens", unit: "1M tokens", amount: 4, from: { source: "response.json", path: "usage.output_tokens" } },
        ],
      },
    );
    const plainTarget = { server: platform, path: `/gw/${plainSse.slug}/stream` };
    const meteredTarget = { server: platform, path: `/gw/${meteredSse.slug}/stream` };
    const probe = await new Promise((resolve, reject) => {
      const r = http.get(`${platform.url}${meteredTarget.path}`, { headers: auth }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode, cost: res.trailers["x-request-cost"] }));
      });
      r.on("error", reject);
    });
    if (probe.status !== 200 || probe.cost !== "0.0026 USD")
      throw new Error(`the metered stream answered ${probe.status} with trailer X-Request-Cost ${probe.cost}`);
    log(`metered SSE: trailer X-Request-Cost ${probe.cost}`);
    for (const t of [plainTarget, meteredTarget])
      await runLoad({ url: platform.url, requests: requestsFor(t), connections: CONNECTIONS, duration: WARMUP, warmup: 0 });
    const p1 = await measure("SSE, per-call price", plainTarget);
    const m1 = await measure("SSE, token metrics", meteredTarget);
    const m2 = await measure("SSE, token metrics (again)", meteredTarget);
    const p2 = await measure("SSE, per-call price (again)", plainTarget);
    const pp1 = await paced("SSE, per-call price", plainTarget);
    const mp1 = await paced("SSE, token metrics", meteredTarget);
    const mp2 = await paced("SSE, token metrics", meteredTarget);
    const pp2 = await paced("SSE, per-call price", plainTarget);
    const plainLoad = bothRuns(p1, p2);
    const meteredLoad = bothRuns(m1, m2);
    const plainPaced = combinePaced([pp1, pp2]);
    const meteredPaced = combinePaced([mp1, mp2]);
    ssePart = {
      plain: { load: plainLoad, paced: plainPaced },
      metered: { load: meteredLoad, paced: meteredPaced },
      throughputRatio: meteredLoad.rps / plainLoad.rps,
      addedP50Ms: meteredPaced.p50 - plainPaced.p50,
      cpuUsPerCallAdded: (meteredLoad.serverCpuMsPerRequest - plainLoad.serverCpuMsPerRequest) * 1000,
      generatorLagP99Ms: Math.max(...[pp1, mp1, mp2, pp2].map((r) => r.lagP99Ms)),
      // For BENCH_PROFILE=1: the first throughput run of each, whose windows the profile is cut to.
      windows: { plain: { us: p1.windowUs, calls: p1.total }, metered: { us: m1.windowUs, calls: m1.total } },
    };
  }

  // Prepaid credits (issue 39): the same calls on a prepaid plan, each reserving its cost against the balance
  // before it runs and settling after. Throughput and paced latency against the plain gateway, A B B A.
  let prepaidPart = { skipped: "BENCH_PREPAID=0" };
  if (process.env.BENCH_PREPAID !== "0") {
    const prepaidOffer = await publishAndSubscribe(platform.url, { limit: 1_000_000_000, windowSeconds: 60 }, { billing: "prepaid" });
    await api(`${platform.url}/v1/subscriptions/${prepaidOffer.subscriptionId}/credits`, {
      method: "POST",
      key: consumer.testKey,
      body: { amount: 1_000_000 },
    });
    const prepaidTarget = { server: platform, path: `/gw/${prepaidOffer.slug}${CALL_PATH}` };
    const probe = await fetch(`${platform.url}${prepaidTarget.path}`, { headers: auth });
    await probe.arrayBuffer();
    if (probe.status !== 200) throw new Error(`the prepaid plan's call answered ${probe.status}`);
    await runLoad({ url: platform.url, requests: requestsFor(prepaidTarget), connections: CONNECTIONS, duration: WARMUP, warmup: 0 });
    const plain1 = await measure("gateway, postpaid", targets.gateway);
    const prepaid1 = await measure("gateway, prepaid credits", prepaidTarget);
    const prepaid2 = await measure("gateway, prepaid credits (again)", prepaidTarget);
    const plain2 = await measure("gateway, postpaid (again)", targets.gateway);
    const plainPaced1 = await paced("gateway, postpaid", targets.gateway);
    const prepaidPaced1 = await paced("gateway, prepaid credits", prepaidTarget);
    const prepaidPaced2 = await paced("gateway, prepaid credits", prepaidTarget);
    const plainPaced2 = await paced("gateway, postpaid", targets.gateway);
    const plainLoad = bothRuns(plain1, plain2);
    const prepaidLoad = bothRuns(prepaid1, prepaid2);
    const plainPaced = combinePaced([plainPaced1, plainPaced2]);
    const prepaidPaced = combinePaced([prepaidPaced1, prepaidPaced2]);
    prepaidPart = {
      plain: { load: plainLoad, paced: plainPaced },
      prepaid: { load: prepaidLoad, paced: prepaidPaced },
      throughputRatio: prepaidLoad.rps / plainLoad.rps,
      addedP50Ms: prepaidPaced.p50 - plainPaced.p50,
      cpuUsPerCallAdded: (prepaidLoad.serverCpuMsPerRequest - plainLoad.serverCpuMsPerRequest) * 1000,
      refused: prepaid1.non2xx + prepaid2.non2xx,
    };
  }

  // Isolation: the gateway's calls at RATE alone, and while PAGE_LOOPS loops fetch pages Next renders, A B B A.
  const pages = ["/catalog", `/p/${offer.slug}`, `/p/${offer.slug}/docs`, "/docs"];
  const isolation = await runIsolation({
    url: platform.url,
    requests: requestsFor(targets.gateway),
    pages,
    loops: PAGE_LOOPS,
    rate: RATE,
    duration: PACED_DURATION,
    warmup: WARMUP,
    cpuPid: platform.pid,
    log,
  });
  await waitForIdle(platform.pid);
  const rss = {
    bare: vmRssMB(bare.pid),
    reference: vmRssMB(reference.pid),
    gateway: vmRssMB(platform.pid),
    upstream: vmRssMB(upstream.pid),
  };
  // And what each holds once the load has been over for BENCH_SETTLE seconds (10): the figure the goal is judged on
  // ("holds ≤ 120 MB after the load"). Right after the load the data plane still has the young generation it grew
  // under it; both figures are printed.
  if (SETTLE > 0) await new Promise((r) => setTimeout(r, SETTLE * 1000));
  await waitForIdle(platform.pid);
  const rssSettled = {
    bare: vmRssMB(bare.pid),
    reference: vmRssMB(reference.pid),
    gateway: vmRssMB(platform.pid),
  };
  await platform.stop();
  let profile = null;
  let bareProfile = null;
  let referenceProfile = null;
  let sseProfile = null;
  if (PROFILE) {
    const file = latestProfile(profileDir);
    if (file) profile = { file, calls: gateway.total, ...summarize(file, ...gateway.windowUs) };
    else log(`no CPU profile in ${profileDir}`);
    await bare.stop(); // a profile is written at exit; nothing after this calls the bare proxy
    const bareFile = latestProfile(`${profileDir}-bare`);
    if (bareFile) bareProfile = { file: bareFile, calls: bare1.total, ...summarize(bareFile, ...bare1.windowUs) };
    else log(`no CPU profile in ${profileDir}-bare`);
    await reference.stop();
    const referenceFile = latestProfile(`${profileDir}-reference`);
    if (referenceFile) referenceProfile = { file: referenceFile, calls: ref1.total, ...summarize(referenceFile, ...ref1.windowUs, 400) };
    else log(`no CPU profile in ${profileDir}-reference`);
    if (file) profile.compared = summarize(file, ...gateway.windowUs, 400).functions;
    if (file && ssePart.windows) {
      const { plain, metered } = ssePart.windows;
      sseProfile = {
        plain: { calls: plain.calls, ...summarize(file, ...plain.us, 60) },
        metered: { calls: metered.calls, ...summarize(file, ...metered.us, 60) },
      };
    }
  }

  // ---------------------------------------------------------------- limits exact over 2 processes (Redis)

  let redisPart = { skipped: "BENCH_REDIS=0" };
  if (process.env.BENCH_REDIS !== "0") redisPart = await limitsOverTwo();

  async function limitsOverTwo() {
    const { default: Redis } = await import("ioredis");
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2000 });
    try {
      await redis.connect();
      await redis.ping();
    } catch (e) {
      redis.disconnect();
      log(`Redis at ${REDIS_URL} does not answer (${e.message}): "limits exact over 2 processes" skipped`);
      return { skipped: `no Redis at ${REDIS_URL}` };
    }
    bench.onCleanup(async () => {
      let cursor = "0";
      do {
        const [next, keys] = await redis.scan(cursor, "MATCH", `${REDIS_PREFIX}*`, "COUNT", 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== "0");
      redis.disconnect();
    });
    const env = { ...platformEnv, REDIS_URL, REDIS_PREFIX };
    const [s1, s2] = await Promise.all([started({ env }), started({ env })]);
    log(`limits over 2 processes: servers ${s1.url} and ${s2.url}, Redis prefix ${REDIS_PREFIX}`);
    const limited = await publishAndSubscribe(s1.url, { limit: 500, windowSeconds: 60 });
    // The plan's window is a fixed minute: start well inside one, so all 1,000 calls meet the same window.
    const intoWindow = (Date.now() / 1000) % 60;
    if (intoWindow > 45) await new Promise((r) => setTimeout(r, (61 - intoWindow) * 1000));
    const calls = 1000;
    const agents = [s1, s2].map(() => new http.Agent({ keepAlive: true, maxSockets: 16 }));
    const statuses = {};
    const t0 = performance.now();
    await Promise.all(
      Array.from(
        { length: calls },
        (_, i) =>
          new Promise((resolve) => {
            const s = i % 2 ? s2 : s1;
            const req = http.get(`${s.url}/gw/${limited.slug}${CALL_PATH}`, { agent: agents[i % 2], headers: auth }, (res) => {
              res.resume();
              res.on("end", () => {
                statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
                resolve();
              });
            });
            req.on("error", (e) => {
              statuses[`error ${e.code ?? e.message}`] = (statuses[`error ${e.code ?? e.message}`] ?? 0) + 1;
              resolve();
            });
          }),
      ),
    );
    const elapsedS = (performance.now() - t0) / 1000;
    for (const a of agents) a.destroy();
    const fallbacks = [s1, s2].flatMap((s) => s.stderr().match(/\[limits\] Redis unavailable[^\n]*/g) ?? []);
    await Promise.all([s1.stop(), s2.stop()]);
    const ok = statuses[200] ?? 0;
    log(`limits over 2 processes: ${JSON.stringify(statuses)} in ${elapsedS.toFixed(2)} s`);
    return { calls, limit: 500, ok, statuses, elapsedS: round(elapsedS, 2), exact: ok === 500, redisFallbackWarnings: fallbacks };
  }

  // ---------------------------------------------------------------- 0 usage events lost across a kill -9

  const crashPart = process.env.BENCH_CRASH === "0" ? { skipped: "BENCH_CRASH=0" } : await killNineUnderLoad();

  // Two servers on the database; calls go to both; one is killed with SIGKILL in the middle of the load. The other
  // replays the dead one's usage journal (lib/usage/usage-journal.ts) at its next sweep: every call answered 200
  // must have its event, once.
  async function killNineUnderLoad() {
    const env = { ...platformEnv, USAGE_JOURNAL_SWEEP_MS: "1000" };
    const [victim, survivor] = await Promise.all([started({ env }), started({ env })]);
    // The data-plane worker is the process holding the journal: it is the one killed (its supervisor starts another).
    const target = await publishAndSubscribe(survivor.url, { limit: 1_000_000_000, windowSeconds: 60 });
    log(`kill -9: servers ${victim.url} (to be killed) and ${survivor.url}, product /gw/${target.slug}`);
    const answered = { victim: 0, survivor: 0 };
    let cutOff = 0;
    let killed = false;
    const agents = [new http.Agent({ keepAlive: true, maxSockets: 8 }), new http.Agent({ keepAlive: true, maxSockets: 8 })];
    const one = (which) =>
      new Promise((resolve) => {
        const s = which === "victim" ? victim : survivor;
        const req = http.get(
          `${s.url}/gw/${target.slug}${CALL_PATH}`,
          { agent: agents[which === "victim" ? 0 : 1], headers: auth },
          (res) => {
            res.resume();
            res.on("end", () => {
              if (res.statusCode === 200) answered[which]++;
              resolve();
            });
            res.on("error", () => {
              cutOff++;
              resolve();
            });
          },
        );
        req.on("error", () => {
          cutOff++;
          resolve();
        });
      });
    const until = Date.now() + 4000;
    const loop = async (which) => {
      while (Date.now() < until && !(which === "victim" && killed)) await one(which);
    };
    setTimeout(() => {
      killed = true;
      process.kill(victim.pid, "SIGKILL");
    }, 2000);
    await Promise.all([..."abcdefgh"].map(() => loop("victim")).concat([..."abcdefgh"].map(() => loop("survivor"))));
    for (const a of agents) a.destroy();
    const events = () => {
      const s = new Database(db.file, { readonly: true });
      try {
        return s.prepare(`SELECT COUNT(*) AS n FROM "UsageEvent" WHERE "productId" = ? AND "statusCode" = 200`).get(target.productId).n;
      } finally {
        s.close();
      }
    };
    const total = answered.victim + answered.survivor;
    const deadline = Date.now() + 30_000;
    let n = events();
    while (n < total && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      n = events();
    }
    await new Promise((r) => setTimeout(r, 1500)); // one more sweep: nothing further may appear twice
    n = events();
    await survivor.stop();
    log(`kill -9: ${total} calls answered 200 (${answered.victim} by the killed server), ${n} usage events, ${cutOff} calls cut off`);
    return { answered: total, answeredByKilled: answered.victim, usageEvents: n, lost: Math.max(0, total - n), cutOff };
  }

  // ---------------------------------------------------------------- report

  const ratio = gateway.rps / bareLoad.rps;
  const refRatio = refLoad.rps / bareLoad.rps;
  const gatewayToRef = gateway.rps / refLoad.rps;
  const addedP50 = gatewayPaced.p50 - barePaced.p50;
  const addedP99 = gatewayPaced.p99 - barePaced.p99;
  const loadAfter = bench.loadInfo();
  const f = (n, d = 0) => n.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
  const orNa = (n, d) => (n === null ? "n/a" : f(n, d));
  const perCallUs = (r, ms) => ((ms * 1000) / r.total).toFixed(1);
  const threadsPerCall = (r) =>
    `${perCallUs(r, r.serverThreads.mainUser + r.serverThreads.mainSys)} (${perCallUs(r, r.serverThreads.mainUser)} + ${perCallUs(r, r.serverThreads.mainSys)})`;
  const mainBusy = (r) => `${Math.round(((r.serverThreads.mainUser + r.serverThreads.mainSys) / (r.durationS * 1000)) * 100)}%`;
  const otherThreads = (r) => `${perCallUs(r, r.serverThreads.busiestOther)}; ${perCallUs(r, r.serverThreads.rest)}`;
  const pacedFigure = (r, p) => `${f(r[p], 3)} (runs ${r.runs.map((x) => f(x[p], 3)).join(" / ")})`;
  const runsOf = (r) => `${f(r.rps)} (runs ${r.runs.map((x) => f(x)).join(" / ")})`;
  const rows = [
    ["", "bare proxy", "same-work reference", "gateway (data plane)"],
    [`req/s, ${CONNECTIONS} connections`, runsOf(bareLoad), runsOf(refLoad), f(gateway.rps)],
    [
      "CPU ms per call (proxy process)",
      f(bareLoad.serverCpuMsPerRequest, 3),
      f(refLoad.serverCpuMsPerRequest, 3),
      f(gateway.serverCpuMsPerRequest, 3),
    ],
    // From /proc per thread during the measured seconds: real CPU, where a profile's samples count wall time (a
    // socket write's time includes the moments the kernel ran the process it woke).
    ["  main thread µs a call, user + sys", threadsPerCall(bareLoad), threadsPerCall(refLoad), threadsPerCall(gateway)],
    ["  main thread busy (share of a core)", mainBusy(bareLoad), mainBusy(refLoad), mainBusy(gateway)],
    ["  other threads µs a call (busiest; rest)", otherThreads(bareLoad), otherThreads(refLoad), otherThreads(gateway)],
    // What else the run kept busy on the same machine: when the machine is near its cores, a proxy's throughput is
    // bounded by all of it, not by the proxy's own main thread.
    [
      "upstream's CPU µs a call",
      perCallUs(bareLoad, bareLoad.otherCpuMs.upstream),
      perCallUs(refLoad, refLoad.otherCpuMs.upstream),
      perCallUs(gateway, gateway.otherCpuMs.upstream),
    ],
    [
      "load generator's CPU µs a call",
      perCallUs(bareLoad, bareLoad.generatorCpuMs),
      perCallUs(refLoad, refLoad.generatorCpuMs),
      perCallUs(gateway, gateway.generatorCpuMs),
    ],
    [
      `machine busy (cores of ${cpus().length})`,
      orNa(bareLoad.machineBusyCores, 2),
      orNa(refLoad.machineBusyCores, 2),
      orNa(gateway.machineBusyCores, 2),
    ],
    [`p50 at ${RATE} req/s (ms), two runs`, pacedFigure(barePaced, "p50"), "-", pacedFigure(gatewayPaced, "p50")],
    [`p99 at ${RATE} req/s (ms), two runs`, pacedFigure(barePaced, "p99"), "-", pacedFigure(gatewayPaced, "p99")],
    ["RSS right after all the load (MB)", f(rss.bare, 1), f(rss.reference, 1), f(rss.gateway, 1)],
    [`RSS ${SETTLE} s after the load (MB)`, f(rssSettled.bare, 1), f(rssSettled.reference, 1), f(rssSettled.gateway, 1)],
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  console.log("");
  console.log(`bench:gateway — upstream answers ${bareBody.length} bytes of JSON; gateway with key check, plan limit, metering and rating`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model?.trim() ?? "?"}, node ${process.version}`);
  console.log(
    `load average before ${loadBefore.map((x) => x.toFixed(2)).join(" ")}, after ${loadAfter.map((x) => x.toFixed(2)).join(" ")}`,
  );
  for (const r of rows) console.log(`  ${r.map((c, i) => c.padEnd(widths[i])).join("  |  ")}`);
  console.log("");
  const goals = {
    throughputRatio: { goal: `>= ${GOALS.throughputRatio}`, value: round(ratio, 2), met: ratio >= GOALS.throughputRatio },
    addedP50Ms: { goal: `< ${GOALS.addedP50Ms}`, value: round(addedP50, 3), met: addedP50 < GOALS.addedP50Ms },
    addedP99Ms: { goal: `< ${GOALS.addedP99Ms}`, value: round(addedP99, 3), met: addedP99 < GOALS.addedP99Ms },
    referenceRatio: { goal: `>= ${GOALS.referenceRatio}`, value: round(gatewayToRef, 2), met: gatewayToRef >= GOALS.referenceRatio },
    isolationP50Ratio: {
      goal: `<= ${ISOLATION_GOALS.p50Ratio}`,
      value: round(isolation.p50Ratio, 2),
      met: isolation.p50Met,
    },
    isolationP99Ratio: {
      goal: `<= ${ISOLATION_GOALS.p99Ratio}`,
      value: round(isolation.p99Ratio, 2),
      met: isolation.p99Met,
    },
    dataPlaneRssMB: {
      goal: `<= ${GOALS.rssMB}`,
      value: rssSettled.gateway,
      rightAfterTheLoad: rss.gateway,
      met: rssSettled.gateway !== null && rssSettled.gateway <= GOALS.rssMB,
    },
    dataPlaneStartMs: {
      goal: `<= ${GOALS.startMs}`,
      value: dataPlaneStartMs,
      met: dataPlaneStartMs !== null && dataPlaneStartMs <= GOALS.startMs,
    },
  };
  console.log(`  gateway / bare throughput: ${ratio.toFixed(2)} (goal >= ${GOALS.throughputRatio}): ${met(goals.throughputRatio.met)}`);
  console.log(`  same-work reference / bare throughput: ${refRatio.toFixed(2)} (what the work itself costs; not a goal)`);
  console.log(
    `  gateway / same-work reference throughput: ${gatewayToRef.toFixed(2)} (goal >= ${GOALS.referenceRatio}): ${met(goals.referenceRatio.met)}` +
      `; CPU per call ${(gateway.serverCpuMsPerRequest / refLoad.serverCpuMsPerRequest).toFixed(2)} x the reference's`,
  );
  console.log(
    `  CPU per call: gateway ${(gateway.serverCpuMsPerRequest / bareLoad.serverCpuMsPerRequest).toFixed(2)} x the bare proxy's (+${(gateway.serverCpuMsPerRequest - bareLoad.serverCpuMsPerRequest).toFixed(3)} ms)`,
  );
  // The goal's budget on this machine: at 0.7 of the bare proxy's rate, what the upstream and the load generator take
  // (at their cost a call in the gateway's run) leaves the gateway's process the rest of the cores, and its main
  // thread at most one core.
  const goalRps = GOALS.throughputRatio * bareLoad.rps;
  const neighboursUs = ((gateway.otherCpuMs.upstream + gateway.generatorCpuMs) * 1000) / gateway.total;
  const processBudgetUs = (cpus().length * 1e6) / goalRps - neighboursUs;
  const mainUs = ((gateway.serverThreads.mainUser + gateway.serverThreads.mainSys) * 1000) / gateway.total;
  console.log(
    `  at ${GOALS.throughputRatio} (${f(goalRps)} req/s) the gateway's main thread could take at most ${f(1e6 / goalRps)} µs a call (now ${f(mainUs)}), ` +
      `and its process, beside the upstream and the load generator (${f(neighboursUs)} µs a call), at most ${f(processBudgetUs)} µs a call ` +
      `with every core busy (now ${f(gateway.serverCpuMsPerRequest * 1000)})`,
  );
  console.log(
    `  added p50: ${addedP50 >= 0 ? "+" : ""}${addedP50.toFixed(3)} ms (goal < ${GOALS.addedP50Ms} ms): ${met(goals.addedP50Ms.met)}`,
  );
  console.log(
    `  added p99: ${addedP99 >= 0 ? "+" : ""}${addedP99.toFixed(3)} ms (goal < ${GOALS.addedP99Ms} ms): ${met(goals.addedP99Ms.met)}`,
  );
  const lag = Math.max(barePaced.lagP99Ms, gatewayPaced.lagP99Ms);
  if (lag > 1)
    console.log(
      `  (the paced load generator itself sent its requests up to ${lag.toFixed(1)} ms late (p99): the machine was too busy for the latency figures to say much)`,
    );
  console.log(
    `  bare proxy drift between its two runs: ${(drift * 100).toFixed(0)}%; metered ${f(metered)} usage events for the gateway's run`,
  );
  for (const line of isolationReport(isolation, { what: "gateway calls", rate: RATE, loops: PAGE_LOOPS })) console.log(line);
  console.log(
    `  data-plane RSS ${SETTLE} s after the load: ${orNa(rssSettled.gateway, 1)} MB (goal <= ${GOALS.rssMB} MB): ${met(goals.dataPlaneRssMB.met)}; right after it ${orNa(rss.gateway, 1)} MB (the same-work reference: ${orNa(rssSettled.reference, 1)} and ${orNa(rss.reference, 1)} MB)`,
  );
  console.log(
    `  data-plane start: ${dataPlaneStartMs ?? "n/a"} ms from its first line to listening (goal <= ${GOALS.startMs} ms): ${met(goals.dataPlaneStartMs.met)}`,
  );
  console.log(`  same-work reference drift between its two runs: ${(refDrift * 100).toFixed(0)}%`);
  if (ssePart.skipped) console.log(`  metering an SSE answer: skipped (${ssePart.skipped})`);
  else {
    const sp = ssePart;
    console.log(
      `  SSE answer with two token metrics / per-call price: throughput ${sp.throughputRatio.toFixed(2)} (${Math.round(sp.metered.load.rps)} against ${Math.round(sp.plain.load.rps)} req/s), CPU ${sp.cpuUsPerCallAdded.toFixed(1)} µs a call more`,
    );
    console.log(
      `  metering's added p50 at ${RATE} req/s: ${sp.addedP50Ms.toFixed(3)} ms (${sp.metered.paced.p50.toFixed(3)} against ${sp.plain.paced.p50.toFixed(3)}; goal <= ${GOALS.meteringAddedP50Ms}): ${met(sp.addedP50Ms <= GOALS.meteringAddedP50Ms)}; generator lag p99 up to ${sp.generatorLagP99Ms.toFixed(1)} ms`,
    );
  }
  if (prepaidPart.skipped) console.log(`  prepaid credits: skipped (${prepaidPart.skipped})`);
  else {
    const pp = prepaidPart;
    console.log(
      `  prepaid credits / postpaid throughput: ${pp.throughputRatio.toFixed(2)} (${Math.round(pp.prepaid.load.rps)} against ${Math.round(pp.plain.load.rps)} req/s; goal >= ${GOALS.prepaidThroughputRatio}): ${met(pp.throughputRatio >= GOALS.prepaidThroughputRatio)}`,
    );
    console.log(
      `  prepaid credits' added p50 at ${RATE} req/s: ${pp.addedP50Ms.toFixed(3)} ms (${pp.prepaid.paced.p50.toFixed(3)} against ${pp.plain.paced.p50.toFixed(3)}; goal <= ${GOALS.prepaidAddedP50Ms}): ${met(pp.addedP50Ms <= GOALS.prepaidAddedP50Ms)}; CPU ${pp.cpuUsPerCallAdded.toFixed(1)} µs a call more; ${pp.refused} calls refused`,
    );
  }
  if (redisPart.skipped) console.log(`  limits exact over 2 processes: skipped (${redisPart.skipped})`);
  else
    console.log(
      `  limits exact over 2 processes (Redis): ${redisPart.ok} of ${redisPart.calls} calls got 200 with a limit of ${redisPart.limit}: ${redisPart.exact ? "exact" : "NOT exact"}${redisPart.redisFallbackWarnings.length ? ` (${redisPart.redisFallbackWarnings.length} Redis fallback warnings)` : ""}`,
    );
  if (crashPart.skipped) console.log(`  usage events lost across a kill -9: skipped (${crashPart.skipped})`);
  else
    console.log(
      `  usage events lost across a kill -9 of one of 2 servers: ${crashPart.lost} (${crashPart.answered} calls answered 200, ${crashPart.answeredByKilled} of them by the killed one; ${crashPart.usageEvents} events; ${crashPart.cutOff} calls cut off by the kill, metered at least once): ${met(crashPart.lost === 0)}`,
    );
  if (profile) {
    console.log(`\n  where the gateway's CPU went during the throughput run (${profile.ms} ms busy; profile ${profile.file}):`);
    for (const g of profile.groups) console.log(`    ${String(g.share).padStart(5)}%  ${g.group}`);
    console.log("  top areas:");
    for (const a of profile.areas) console.log(`    ${String(a.share).padStart(5)}%  ${a.area}`);
    console.log("  top functions:");
    for (const fn of profile.functions) console.log(`    ${String(fn.share).padStart(5)}%  ${fn.name} ${fn.where}`);
  }
  if (sseProfile) {
    // Main-thread µs a call by function, the metered SSE run against the per-call one: where metering's time goes.
    const { plain, metered } = sseProfile;
    const perCall = (p, fn) => ((p.functions.find((f) => f.name === fn.name && f.where === fn.where)?.ms ?? 0) * 1000) / p.calls;
    const rows = [...new Map([...plain.functions, ...metered.functions].map((f) => [`${f.name} ${f.where}`, f])).values()]
      .map((f) => ({ f, plain: perCall(plain, f), metered: perCall(metered, f) }))
      .sort((a, b) => b.metered - b.plain - (a.metered - a.plain))
      .slice(0, 25);
    console.log(`\n  SSE: µs of main-thread CPU per call by function, per-call price vs token metrics (largest differences first):`);
    console.log(`    per-call  metered  function`);
    for (const r of rows)
      console.log(`    ${r.plain.toFixed(1).padStart(8)} ${r.metered.toFixed(1).padStart(8)}  ${r.f.name} ${r.f.where}`);
    const all = (p) => (p.ms * 1000) / p.calls;
    console.log(`    ${all(plain).toFixed(1).padStart(8)} ${all(metered).toFixed(1).padStart(8)}  all`);
  }
  if (profile && bareProfile) {
    // The main thread's busy time per call, by kind: where the gateway's extra cost is, in absolute terms.
    const perCall = (p, group) => ((p.groups.find((g) => g.group === group)?.ms ?? 0) * 1000) / p.calls;
    const groups = [...new Set([...profile.groups, ...bareProfile.groups].map((g) => g.group))];
    console.log(`\n  µs of main-thread CPU per call, by kind (bare proxy's first run, profile ${bareProfile.file}):`);
    console.log(`    ${"bare".padStart(7)} ${"gateway".padStart(8)}`);
    for (const g of groups)
      console.log(`    ${perCall(bareProfile, g).toFixed(1).padStart(7)} ${perCall(profile, g).toFixed(1).padStart(8)}  ${g}`);
    const total = (p) => (p.ms * 1000) / p.calls;
    console.log(`    ${total(bareProfile).toFixed(1).padStart(7)} ${total(profile).toFixed(1).padStart(8)}  all`);
  }
  if (profile?.compared && referenceProfile) {
    // Function by function, µs of main-thread CPU a call: what the gateway spends beyond the same-work reference
    // (Node's own functions are the same in both; the platform's and the reference's own code are named by file).
    const perCall = (list, calls) => new Map(list.map((f) => [`${f.name} ${f.where}`, (f.ms * 1000) / calls]));
    const gw = perCall(profile.compared, profile.calls);
    const ref = perCall(referenceProfile.functions, referenceProfile.calls);
    const rows = [...new Set([...gw.keys(), ...ref.keys()])]
      .map((k) => ({ k, gw: gw.get(k) ?? 0, ref: ref.get(k) ?? 0 }))
      .sort((a, b) => b.gw - b.ref - (a.gw - a.ref))
      .slice(0, 25);
    const total = (p) => (p.ms * 1000) / p.calls;
    console.log(`\n  µs of main-thread CPU a call, gateway against the same-work reference (profile ${referenceProfile.file}):`);
    console.log(`    ${"reference".padStart(9)} ${"gateway".padStart(8)} ${"more".padStart(6)}  function`);
    for (const r of rows)
      console.log(`    ${r.ref.toFixed(1).padStart(9)} ${r.gw.toFixed(1).padStart(8)} ${(r.gw - r.ref).toFixed(1).padStart(6)}  ${r.k}`);
    console.log(
      `    ${total(referenceProfile).toFixed(1).padStart(9)} ${total(profile).toFixed(1).padStart(8)} ${(total(profile) - total(referenceProfile)).toFixed(1).padStart(6)}  all`,
    );
  }
  const file = writeResults("gateway", {
    settings: { DURATION, WARMUP, CONNECTIONS, RATE, PACED_DURATION, REDIS_PREFIX },
    loadBefore,
    loadAfter,
    bare: { load: bareLoad, runs: [bare1, bare2], paced: barePaced, rssMB: rss.bare, rssSettledMB: rssSettled.bare },
    reference: { load: refLoad, runs: [ref1, ref2], rssMB: rss.reference, rssSettledMB: rssSettled.reference, drift: refDrift },
    isolation,
    dataPlaneStartMs,
    gateway: { load: gateway, paced: gatewayPaced, rssMB: rss.gateway, rssSettledMB: rssSettled.gateway, usageEvents: metered },
    upstreamRssMB: rss.upstream,
    drift,
    goals,
    limitsOverTwoProcesses: redisPart,
    prepaidCredits: prepaidPart,
    meteredSse: ssePart,
    killNine: crashPart,
    profile,
    bareProfile,
    referenceProfile,
    sseProfile,
  });
  console.log(`\nwritten to ${file}`);
}

runBench(main);
