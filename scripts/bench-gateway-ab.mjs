// `npm run bench:gateway:ab`: bench:gateway's throughput comparison alone, in interleaved rounds, for checking one
// change against the same-work reference in a few minutes rather than the full bench's eight. It sets up what
// bench:gateway sets up (the loopback upstream, the platform on a fresh SQLite database with an offer on that
// upstream, the same-work reference scripts/bench-gateway-reference.mjs), then runs AB_ROUNDS rounds of the two
// under the same autocannon load (BENCH_CONNECTIONS, 32), alternating which goes first (A B, B A, ...), and prints for
// each run and on average:
//   - req/s, and the gateway's over the reference's (bench:gateway's goal: >= 0.9);
//   - the server's main-thread CPU a call (and its system time) and its other threads' (from /proc), the upstream's CPU a call;
//   - voluntary context switches a call of the server's main thread and of the upstream's (how often each was woken).
// The platform's figures are its data-plane worker's. Not a goal's judge: the full bench is (docs/benchmarks.md).
// Environment: AB_ROUNDS (3), AB_DURATION (s, 4), AB_WARMUP (s, 1), BENCH_CONNECTIONS (32), BENCH_SKIP_BUILD=1 (use
//   the build there is), BENCH_NODE_ARGS (more node flags for the data plane, e.g. `--cpu-prof`),
//   BENCH_REFERENCE_NODE_ARGS (the same for the same-work reference, to profile or trace both alike).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { prepare, ensureInstalled, ensureGenerated } from "./lib/prepare.mjs";
import { runBench } from "./lib/bench-run.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

const CALL_PATH = "/forecast?city=Oslo";

/** Voluntary context switches of a process's main thread so far (how often it slept and was woken), or NaN. */
function wakeups(pid) {
  try {
    return Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
  } catch {
    return NaN;
  }
}

async function main(run) {
  if (process.env.BENCH_SKIP_BUILD === "1") {
    ensureInstalled();
    ensureGenerated();
  } else prepare();
  const { makeBench, num } = await import("./lib/bench-setup.mjs");
  const { referenceEnv, startOfferSetup } = await import("./lib/bench-gateway-offer.mjs");
  const { runLoad, waitForIdle } = await import("./lib/bench-util.mjs");

  const ROUNDS = Math.max(1, Math.round(num("AB_ROUNDS", 3)));
  const DURATION = num("AB_DURATION", 4);
  const WARMUP = num("AB_WARMUP", 1);
  const CONNECTIONS = Math.round(num("BENCH_CONNECTIONS", 32));

  const bench = (run.bench = makeBench("bench:gateway:ab"));
  const { log } = bench;
  const { started, upstream, consumer, platform, offer } = await startOfferSetup(bench, {
    DATA_PLANE_NODE_FLAGS: process.env.BENCH_NODE_ARGS ?? "",
  });
  const reference = await started({
    script: "scripts/bench-gateway-reference.mjs",
    nodeArgs: (process.env.BENCH_REFERENCE_NODE_ARGS ?? "").split(" ").filter(Boolean),
    env: referenceEnv({ upstreamUrl: `${upstream.url}/v1`, keyHashSecret: bench.KEY_HASH_SECRET, consumer, slug: offer.slug }),
  });
  log(`platform's data plane pid ${platform.pid}, reference pid ${reference.pid}, upstream pid ${upstream.child.pid}`);

  const requests = [{ method: "GET", path: `/gw/${offer.slug}${CALL_PATH}`, headers: { authorization: `Bearer ${consumer.testKey}` } }];
  const servers = { reference, gateway: platform };
  for (const s of Object.values(servers)) await runLoad({ url: s.url, requests, connections: CONNECTIONS, duration: 2, warmup: 0 });

  const runs = { reference: [], gateway: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of round % 2 ? ["gateway", "reference"] : ["reference", "gateway"]) {
      const server = servers[name];
      await waitForIdle(server.pid);
      const before = { server: wakeups(server.pid), upstream: wakeups(upstream.child.pid) };
      const r = await runLoad({
        url: server.url,
        requests,
        connections: CONNECTIONS,
        duration: DURATION,
        warmup: WARMUP,
        cpuPid: server.pid,
        otherPids: { upstream: upstream.child.pid },
      });
      if (r.non2xx || r.errors) throw new Error(`${name}: ${r.non2xx} non-2xx and ${r.errors} errors of ${r.total} calls`);
      const t = r.serverThreads;
      const figures = {
        rps: r.rps,
        mainUs: ((t.mainUser + t.mainSys) * 1000) / r.total,
        mainSysUs: (t.mainSys * 1000) / r.total,
        otherUs: ((t.busiestOther + t.rest) * 1000) / r.total,
        upstreamUs: (r.otherCpuMs.upstream * 1000) / r.total,
        serverWakeups: (wakeups(server.pid) - before.server) / r.total,
        upstreamWakeups: (wakeups(upstream.child.pid) - before.upstream) / r.total,
      };
      runs[name].push(figures);
      log(
        `round ${round + 1} ${name}: ${Math.round(figures.rps)} req/s; main thread ${figures.mainUs.toFixed(1)} µs a call, other threads ` +
          `${figures.otherUs.toFixed(1)}; upstream ${figures.upstreamUs.toFixed(1)} µs; woken a call: server ` +
          `${figures.serverWakeups.toFixed(2)}, upstream ${figures.upstreamWakeups.toFixed(2)}`,
      );
    }
  }

  const mean = (list, key) => list.reduce((n, f) => n + f[key], 0) / list.length;
  const row = (label, key, digits) =>
    `  ${label.padEnd(36)}${mean(runs.reference, key).toFixed(digits).padStart(12)}${mean(runs.gateway, key).toFixed(digits).padStart(12)}`;
  console.log(`\nbench:gateway:ab — ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections (means)`);
  console.log(`  ${"".padEnd(36)}${"reference".padStart(12)}${"gateway".padStart(12)}`);
  console.log(row("req/s", "rps", 0));
  console.log(row("main thread µs a call", "mainUs", 1));
  console.log(row("  of which in the kernel", "mainSysUs", 1));
  console.log(row("other threads µs a call", "otherUs", 1));
  console.log(row("upstream's CPU µs a call", "upstreamUs", 1));
  console.log(row("server's main thread woken a call", "serverWakeups", 2));
  console.log(row("upstream woken a call", "upstreamWakeups", 2));
  const ratios = runs.gateway.map((g, i) => (g.rps / runs.reference[i].rps).toFixed(3));
  console.log(
    `\n  gateway / same-work reference throughput: ${(mean(runs.gateway, "rps") / mean(runs.reference, "rps")).toFixed(3)} (rounds: ${ratios.join(", ")}; bench:gateway's goal >= 0.9)`,
  );
}

runBench(main);
