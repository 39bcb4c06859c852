// Latency histograms that merge exactly: whole milliseconds below one second (so percentiles of integer
// latencies are exact), then 10 ms steps to 10 s, then 1 s steps. Stored sparse as {"<bucket>": count}.

export type Histogram = Record<string, number>;

export function bucketOf(ms: number): number {
  const v = Math.max(0, ms);
  if (v < 1000) return Math.round(v);
  if (v < 10_000) return Math.round(v / 10) * 10;
  return Math.round(v / 1000) * 1000;
}

export function addTo(h: Histogram, ms: number, count = 1): void {
  const b = String(bucketOf(ms));
  h[b] = (h[b] ?? 0) + count;
}

export function merge(into: Histogram, from: Histogram): Histogram {
  for (const [b, c] of Object.entries(from)) into[b] = (into[b] ?? 0) + c;
  return into;
}

/** Nearest-rank percentile (p in 0..100): the smallest bucket with at least p% of the values at or below it. */
export function percentile(h: Histogram, p: number): number | null {
  const entries = Object.entries(h)
    .map(([b, c]) => [Number(b), c] as const)
    .sort((a, b) => a[0] - b[0]);
  const total = entries.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * total));
  let seen = 0;
  for (const [b, c] of entries) {
    seen += c;
    if (seen >= rank) return b;
  }
  return entries[entries.length - 1][0];
}
