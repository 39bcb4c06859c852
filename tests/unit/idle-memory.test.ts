import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { idleRelease, startIdleRelease, type CollectGarbage } from "@/lib/server/idle-memory";
// @ts-expect-error: plain ESM script without types
import { serverNodeFlags } from "../../scripts/lib/server-flags.mjs";

/** A decision whose steps write down when they ran. */
function recorded(quietMs: number, releaseGivesAll = true) {
  const ran: string[] = [];
  let at = 0;
  const decision = idleRelease(quietMs, {
    mark: () => ran.push(`mark@${at}`),
    release: () => (ran.push(`release@${at}`), releaseGivesAll),
  });
  return { ran, check: (count: number, t: number) => decision.check(count, (at = t)) };
}

test("idle release: marked after 1 s of quiet, released after the quiet time, never under load", () => {
  const d = recorded(6000);
  // Under load: the count moves at every check, so the wait keeps starting again.
  let count = 0;
  for (let t = 0; t <= 20_000; t += 250) assert.equal(d.check((count += 50), t), null);
  assert.deepEqual(d.ran, [], "nothing while requests arrive");
  // The last request was seen at 20 s.
  assert.equal(d.check(count, 20_750), null);
  assert.equal(d.check(count, 21_000), "marked", "1 s of quiet: the marker collection");
  assert.equal(d.check(count, 25_999), null, "not before the quiet time");
  assert.equal(d.check(count, 26_000), null, "nor before 5.25 s after the marker: V8's 5 s window, and a check more");
  assert.equal(d.check(count, 26_250), "released");
  for (let t = 26_500; t < 60_000; t += 250) assert.equal(d.check(count, t), null, "once, when it gave everything back");
  assert.deepEqual(d.ran, ["mark@21000", "release@26250"]);
  // A single request later starts another spell, and another marker and release after it.
  d.check(count + 1, 60_000);
  for (let t = 60_250; t <= 70_000; t += 250) d.check(count + 1, t);
  assert.deepEqual(d.ran, ["mark@21000", "release@26250", "mark@61000", "release@66250"]);
});

test("idle release: a request in the middle of the wait starts it again", () => {
  const d = recorded(6000);
  d.check(1, 0);
  d.check(1, 1000);
  d.check(1, 5000);
  d.check(2, 5500); // one call
  for (let t = 5750; t <= 12_000; t += 250) d.check(2, t);
  assert.deepEqual(d.ran, ["mark@1000", "mark@6500", "release@11750"]);
});

test("idle release: tried once more, a quiet spell later, when the first left memory to give back; never a third time", () => {
  const d = recorded(6000, false);
  d.check(1, 0);
  for (let t = 250; t <= 60_000; t += 250) d.check(1, t);
  assert.deepEqual(d.ran, ["mark@1000", "release@6250", "release@12250"]);
});

test("idle release: the start-up counts as a burst: a process quiet since it started is released once", () => {
  const d = recorded(6000);
  for (let t = 0; t < 60_000; t += 250) d.check(0, t);
  assert.deepEqual(d.ran, ["mark@1000", "release@6250"]);
});

test("idle release: a marker that came late (a busy timer) moves the release with it", () => {
  const d = recorded(6000);
  d.check(1, 0);
  d.check(1, 1900); // the first check after 1 s of quiet came 0.9 s late
  for (let t = 2150; t <= 12_000; t += 250) d.check(1, t);
  assert.deepEqual(d.ran, ["mark@1900", "release@7150"], "5.25 s after the marker, not 6 s after the last request");
});

test("idle release: the timer marks and releases after a quiet spell, with the collector it was given; nothing when turned off", async () => {
  const ran: string[] = [];
  const collect: CollectGarbage = () => {};
  const mine = (c: CollectGarbage) => (c === collect ? "mine" : "another");
  let count = 0;
  const stop = startIdleRelease(collect, () => count, 30, {
    mark: (c) => ran.push(`mark ${mine(c)}`),
    release: (c) => (ran.push(`release ${mine(c)}`), true),
  });
  count = 5; // a burst, then quiet
  // Two checks 30 ms apart are enough; a busy machine may hold the timer back, so wait for it, up to 5 s.
  for (const until = Date.now() + 5000; ran.length === 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 100)); // and a little longer: no second release
  stop();
  assert.deepEqual(ran, ["release mine"], "a quiet time under the marker's 1 s: released without it");
  const turnedOff = startIdleRelease(collect, () => count, 0, {
    mark: () => ran.push("mark"),
    release: () => (ran.push("off"), true),
  });
  count = 9;
  await new Promise((r) => setTimeout(r, 80));
  turnedOff();
  assert.deepEqual(ran, ["release mine"], "DATA_PLANE_IDLE_RELEASE_MS=0: no timer, nothing run");
});

// The real thing, in a node with the data plane's flags: a burst grows both generations, a quiet spell passes (the
// marker after 1 s, the release 5 s later, as the timer does), and the release gives the semi-spaces and the old
// generation's emptied pages back.
const BURST_THEN_RELEASE = `
import v8 from "node:v8";
import { markQuiet, releaseIdleMemory } from "./lib/server/idle-memory.ts";
const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name).space_size;
let kept = [];
for (let i = 0; i < 400000; i++) kept.push({ i, text: "call " + i });
let junk = [];
const until = Date.now() + 1500;
while (Date.now() < until) { junk.push({ at: Math.random() }); if (junk.length > 50000) junk = []; }
junk = null;
for (let i = 0; i < kept.length; i++) if (i % 3 !== 0) kept[i] = null; // two thirds of what the burst held, garbage
// Full collections as V8 runs them: free what is garbage, keep every page something lives on. Two: after one, what
// the old generation holds depended on the collector's timing (21.7 MB in one CI run, 36 in most).
globalThis.gc();
globalThis.gc();
await new Promise((r) => setTimeout(r, 300)); // the sweeper's last pages
const before = { young: space("new_space"), old: space("old_space") };
await new Promise((r) => setTimeout(r, 1000));
markQuiet(globalThis.gc);
await new Promise((r) => setTimeout(r, 5000));
const done = releaseIdleMemory(globalThis.gc);
await new Promise((r) => setTimeout(r, 300)); // the sweeper's last pages
const after = { young: space("new_space"), old: space("old_space") };
console.log(JSON.stringify({ before, after, done, kept: kept.filter(Boolean).length }));
`;

/** Runs `script` in a node with the data plane's flags and --expose-gc; its last line of output, parsed, and its stderr. */
function inServerNode(script: string) {
  const run = spawnSync(process.execPath, [...serverNodeFlags({}), "--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], {
    encoding: "utf8",
    cwd: process.cwd(),
  });
  assert.equal(run.status, 0, run.stderr);
  return { said: JSON.parse(run.stdout.trim().split("\n").pop()!), stderr: run.stderr };
}

test("idle release: after a burst and a quiet spell, the young generation is back to its first size and the old generation's empty pages are freed", () => {
  const { before, after, done, kept } = inServerNode(BURST_THEN_RELEASE).said;
  const mb = (b: number) => `${(b / 1048576).toFixed(1)} MB`;
  const said = `young ${mb(before.young)} → ${mb(after.young)}, old ${mb(before.old)} → ${mb(after.old)}`;
  assert.equal(kept, 133_334);
  assert.ok(before.young >= 16 * 1048576, `the burst grew the semi-spaces (${said})`);
  assert.ok(after.young <= 4 * 1048576, `the semi-spaces are back to their first size (${said})`);
  assert.equal(done, true, said);
  // A quarter of the old generation at least (36 → 15 MB here); a third full collection in its place frees nothing.
  assert.ok(after.old < before.old * 0.75, `the compaction gave back the pages a full collection kept (${said})`);
});

// malloc's part (lib/server/malloc-trim.ts): Buffers' memory comes from malloc, and once most of a burst's Buffers are
// collected, the few left keep the heap's top in place, so free() gives nothing back. The release must.
const MALLOC_BURST_THEN_RELEASE = `
import { releaseIdleMemory } from "./lib/server/idle-memory.ts";
const rss = () => process.memoryUsage().rss;
let held = [];
for (let i = 0; i < 60000; i++) held.push(Buffer.allocUnsafeSlow(1024).fill(i & 255));
held = held.filter((_, i) => i % 25 === 0); // one in 25 stays, spread over the whole heap
globalThis.gc();
globalThis.gc();
await new Promise((r) => setTimeout(r, 500)); // the Buffers' memory is freed on a background thread
const before = rss();
releaseIdleMemory(globalThis.gc);
await new Promise((r) => setTimeout(r, 300));
console.log(JSON.stringify({ before, after: rss(), held: held.length }));
`;

test("idle release: the free pages inside malloc's heap, which free() keeps, go back to the system", () => {
  const { said, stderr } = inServerNode(MALLOC_BURST_THEN_RELEASE);
  assert.equal(stderr, "", "koffi loads and glibc's malloc_trim is found");
  const { before, after, held } = said;
  assert.equal(held, 2400);
  // 57 of the 58.6 MB freed (here: 144 → 88 MB of RSS); without malloc_trim, under 1 MB.
  const givenBack = (before - after) / 1048576;
  assert.ok(givenBack > 40, `RSS ${(before / 1048576).toFixed(1)} → ${(after / 1048576).toFixed(1)} MB`);
});
