import v8 from "node:v8";
import { trimMalloc } from "./malloc-trim";

// Giving back, once the calls stop, the memory a burst of them grew.
//
// Under load V8 grows the young generation to its two 16 MB semi-spaces (scripts/lib/server-flags.mjs says why they
// are that large) and the old generation to 1.5 times what survived its last full collection. Neither comes back
// by itself when the calls stop: the semi-spaces shrink only at a collection that sees a low allocation rate, and
// with no calls there is no allocation and so no collection; the old generation's pages stay committed, half
// empty, until a compacting collection moves what lives on them. Measured after bench:gateway's load (2026-11-30,
// docs/benchmarks.md): 16–32 MB of semi-spaces and 12–15 MB of old-generation pages held, unused, for as long as
// the process stayed quiet: after a burst, overnight, on a machine the data plane shares with Next and the database.
//
// So, in a quiet spell (no request at all), the data plane runs, with nothing else to do:
//   0. after 1 s, a young-generation collection (~1 ms): V8 judges the allocation rate over its last 5 s from the
//      records its collections leave, and the last record of the burst would otherwise span the quiet too, and count
//      up to a whole semi-space of the burst's allocation against it;
//   then after DATA_PLANE_IDLE_RELEASE_MS (6 s by default: the 5 s after that marker that V8 looks back on), and at
//   least that time less 1 s, and 250 ms more, after the marker (5.25 s by default):
//   1. a young-generation collection, which now sees the low rate and shrinks the semi-spaces to their first size;
//   2. a full collection that compacts (V8's --compact-on-every-full-gc for that one collection: node's
//      v8.setFlagsFromString, toggled as its documentation's own example toggles --trace_gc), which frees the old
//      generation's emptied pages: ~20–40 ms at the data plane's heap;
//   3. a young-generation collection, for what the full one left there;
//   4. malloc_trim (malloc-trim.ts): the free pages inside malloc's heap, which the collections have just added to
//      by freeing the Buffers' memory, go back to the system (11.7 MB of a 31–41 MB heap after the benchmark's load).
// Then it waits for the next request. If the semi-spaces are still large, it tries once more a quiet spell later.
// It never runs under load (any request restarts the wait), and not at all without node's --expose-gc (scripts/serve.mjs gives it to the data plane, and data-plane.mjs hands the
// function over) or with DATA_PLANE_IDLE_RELEASE_MS=0 (read, and a wrong value refused, by the supervisor:
// scripts/serve.mjs).

/** V8's collection function as --expose-gc gives it: no argument is a full collection. */
export type CollectGarbage = (options?: { type: "minor"; execution: "sync" }) => void;

export interface IdleRelease {
  /** Looks at the request count at `nowMs`; returns what it did on this call. */
  check(requestCount: number, nowMs: number): "marked" | "released" | null;
}

/** At most this many releases in one quiet spell (the second only when the first left the semi-spaces large). */
const TRIES_PER_SPELL = 2;
/** Step 0's wait. */
const MARK_AFTER_MS = 1000;
/** A check's worth (the timer's 250 ms) more than the quiet time's rest between the marker and the release: with the
 * default, V8's whole 5 s window and a little more. Counted from the quiet spell's start alone, the marker (at the
 * first check after 1 s) and the release (at the first after 6 s) were 4.75–5.25 s apart, and when under 5 s the
 * window the release is judged by reached back past the marker into the burst. */
const AFTER_MARK_MARGIN_MS = 250;

/** The decision alone, with time and the count passed in (tests move them). `release` returns true when nothing is
 * left to give back. */
export function idleRelease(quietMs: number, steps: { mark(): void; release(): boolean }): IdleRelease {
  let lastCount = 0;
  let quietSince = 0;
  let marked = false;
  let markedAt = 0;
  // The start-up is a burst too (loading the bundle and building its schemas grows the young generation to 16 MB
  // before any request): a process quiet since it started is released like one quiet since its last call.
  let tries = 0;
  return {
    check(requestCount, nowMs) {
      if (requestCount !== lastCount) {
        lastCount = requestCount;
        quietSince = nowMs;
        marked = false;
        tries = 0;
        return null;
      }
      if (tries >= TRIES_PER_SPELL) return null;
      const quiet = nowMs - quietSince;
      if (!marked && quiet >= MARK_AFTER_MS) {
        marked = true;
        markedAt = nowMs;
        steps.mark();
        return "marked";
      }
      if (quiet < quietMs) return null;
      if (marked && nowMs - markedAt < quietMs - MARK_AFTER_MS + AFTER_MARK_MARGIN_MS) return null;
      tries = steps.release() ? TRIES_PER_SPELL : tries + 1;
      quietSince = nowMs; // a further try waits a whole quiet spell more (the release's collections are its marker)
      return "released";
    },
  };
}

/** The young generation's committed bytes (V8's new space: both semi-spaces). */
function youngGenerationBytes(): number {
  return v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
}

/** Semi-spaces at or under this are back where V8 starts them. */
const YOUNG_GENERATION_FLOOR = 4 * 1024 * 1024;

/** Step 0 above. */
export function markQuiet(collect: CollectGarbage): void {
  collect({ type: "minor", execution: "sync" });
}

/** Steps 1–4 above; true when the young generation is back to its first size. */
export function releaseIdleMemory(collect: CollectGarbage): boolean {
  collect({ type: "minor", execution: "sync" });
  v8.setFlagsFromString("--compact-on-every-full-gc");
  try {
    collect();
  } finally {
    v8.setFlagsFromString("--no-compact-on-every-full-gc");
  }
  collect({ type: "minor", execution: "sync" });
  trimMalloc();
  return youngGenerationBytes() <= YOUNG_GENERATION_FLOOR;
}

/** Checks every quarter of a second (an unref'd timer: it never keeps the process alive); returns the timer's stop. */
export function startIdleRelease(
  collect: CollectGarbage | undefined,
  requestCount: () => number,
  quietMs: number,
  steps: { mark(collect: CollectGarbage): void; release(collect: CollectGarbage): boolean } = {
    mark: markQuiet,
    release: releaseIdleMemory,
  },
): () => void {
  if (!collect || quietMs === 0) return () => {};
  const decision = idleRelease(quietMs, { mark: () => steps.mark(collect), release: () => steps.release(collect) });
  const timer = setInterval(() => decision.check(requestCount(), performance.now()), Math.min(250, quietMs));
  timer.unref();
  return () => clearInterval(timer);
}
