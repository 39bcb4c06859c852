// The benchmarks' own arithmetic (scripts/lib/bench-paced.mjs, scripts/lib/bench-util.mjs): paced runs pooled into
// one set of percentiles, and a process's CPU split by thread. Their figures go into the README, so a slip here would
// misreport every run.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { combinePaced } from "../../scripts/lib/bench-paced.mjs";
// @ts-expect-error: plain ESM script without types
import { threadCpuMs, threadCpuSince } from "../../scripts/lib/bench-util.mjs";
// @ts-expect-error: plain ESM script without types
import { isolationFigures, perSecond, ISOLATION_GOALS } from "../../scripts/lib/bench-isolation.mjs";

const run = (times: number[], extra: Record<string, unknown> = {}) => ({
  rate: 200,
  durationS: 10,
  sent: times.length,
  ok: times.length,
  non2xx: 0,
  errors: 0,
  p50: NaN,
  p99: NaN,
  times: [...times].sort((a, b) => a - b),
  lags: times.map(() => 0.1),
  serverCpuMsPerRequest: 1,
  ...extra,
});

test("paced runs are pooled: percentiles over all their requests, not an average of each run's", () => {
  // One run all fast, one all slow: the pooled median lies between them, where averaging p50s would say the same
  // here but not for the p99, which must come from the slow run's tail.
  const fast = run([1, 1, 1, 1], { p50: 1, p99: 1, serverCpuMsPerRequest: 0.2 });
  const slow = run([3, 3, 3, 9], { p50: 3, p99: 9, serverCpuMsPerRequest: 0.6 });
  const pooled = combinePaced([fast, slow]);
  assert.equal(pooled.sent, 8);
  assert.equal(pooled.durationS, 20);
  assert.equal(pooled.p50, 2); // between the 4th (1) and 5th (3) of eight sorted times
  assert.ok(pooled.p99 > 8 && pooled.p99 <= 9, `p99 ${pooled.p99}`);
  assert.equal(pooled.max, 9);
  assert.equal(pooled.mean, 22 / 8);
  assert.equal(pooled.serverCpuMsPerRequest, 0.4); // weighted by requests sent
  assert.equal(pooled.serverThreads, undefined, "no thread figures when a run has none");
  const threads = (main: number) => ({ mainUser: main, mainSys: 1, busiestOther: 2, rest: 3 });
  const withThreads = combinePaced([
    { ...fast, serverThreads: threads(10) },
    { ...slow, serverThreads: threads(30) },
  ]);
  assert.deepEqual(withThreads.serverThreads, { mainUser: 40, mainSys: 2, busiestOther: 4, rest: 6 });
  assert.deepEqual(pooled.runs, [
    { p50: 1, p99: 1 },
    { p50: 3, p99: 9 },
  ]);
});

test("paced runs pooled: the times from each call's send are pooled too, and only when every run has them", () => {
  // Due-time latencies include the generator's lag; timed from the send it drops out. Both pooled over all requests.
  const early = run([2, 2, 2, 2], { fromSend: [1, 1, 1, 1] });
  const late = run([4, 4, 4, 12], { fromSend: [1, 1, 2, 3] });
  const pooled = combinePaced([early, late]);
  assert.equal(pooled.p50, 3);
  assert.equal(pooled.p50FromSend, 1);
  assert.ok(pooled.p99FromSend > 2.9 && pooled.p99FromSend <= 3, `p99 from send ${pooled.p99FromSend}`);
  assert.ok(pooled.p99 > pooled.p99FromSend, "the due-time p99 keeps the generator's lag");
  // A run from before the figure existed: no pooled figure rather than one over half the requests.
  const partly = combinePaced([early, run([4, 4, 4, 12])]);
  assert.ok(Number.isNaN(partly.p99FromSend));
  assert.deepEqual(partly.fromSend, []);
});

test("a process's CPU by thread: the main thread by its id, the busiest other thread, the rest together", () => {
  // The main thread is not the lowest id here, nor the first listed.
  const before = { 10: { user: 5, sys: 0 }, 11: { user: 1, sys: 1 }, 12: { user: 100, sys: 50 } };
  const after = { 10: { user: 65, sys: 10 }, 11: { user: 4, sys: 2 }, 12: { user: 400, sys: 90 }, 13: { user: 3, sys: 0 } };
  assert.deepEqual(threadCpuSince(before, after, 12), { mainUser: 300, mainSys: 40, busiestOther: 70, rest: 4 + 3 });
});

test("this process's threads are read from /proc, the main one among them", () => {
  const threads: Record<string, { user: number; sys: number }> = threadCpuMs(process.pid);
  assert.ok(threads[process.pid], "the main thread's id is the process's");
  for (const t of Object.values(threads)) assert.ok(t.user >= 0 && t.sys >= 0);
});

test("isolation: p50 and p99 under page load over those alone, each against its goal", () => {
  assert.deepEqual(ISOLATION_GOALS, { p50Ratio: 1.5, p99Ratio: 2 });
  const within = isolationFigures({ p50: 0.5, p99: 1 }, { p50: 0.75, p99: 2 });
  assert.equal(within.p50Ratio, 1.5);
  assert.equal(within.p99Ratio, 2);
  assert.equal(within.p50Met, true, "a ratio equal to the goal meets it");
  assert.equal(within.p99Met, true);
  const beyond = isolationFigures({ p50: 0.5, p99: 1 }, { p50: 0.76, p99: 2.5 });
  assert.equal(beyond.p50Met, false);
  assert.equal(beyond.p99Met, false);
  // Loaded faster than alone is a ratio below 1, met; a run with no requests (NaN) is not.
  assert.equal(isolationFigures({ p50: 1, p99: 4 }, { p50: 0.9, p99: 3 }).p50Met, true);
  assert.equal(isolationFigures({ p50: NaN, p99: NaN }, { p50: 1, p99: 1 }).p50Met, false);
});

test("pages a second: a count over milliseconds; nothing measured is NaN, not Infinity", () => {
  assert.equal(perSecond(150, 10_000), 15);
  assert.equal(perSecond(1, 250), 4);
  assert.ok(Number.isNaN(perSecond(5, 0)));
});
