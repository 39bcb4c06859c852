// The per-request counter and histogram (lib/server/hot-metrics.ts) report what prom-client's own Counter and
// Histogram report for the same calls: the same text, the same JSON, and the same sums across workers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AggregatorRegistry, Counter, Histogram, Registry } from "prom-client";
import { HotCounter, HotHistogram } from "@/lib/server/hot-metrics";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function both() {
  const theirs = new Registry();
  const ours = new Registry();
  const help = "Requests answered.";
  return {
    theirs,
    ours,
    counters: [
      new Counter({ name: "t_requests_total", help, labelNames: ["kind", "route", "method", "status"] as const, registers: [theirs] }),
      new HotCounter("t_requests_total", help, ["kind", "route", "method", "status"], ours),
    ] as const,
    histograms: [
      new Histogram({ name: "t_duration_seconds", help, labelNames: ["kind", "route"] as const, buckets: BUCKETS, registers: [theirs] }),
      new HotHistogram("t_duration_seconds", help, ["kind", "route"], BUCKETS, ours),
    ] as const,
  };
}

function observeBoth(m: ReturnType<typeof both>, seed: number) {
  const [theirCounter, ourCounter] = m.counters;
  const [theirHistogram, ourHistogram] = m.histograms;
  const routes = ["/v1/products/{id}", "/gw/{slug}", "/oauth/token"];
  let x = seed;
  for (let i = 0; i < 500; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const kind = i % 3 === 0 ? "api" : "gateway";
    const route = routes[x % 3];
    const status = String([200, 201, 404, 429][x % 4]);
    // Values on the bounds themselves, between them, under the first and above the last.
    const seconds = i % 50 === 0 ? BUCKETS[x % BUCKETS.length] : i % 97 === 0 ? 12 + (x % 5) : (x % 100000) / 1e6;
    theirCounter.inc({ kind, route, method: "GET", status });
    ourCounter.inc(kind, route, "GET", status);
    theirHistogram.observe({ kind, route }, seconds);
    ourHistogram.observe(seconds, kind, route);
  }
}

test("the text and JSON are prom-client's for the same calls", async () => {
  const m = both();
  observeBoth(m, 7);
  assert.equal(await m.ours.metrics(), await m.theirs.metrics());
  // As the supervisor gets it over the cluster's IPC: JSON (prom-client's sum and count carry `exemplar: undefined`).
  const overIpc = async (r: Registry) => JSON.parse(JSON.stringify(await r.getMetricsAsJSON()));
  assert.deepEqual(await overIpc(m.ours), await overIpc(m.theirs));
});

test("summed over workers (the supervisor's AggregatorRegistry), the text is prom-client's", async () => {
  const workers = [both(), both()];
  workers.forEach((w, i) => observeBoth(w, 11 + i));
  const theirs = AggregatorRegistry.aggregate(await Promise.all(workers.map((w) => w.theirs.getMetricsAsJSON())));
  const ours = AggregatorRegistry.aggregate(await Promise.all(workers.map((w) => w.ours.getMetricsAsJSON())));
  assert.equal(await ours.metrics(), await theirs.metrics());
  assert.match(await ours.metrics(), /t_duration_seconds_bucket\{le="\+Inf",kind="gateway",route="\/gw\/\{slug\}"\} \d+/);
});

test("a value that is not a number and label values that do not fit are refused, as prom-client refuses them", () => {
  const m = both();
  assert.throws(() => m.histograms[1].observe(Number.NaN, "api", "/x"), TypeError);
  assert.throws(() => m.histograms[1].observe(0.1, "api"), /expected 2 label values/);
  assert.throws(() => m.counters[1].inc("api", "/x", "GET"), /expected 4 label values/);
});

test("reset empties every series", async () => {
  const m = both();
  observeBoth(m, 3);
  m.counters[1].reset();
  m.histograms[1].reset();
  assert.deepEqual(
    (await m.ours.getMetricsAsJSON()).map((metric) => metric.values.length),
    [0, 0],
  );
});
