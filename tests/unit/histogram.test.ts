// Latency percentiles from mergeable histograms: exact for whole milliseconds below one second, whichever way
// the values were split into histograms (each server flush writes its own partial rollup).
import { test } from "node:test";
import assert from "node:assert/strict";
import { addTo, bucketOf, merge, percentile, type Histogram } from "@/lib/usage/histogram";

/** Nearest-rank percentile of raw values: the reference the histogram must agree with. */
function nearestRank(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1];
}

function histOf(values: number[]): Histogram {
  const h: Histogram = {};
  for (const v of values) addTo(h, v);
  return h;
}

/** A small deterministic PRNG, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

test("1..100 ms gives p50 50, p95 95, p99 99 and p100 100", () => {
  const h = histOf(Array.from({ length: 100 }, (_, i) => i + 1));
  assert.equal(percentile(h, 50), 50);
  assert.equal(percentile(h, 95), 95);
  assert.equal(percentile(h, 99), 99);
  assert.equal(percentile(h, 100), 100);
  assert.equal(percentile(h, 0), 1, "p0 is the smallest value");
});

test("the order values arrive in does not matter", () => {
  const values = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.deepEqual(histOf(values), histOf([...values].reverse()));
  assert.equal(percentile(histOf(values), 50), 50);
});

test("a skewed distribution: the tail shows in p95/p99 and not in p50", () => {
  const values = [...Array(90).fill(10), ...Array(10).fill(500)];
  const h = histOf(values);
  assert.equal(percentile(h, 50), 10);
  assert.equal(percentile(h, 90), 10);
  assert.equal(percentile(h, 91), 500);
  assert.equal(percentile(h, 95), 500);
  assert.equal(percentile(h, 99), 500);
});

test("buckets sort as numbers, not as strings", () => {
  // As strings "10" < "100" < "9"; as numbers 9 < 10 < 100.
  const h: Histogram = { "100": 1, "9": 1, "10": 1 };
  assert.equal(percentile(h, 34), 10);
  assert.equal(percentile(h, 33), 9);
  assert.equal(percentile(h, 100), 100);
});

test("an empty histogram has no percentiles", () => {
  assert.equal(percentile({}, 50), null);
  assert.equal(percentile({ "12": 0 }, 99), null);
});

test("a single value is every percentile", () => {
  const h = histOf([42]);
  for (const p of [1, 50, 95, 99, 100]) assert.equal(percentile(h, p), 42);
});

test("bucketing: whole ms below 1 s, 10 ms steps to 10 s, then 1 s steps", () => {
  assert.equal(bucketOf(0), 0);
  assert.equal(bucketOf(-3), 0, "a negative latency (clock step) counts as 0");
  assert.equal(bucketOf(0.4), 0);
  assert.equal(bucketOf(0.6), 1);
  assert.equal(bucketOf(999.4), 999);
  assert.equal(bucketOf(1234), 1230);
  assert.equal(bucketOf(1236), 1240);
  assert.equal(bucketOf(9_994), 9_990);
  assert.equal(bucketOf(12_345), 12_000);
  assert.equal(bucketOf(12_600), 13_000);
});

test("integer latencies below 1 s: every percentile equals the exact nearest rank", () => {
  const next = rng(7);
  const values = Array.from({ length: 5_000 }, () => Math.floor(next() ** 3 * 999) + 1); // long-tailed, 1..999
  const h = histOf(values);
  for (let p = 1; p <= 100; p++) assert.equal(percentile(h, p), nearestRank(values, p), `p${p}`);
});

test("merged histograms give the same percentiles as one histogram of all the values", () => {
  const next = rng(42);
  const values = Array.from({ length: 3_000 }, () => Math.floor(next() * next() * 900) + 1);
  // Split the values over 7 partial histograms at random, as several flushes and processes would.
  const parts: Histogram[] = Array.from({ length: 7 }, () => ({}));
  for (const v of values) addTo(parts[Math.floor(next() * parts.length)], v);
  const merged = parts.reduce((into, part) => merge(into, part), {} as Histogram);
  assert.deepEqual(merged, histOf(values));
  for (const p of [1, 25, 50, 75, 90, 95, 99, 99.9, 100]) assert.equal(percentile(merged, p), nearestRank(values, p), `p${p}`);
  assert.equal(
    Object.values(merged).reduce((s, c) => s + c, 0),
    values.length,
  );
});

test("merge adds counts into its target and leaves the source as it was", () => {
  const a: Histogram = { "5": 2, "10": 1 };
  const b: Histogram = { "10": 3, "20": 1 };
  const result = merge(a, b);
  assert.equal(result, a);
  assert.deepEqual(a, { "5": 2, "10": 4, "20": 1 });
  assert.deepEqual(b, { "10": 3, "20": 1 });
});

test("addTo with a count adds that many values at once", () => {
  const h: Histogram = {};
  addTo(h, 30, 98);
  addTo(h, 700, 2);
  assert.equal(percentile(h, 98), 30);
  assert.equal(percentile(h, 99), 700);
});

test("latencies above 1 s stay within half a bucket of the exact percentile", () => {
  const next = rng(3);
  const values = Array.from({ length: 2_000 }, () => 1_000 + next() * 20_000);
  const h = histOf(values);
  for (const p of [50, 95, 99]) {
    const exact = nearestRank(values, p);
    const tolerance = exact < 10_000 ? 5 : 500;
    assert.ok(Math.abs(percentile(h, p)! - exact) <= tolerance, `p${p}: ${percentile(h, p)} vs ${exact}`);
  }
});
