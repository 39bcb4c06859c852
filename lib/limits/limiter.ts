import type Redis from "ioredis";
import { redis } from "@/lib/redis/client";
import { ApiError } from "@/lib/http/errors";
import { processSingleton } from "@/lib/process-state";
import { MemoryStore } from "./memory-store";
import { RedisStore } from "./redis-store";
import { andThen, type LimiterStore } from "./store";

// The store in use: Redis when REDIS_URL is set, else memory. When Redis fails (down, slow, unreachable) a call
// falls back to this process's memory store and logs a warning at most every 10 s: the API fails OPEN to
// per-process limits rather than refusing service or hanging (commands time out after 1 s).

const memory = processSingleton("limiter-memory", () => new MemoryStore());
const warnings = processSingleton("limiter-warnings", () => ({ last: 0, degradedSince: 0 }));

// The operator's log says when this process's limits went degraded (`platform.degraded`, with the cause) and when
// Redis answered again (`platform.recovered`, with how long it lasted): one line each, whatever the traffic.
function warn(e: unknown): void {
  const cause = e instanceof Error ? e.message : String(e);
  if (warnings.degradedSince === 0) {
    warnings.degradedSince = Date.now();
    console.warn(JSON.stringify({ event: "platform.degraded", component: "limiter", mode: "per-process", cause }));
  }
  if (Date.now() - warnings.last < 10_000) return;
  warnings.last = Date.now();
  console.warn(`[limits] Redis unavailable, using per-process limits: ${cause}`);
}

function answered(): void {
  if (warnings.degradedSince === 0) return;
  const seconds = Math.round((Date.now() - warnings.degradedSince) / 100) / 10;
  warnings.degradedSince = 0;
  console.warn(JSON.stringify({ event: "platform.recovered", component: "limiter", mode: "redis", degradedSeconds: seconds }));
}

/** Whether this process's limits are on its per-process fallback now (Redis failed and has not answered since). */
export function limiterDegraded(): boolean {
  return warnings.degradedSince !== 0;
}

/**
 * Resolves once the first connection is up, or has failed, or after 2 s. Without this wait a new process's first
 * requests (sent while the client still connects, with no offline queue) would all take the memory fallback.
 */
function firstConnection(client: Redis): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      client.off("error", done);
      resolve();
    };
    const timer = setTimeout(done, 2000);
    timer.unref?.();
    client.once("ready", done);
    client.once("error", done);
  });
}

/**
 * What a call's limits do while Redis is failing (issue 41), declared per price (`onLimiterOutage`), by the
 * deployment for the platform's own limits (PLATFORM_LIMITER_OUTAGE), and always "closed" for money (prepaid credits,
 * spend caps):
 * - open: this process counts alone, within its share of each limit (the limit divided by the data-plane processes
 *   Redis last saw), so N processes together stay near the limit rather than N times it;
 * - closed: the call is refused with 503 LIMITER_UNAVAILABLE and Retry-After, never counted blind.
 */
export type LimiterOutageMode = "open" | "closed";
/** How a store fails: as a limit declared open or closed, or "plain" for what is not a limit (rating's running
 * totals, at-most-once flags): this process's memory, exactly, with no share applied. */
type FailureMode = LimiterOutageMode | "plain";

const RETRY_AFTER_SECONDS = 5;

export function limiterUnavailable(): ApiError {
  return new ApiError({
    status: 503,
    type: "server_error",
    code: "LIMITER_UNAVAILABLE",
    message:
      "The limits this call is counted against cannot be checked right now (their store is unreachable), and its plan does not allow it uncounted.",
    suggestion: `Retry after ${RETRY_AFTER_SECONDS} seconds.`,
    headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "X-Platform-Degraded": "limiter" },
  });
}

/** The platform's own limits (/v1's per-key rate limits and usage quotas) during a Redis outage: a deployment setting. */
export function platformOutageMode(env: NodeJS.ProcessEnv = process.env): LimiterOutageMode {
  return env.PLATFORM_LIMITER_OUTAGE === "closed" ? "closed" : "open";
}

/**
 * The memory store as a per-process stand-in for the shared one: every limit cut to this process's share. Counters
 * report the local count times the processes (plus the value the shared count was seeded from), so a caller that
 * compares with the whole limit refuses at its share; buckets and concurrency are divided outright.
 */
class ShareOfLimits implements LimiterStore {
  readonly kind = "memory" as const;
  constructor(
    private readonly local: MemoryStore,
    private readonly processes: () => number,
  ) {}
  consume: LimiterStore["consume"] = (key, policy, nowMs) => {
    const n = this.processes();
    const part = (v: number) => Math.max(1, Math.floor(v / n));
    return this.local.consume(
      `fallback:${key}`,
      {
        capacity: part(policy.capacity),
        refillPerMinute: Math.max(1, policy.refillPerMinute / n),
        perHour: policy.perHour === null ? null : part(policy.perHour),
        perDay: policy.perDay === null ? null : part(policy.perDay),
        concurrent: part(policy.concurrent),
      },
      nowMs,
    );
  };
  acquire: LimiterStore["acquire"] = (key, limit) =>
    this.local.acquire(`fallback:${key}`, Math.max(1, Math.floor(limit / this.processes())));
  release: LimiterStore["release"] = (key) => this.local.release(`fallback:${key}`);
  incrementCounter: LimiterStore["incrementCounter"] = (key, by, init, ttlMs) => {
    const n = this.processes();
    return andThen(this.local.incrementCounter(`fallback-seed:${key}`, 0, init, ttlMs), (seed) =>
      andThen(
        this.local.incrementCounter(`fallback:${key}`, by, async () => 0, ttlMs),
        (counted) => seed + counted * n,
      ),
    );
  };
  setOnce: LimiterStore["setOnce"] = (key, ttlMs) => this.local.setOnce(`fallback:${key}`, ttlMs);
}

// Each process says it is alive every 10 s in one sorted set; the count of those seen in the last 30 s is the
// share's divisor, remembered for when Redis is gone.
const HEARTBEAT_MS = Number(process.env.LIMITER_HEARTBEAT_MS ?? 10_000);

/** What the open and the closed store of a process share: the heartbeat's count and the per-process counts. */
interface Shared {
  processes: { count: number };
  share: ShareOfLimits;
}

class FallbackStore implements LimiterStore {
  readonly kind = "redis" as const;
  private readonly connected: Promise<void>;
  /** Slots taken from the fallback while Redis was failing: they go back there, never to Redis. */
  private readonly localSlots = new Map<string, number>();
  private readonly shared: Shared;
  constructor(
    private readonly primary: LimiterStore,
    private readonly client: Redis,
    private readonly mode: FailureMode,
    shared?: Shared,
  ) {
    this.connected = firstConnection(client);
    if (shared) {
      this.shared = shared;
      return;
    }
    const processes = { count: 1 };
    this.shared = { processes, share: new ShareOfLimits(memory, () => processes.count) };
    const member = `${process.env.PLATFORM_DEPLOYMENT_ID ?? "local"}:${process.pid}`;
    const key = `${process.env.REDIS_PREFIX ?? "platform:"}limiter-processes`;
    const beat = () => {
      const t = Date.now();
      client
        .multi()
        .zadd(key, t, member)
        .zremrangebyscore(key, 0, t - 3 * HEARTBEAT_MS)
        .zcard(key)
        .pexpire(key, 6 * HEARTBEAT_MS)
        .exec()
        .then((r) => {
          const count = Number(r?.[2]?.[1]);
          if (count >= 1) processes.count = count;
        })
        .catch(() => {}); // Redis down: the last count stands
    };
    void this.connected.then(beat);
    setInterval(beat, HEARTBEAT_MS).unref();
  }
  /** The same store, failing another way. */
  withMode(mode: FailureMode): FallbackStore {
    return new FallbackStore(this.primary, this.client, mode, this.shared);
  }
  private degrade(e: unknown): LimiterStore {
    warn(e);
    if (this.mode === "closed") throw limiterUnavailable();
    return this.mode === "open" ? this.shared.share : memory;
  }
  private async call<T>(f: (s: LimiterStore) => T | Promise<T>): Promise<T> {
    await this.connected;
    let value: T;
    try {
      value = await f(this.primary);
    } catch (e) {
      return f(this.degrade(e));
    }
    answered();
    return value;
  }
  consume: LimiterStore["consume"] = (...a) => this.call((s) => s.consume(...a));
  acquire: LimiterStore["acquire"] = async (key, limit) => {
    await this.connected;
    let ok: boolean;
    try {
      ok = await this.primary.acquire(key, limit);
    } catch (e) {
      const ok = await this.degrade(e).acquire(key, limit);
      if (ok) this.localSlots.set(key, (this.localSlots.get(key) ?? 0) + 1);
      return ok;
    }
    answered();
    return ok;
  };
  release: LimiterStore["release"] = async (key) => {
    const local = this.localSlots.get(key) ?? 0;
    if (local > 0) {
      if (local === 1) this.localSlots.delete(key);
      else this.localSlots.set(key, local - 1);
      return this.mode === "open" ? this.shared.share.release(key) : memory.release(key);
    }
    // A Redis slot whose release fails expires with its counter (a minute after the key's last admission).
    try {
      await this.primary.release(key);
    } catch (e) {
      warn(e);
    }
  };
  incrementCounter: LimiterStore["incrementCounter"] = (...a) => this.call((s) => s.incrementCounter(...a));
  setOnce: LimiterStore["setOnce"] = (...a) => this.call((s) => s.setOnce(...a));
}

const selected = processSingleton("limiter-store", () => ({
  store: undefined as LimiterStore | undefined,
  modes: new Map<FailureMode, LimiterStore>(),
}));

/**
 * The limiter's store: Redis when configured, else this process's memory. While Redis fails, a limit declared
 * `open` counts within this process's share, `closed` refuses (503 LIMITER_UNAVAILABLE); without a mode (counters
 * that are not limits) this process's memory stands in as it is.
 */
export function limiterStore(mode: FailureMode = "plain"): LimiterStore {
  const plain = (selected.store ??= (() => {
    const client = redis("limits");
    return client ? new FallbackStore(new RedisStore(client), client, "plain") : memory;
  })());
  if (mode === "plain" || !(plain instanceof FallbackStore)) return plain;
  let store = selected.modes.get(mode);
  if (!store) selected.modes.set(mode, (store = plain.withMode(mode)));
  return store;
}

/** For tests and benchmarks: use this store. */
export function setLimiterStore(next: LimiterStore | null): void {
  selected.store = next ?? undefined;
  selected.modes.clear();
}
