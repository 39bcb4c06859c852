import type { KeyPolicy } from "./plans";

// One interface, two stores: memory (the embedded default) and Redis (shared by several processes). Both
// apply the same rules in one atomic step: a token bucket (burst and per-minute rate) and sliding-window
// counters for the hour and the day. A request is admitted only if every limit has room, and then counts
// against all of them.

export interface LimitState {
  /** "burst": the token bucket (capacity `limit`, refilled at the sustained per-minute rate). */
  name: "burst" | "hour" | "day";
  limit: number;
  remaining: number;
  /** Unix ms when this limit has room again (bucket: when it is full again; windows: when the window rolls). */
  resetMs: number;
  windowSeconds: number;
  /**
   * Unix ms when there is room for one more request than `remaining`: until then `remaining` is all the client can
   * use (the draft's effective window `t`). For a refused request, when it would be admitted.
   */
  moreAtMs: number;
}

export interface Decision {
  allowed: boolean;
  limits: LimitState[];
  /** When refused: seconds until a request can succeed. */
  retryAfterSeconds: number;
  /** Which limit refused, when refused. */
  refusedBy?: LimitState["name"];
}

/** The memory store answers at once; Redis with a promise. Callers await only a real promise (no microtask hop). */
export type MaybePromise<T> = T | Promise<T>;

/** `f` of the value, at once when it is not a promise. */
export const andThen = <T, U>(value: MaybePromise<T>, f: (v: T) => MaybePromise<U>): MaybePromise<U> =>
  value instanceof Promise ? value.then(f) : f(value);

export interface LimiterStore {
  readonly kind: "memory" | "redis";
  consume(key: string, policy: KeyPolicy, nowMs: number): MaybePromise<Decision>;
  /** Takes a slot of the key's concurrent-request allowance; false when all are in use. */
  acquire(key: string, limit: number): MaybePromise<boolean>;
  release(key: string): MaybePromise<void>;
  /** Adds to a counter (quota usage) and returns the new value; `init` seeds it when absent. */
  incrementCounter(key: string, by: number, init: () => Promise<number>, ttlMs: number): MaybePromise<number>;
  /** Sets a flag once; true for the first caller only (at-most-once events). */
  setOnce(key: string, ttlMs: number): Promise<boolean>;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** Sliding-window estimate from two fixed windows: the previous one weighted by how much of it still overlaps. */
export function slidingEstimate(previous: number, current: number, nowMs: number, windowMs: number): number {
  const elapsed = (nowMs % windowMs) / windowMs;
  return previous * (1 - elapsed) + current;
}

/**
 * When a refused request would fit a sliding window again: the first instant the estimate leaves room for one.
 * Not simply when the window rolls: the full window then becomes the previous one and still weighs almost whole,
 * while a window refused only for last window's weight frees up long before it rolls.
 */
export function windowFitsAtMs(previous: number, current: number, nowMs: number, windowMs: number, limit: number): number {
  const start = nowMs - (nowMs % windowMs);
  // 1 ms of margin: the estimate at the exact instant may round a hair above the limit.
  if (current + 1 <= limit) return start + Math.ceil(Math.max(0, 1 - (limit - 1 - current) / previous) * windowMs) + 1;
  return start + windowMs + Math.ceil(Math.max(0, 1 - (limit - 1) / current) * windowMs) + 1;
}

/** When a sliding window next has room for `remaining + 1` requests, with no more sent: the effective window's end. */
export function windowRoomGrowsAtMs(
  previous: number,
  current: number,
  nowMs: number,
  windowMs: number,
  limit: number,
  remaining: number,
): number {
  const rolls = nowMs - (nowMs % windowMs) + windowMs;
  if (remaining >= limit) return rolls;
  // Room for remaining + 1 under `limit` is room for one under `limit - remaining`.
  const at = windowFitsAtMs(previous, current, nowMs, windowMs, limit - remaining);
  return Number.isFinite(at) && at > nowMs ? at : rolls;
}
