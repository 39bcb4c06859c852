import type Redis from "ioredis";
import { redis } from "@/lib/redis/client";
import { processSingleton } from "@/lib/process-state";
import { MemoryStore } from "./memory-store";
import { RedisStore } from "./redis-store";
import type { LimiterStore } from "./store";

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

class FallbackStore implements LimiterStore {
  readonly kind = "redis" as const;
  private readonly connected: Promise<void>;
  /** Slots taken from the fallback while Redis was failing: they go back there, never to Redis. */
  private readonly localSlots = new Map<string, number>();
  constructor(
    private readonly primary: LimiterStore,
    private readonly fallback: LimiterStore,
    client: Redis,
  ) {
    this.connected = firstConnection(client);
  }
  private async call<T>(f: (s: LimiterStore) => T | Promise<T>): Promise<T> {
    await this.connected;
    try {
      const value = await f(this.primary);
      answered();
      return value;
    } catch (e) {
      warn(e);
      return f(this.fallback);
    }
  }
  consume: LimiterStore["consume"] = (...a) => this.call((s) => s.consume(...a));
  acquire: LimiterStore["acquire"] = async (key, limit) => {
    await this.connected;
    try {
      const ok = await this.primary.acquire(key, limit);
      answered();
      return ok;
    } catch (e) {
      warn(e);
      const ok = await this.fallback.acquire(key, limit);
      if (ok) this.localSlots.set(key, (this.localSlots.get(key) ?? 0) + 1);
      return ok;
    }
  };
  release: LimiterStore["release"] = async (key) => {
    const local = this.localSlots.get(key) ?? 0;
    if (local > 0) {
      if (local === 1) this.localSlots.delete(key);
      else this.localSlots.set(key, local - 1);
      return this.fallback.release(key);
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

const selected = processSingleton("limiter-store", () => ({ store: undefined as LimiterStore | undefined }));

export function limiterStore(): LimiterStore {
  if (selected.store) return selected.store;
  const client = redis("limits");
  return (selected.store = client ? new FallbackStore(new RedisStore(client), memory, client) : memory);
}

/** For tests and benchmarks: use this store. */
export function setLimiterStore(next: LimiterStore | null): void {
  selected.store = next ?? undefined;
}
