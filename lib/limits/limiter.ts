import { redis } from "@/lib/redis/client";
import { MemoryStore } from "./memory-store";
import { RedisStore } from "./redis-store";
import type { LimiterStore } from "./store";
import { processSingleton } from "@/lib/process-state";

// The store in use: Redis when REDIS_URL is set, else memory. When Redis fails (down, slow, unreachable) a call
// falls back to this process's memory store and logs a warning at most every 10 s: the API fails OPEN to
// per-process limits rather than refusing service or hanging (commands time out after 300 ms).

const memory = processSingleton("limiter-memory", () => new MemoryStore());
const warnings = processSingleton("limiter-warnings", () => ({ last: 0 }));

function warn(e: unknown): void {
  if (Date.now() - warnings.last < 10_000) return;
  warnings.last = Date.now();
  console.warn(`[limits] Redis unavailable, using per-process limits: ${e instanceof Error ? e.message : e}`);
}

class FallbackStore implements LimiterStore {
  readonly kind = "redis" as const;
  constructor(private readonly primary: LimiterStore, private readonly fallback: LimiterStore) {}
  private async call<T>(f: (s: LimiterStore) => Promise<T>): Promise<T> {
    try {
      return await f(this.primary);
    } catch (e) {
      warn(e);
      return f(this.fallback);
    }
  }
  consume: LimiterStore["consume"] = (...a) => this.call((s) => s.consume(...a));
  acquire: LimiterStore["acquire"] = (...a) => this.call((s) => s.acquire(...a));
  release: LimiterStore["release"] = (...a) => this.call((s) => s.release(...a));
  incrementCounter: LimiterStore["incrementCounter"] = (...a) => this.call((s) => s.incrementCounter(...a));
  setOnce: LimiterStore["setOnce"] = (...a) => this.call((s) => s.setOnce(...a));
}

const selected = processSingleton("limiter-store", () => ({ store: undefined as LimiterStore | undefined }));

export function limiterStore(): LimiterStore {
  if (selected.store) return selected.store;
  const client = redis("limits");
  return (selected.store = client ? new FallbackStore(new RedisStore(client), memory) : memory);
}

/** For tests and benchmarks: use this store. */
export function setLimiterStore(next: LimiterStore | null): void {
  selected.store = next ?? undefined;
}
