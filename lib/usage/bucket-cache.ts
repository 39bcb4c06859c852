import { processSingleton } from "@/lib/process-state";
import { dimensionSums, histogramSums, type DimensionSum, type HistogramSum } from "./rollup-sums";

// The sums of closed time buckets, kept in memory. A bucket (an hour, 6 hours or a day of a metrics series) that
// ended a while ago no longer changes: every server flushes its rollups within seconds (ROLLUP_FLUSH_MS), and
// compaction merges rows without changing their sums. So a month of metrics asks the database only for the
// buckets not seen yet, in practice the open day, instead of summing ~30 days of rollup rows on every call.
//
// Late rows are the exception: a batch the database refused is retried later, and a row written more than
// CLOSED_AFTER_MS after its bucket ended is missed by a cached bucket until the entry expires (TTL_MS).

const CLOSED_AFTER_MS = 15 * 60_000;
const TTL_MS = 60 * 60_000;
const MAX_ENTRIES = 50_000;
/** More separate stretches of uncached buckets than this are read as one stretch. */
const MAX_RUNS = 4;

interface Entry {
  at: number;
  dims: DimensionSum[];
  hist: HistogramSum[];
}
const cache = processSingleton("metrics-bucket-cache", () => new Map<string, Entry>());

export interface BucketScope {
  projectId: string;
  environment: string;
  bucketMs: number;
  firstHour: Date;
  to: Date;
  nowMs: number;
  /** Only these products' calls (rollup-sums.ts). */
  productIds?: string[];
}

interface Bucket {
  start: number;
  lo: number;
  hi: number;
  key: string;
  closed: boolean;
}

function remember(key: string, entry: Entry): void {
  cache.delete(key);
  cache.set(key, entry);
  // Oldest first (a Map iterates in insertion order).
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
}

/** Dimension and histogram sums of every bucket from `firstHour` to `to`, closed buckets from the cache. */
export async function bucketSums(s: BucketScope): Promise<{ dims: DimensionSum[]; hist: HistogramSum[] }> {
  const first = s.firstHour.getTime(),
    last = s.to.getTime();
  const buckets: Bucket[] = [];
  for (let start = Math.floor(first / s.bucketMs) * s.bucketMs; start <= last; start += s.bucketMs) {
    // The part of the bucket the range covers: the first and last buckets may be partial.
    const lo = Math.max(start, first),
      hi = Math.min(start + s.bucketMs - 1, last);
    buckets.push({
      start,
      lo,
      hi,
      key: `${s.projectId}|${s.environment}|${s.productIds ? [...s.productIds].sort().join(",") : "*"}|${s.bucketMs}|${lo}|${hi}`,
      closed: start + s.bucketMs + CLOSED_AFTER_MS <= s.nowMs,
    });
  }
  // Cached buckets answer at once; the others are read in stretches of consecutive buckets.
  const cached = new Map<number, Entry>();
  let runs: Bucket[][] = [];
  buckets.forEach((b, i) => {
    const hit = b.closed ? cache.get(b.key) : undefined;
    if (hit && s.nowMs - hit.at < TTL_MS) return void cached.set(b.start, hit);
    const run = runs.at(-1);
    if (run && run.at(-1) === buckets[i - 1]) run.push(b);
    else runs.push([b]);
  });
  if (runs.length > MAX_RUNS) {
    // One stretch from the first to the last uncached bucket; the cached ones inside it are read again instead.
    const from = buckets.indexOf(runs[0][0]),
      to = buckets.indexOf(runs.at(-1)!.at(-1)!);
    runs = [buckets.slice(from, to + 1)];
    for (const b of runs[0]) cached.delete(b.start);
  }
  const dims: DimensionSum[] = [],
    hist: HistogramSum[] = [];
  for (const e of cached.values()) {
    dims.push(...e.dims);
    hist.push(...e.hist);
  }
  await Promise.all(
    runs.map(async (run) => {
      const scope = {
        projectId: s.projectId,
        environment: s.environment,
        firstHour: new Date(run[0].lo),
        to: new Date(run.at(-1)!.hi),
        bucketSeconds: s.bucketMs / 1000,
        productIds: s.productIds,
      };
      const [d, h] = await Promise.all([dimensionSums(scope), histogramSums(scope)]);
      dims.push(...d);
      hist.push(...h);
      const fresh = new Map<number, Entry>();
      const entry = (bucketSeconds: number) => {
        let e = fresh.get(bucketSeconds * 1000);
        if (!e) fresh.set(bucketSeconds * 1000, (e = { at: s.nowMs, dims: [], hist: [] }));
        return e;
      };
      for (const x of d) entry(x.bucket).dims.push(x);
      for (const x of h) entry(x.bucket).hist.push(x);
      for (const b of run) if (b.closed) remember(b.key, fresh.get(b.start) ?? { at: s.nowMs, dims: [], hist: [] });
    }),
  );
  return { dims, hist };
}
