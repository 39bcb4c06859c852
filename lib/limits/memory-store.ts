import { NativeDate } from "@/lib/native-date";
import {
  DAY_MS,
  HOUR_MS,
  slidingEstimate,
  windowFitsAtMs,
  windowRoomGrowsAtMs,
  type Decision,
  type LimitState,
  type LimiterStore,
} from "./store";
import { burstWindowSeconds, type KeyPolicy } from "./plans";

// The embedded default: everything in this process's memory. Node runs one request's synchronous code at a
// time, so a check-and-consume without an await in between is atomic.

interface Bucket {
  tokens: number;
  ts: number;
}
interface Windows {
  [windowStart: number]: number;
}

export class MemoryStore implements LimiterStore {
  readonly kind = "memory" as const;
  private buckets = new Map<string, Bucket>();
  private windows = new Map<string, Windows>();
  private inFlight = new Map<string, number>();
  private counters = new Map<string, { value: number; expires: number }>();
  private flags = new Map<string, number>();

  private windowCounts(key: string, windowMs: number, nowMs: number) {
    const id = `${key}:${windowMs}`;
    const start = Math.floor(nowMs / windowMs);
    const w = this.windows.get(id) ?? {};
    for (const k of Object.keys(w)) if (Number(k) < start - 1) delete w[Number(k)];
    this.windows.set(id, w);
    return { w, start, previous: w[start - 1] ?? 0, current: w[start] ?? 0 };
  }

  consume(key: string, policy: KeyPolicy, nowMs: number): Decision {
    const ratePerMs = policy.refillPerMinute / 60_000;
    const b = this.buckets.get(key) ?? { tokens: policy.capacity, ts: nowMs };
    const tokens = Math.min(policy.capacity, b.tokens + Math.max(0, nowMs - b.ts) * ratePerMs);
    const windows = [
      { name: "hour" as const, limit: policy.perHour, ms: HOUR_MS },
      { name: "day" as const, limit: policy.perDay, ms: DAY_MS },
    ]
      .filter((w) => w.limit !== null)
      .map((w) => ({ ...w, ...this.windowCounts(key, w.ms, nowMs) }));

    const bucketOk = tokens >= 1;
    const windowOk = windows.map((w) => slidingEstimate(w.previous, w.current, nowMs, w.ms) + 1 <= w.limit!);
    const allowed = bucketOk && windowOk.every(Boolean);
    const after = allowed ? tokens - 1 : tokens;
    this.buckets.set(key, { tokens: after, ts: nowMs });
    if (allowed) for (const w of windows) w.w[w.start] = w.current + 1;

    const limits: LimitState[] = [bucketState(policy, after, nowMs)];
    windows.forEach((w) => {
      const current = w.current + (allowed ? 1 : 0);
      const remaining = Math.max(0, Math.floor(w.limit! - slidingEstimate(w.previous, current, nowMs, w.ms)));
      limits.push({
        name: w.name,
        limit: w.limit!,
        remaining,
        windowSeconds: w.ms / 1000,
        resetMs: (w.start + 1) * w.ms,
        moreAtMs: windowRoomGrowsAtMs(w.previous, current, nowMs, w.ms, w.limit!, remaining),
      });
    });
    return decide(
      allowed,
      limits,
      bucketOk,
      after,
      ratePerMs,
      windows.map((w, i) => ({ ok: windowOk[i], name: w.name, fitsAtMs: windowFitsAtMs(w.previous, w.current, nowMs, w.ms, w.limit!) })),
      nowMs,
    );
  }

  acquire(key: string, limit: number): boolean {
    const n = this.inFlight.get(key) ?? 0;
    if (n >= limit) return false;
    this.inFlight.set(key, n + 1);
    return true;
  }

  release(key: string): void {
    const n = (this.inFlight.get(key) ?? 1) - 1;
    if (n <= 0) this.inFlight.delete(key);
    else this.inFlight.set(key, n);
  }

  /** At once when the counter is there; a promise when it has to be seeded first. */
  incrementCounter(key: string, by: number, init: () => Promise<number>, ttlMs: number): number | Promise<number> {
    const c = this.counters.get(key);
    if (c && c.expires > NativeDate.now()) return (c.value += by);
    return this.seedThenIncrement(key, by, init, ttlMs);
  }

  private async seedThenIncrement(key: string, by: number, init: () => Promise<number>, ttlMs: number): Promise<number> {
    const seeded = await init();
    let c = this.counters.get(key); // another request may have seeded it while we waited
    if (!c || c.expires <= NativeDate.now()) this.counters.set(key, (c = { value: seeded, expires: NativeDate.now() + ttlMs }));
    c.value += by;
    return c.value;
  }

  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    const now = NativeDate.now();
    const until = this.flags.get(key);
    if (until && until > now) return false;
    if (this.flags.size > 100_000) for (const [k, t] of this.flags) if (t <= now) this.flags.delete(k);
    this.flags.set(key, now + ttlMs);
    return true;
  }
}

/** The token bucket's state after a check: `tokens` left (fractional), full again at resetMs, one more at moreAtMs. */
export function bucketState(policy: KeyPolicy, tokens: number, nowMs: number): LimitState {
  const ratePerMs = policy.refillPerMinute / 60_000;
  return {
    name: "burst",
    limit: policy.capacity,
    remaining: Math.floor(tokens),
    windowSeconds: burstWindowSeconds(policy),
    resetMs: nowMs + Math.ceil((policy.capacity - tokens) / ratePerMs),
    moreAtMs: nowMs + Math.ceil((Math.floor(tokens) + 1 - tokens) / ratePerMs),
  };
}

/** The shared tail of both stores: which limit refused and when to come back. */
export function decide(
  allowed: boolean,
  limits: LimitState[],
  bucketOk: boolean,
  tokens: number,
  ratePerMs: number,
  windows: { ok: boolean; name: "hour" | "day"; fitsAtMs: number }[],
  nowMs: number,
): Decision {
  if (allowed) return { allowed, limits, retryAfterSeconds: 0 };
  const waits: { name: LimitState["name"]; ms: number }[] = [];
  if (!bucketOk) waits.push({ name: "burst", ms: Math.ceil((1 - tokens) / ratePerMs) });
  for (const w of windows) if (!w.ok) waits.push({ name: w.name, ms: w.fitsAtMs - nowMs });
  const worst = waits.sort((a, b) => b.ms - a.ms)[0];
  return { allowed, limits, retryAfterSeconds: Math.max(1, Math.ceil(worst.ms / 1000)), refusedBy: worst.name };
}
