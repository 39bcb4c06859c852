import Redis from "ioredis";

// Redis is optional: with REDIS_URL unset the platform keeps its shared state in this process. When set, it
// carries rate-limit state and key-invalidation messages between server processes. Commands fail fast
// (no offline queue, one retry) so a Redis outage never hangs a request; callers decide how to degrade.

const g = globalThis as unknown as { __platformRedis?: Map<string, Redis> };

export function redisUrl(): string | null {
  const url = process.env.REDIS_URL?.trim();
  return url ? url : null;
}

/**
 * Redis behind Sentinel (REDIS_SENTINELS: `host:port` of each sentinel, comma-separated; REDIS_SENTINEL_NAME, default
 * `mymaster`): ioredis asks the sentinels for the master, and when the master fails over it reconnects to the new one.
 * REDIS_URL, when set beside them, gives only the password and database number. Null without REDIS_SENTINELS; a
 * malformed entry throws (`npm start` refuses it first: scripts/lib/redis-settings.mjs).
 */
export function sentinelOptions(
  env: NodeJS.ProcessEnv = process.env,
): { sentinels: { host: string; port: number }[]; name: string } | null {
  const raw = env.REDIS_SENTINELS?.trim();
  if (!raw) return null;
  const sentinels = raw.split(",").map((entry) => {
    const m = /^\s*\[?([^\]\s]+?)\]?:(\d{1,5})\s*$/.exec(entry);
    if (!m) throw new Error(`REDIS_SENTINELS must list host:port pairs separated by commas, not "${entry.trim()}"`);
    return { host: m[1], port: Number(m[2]) };
  });
  return { sentinels, name: env.REDIS_SENTINEL_NAME?.trim() || "mymaster" };
}

/** Whether Redis is configured at all (a URL or sentinels). */
export const redisConfigured = (): boolean => Boolean(redisUrl() || process.env.REDIS_SENTINELS?.trim());

/** A named connection (a subscriber needs its own); null when Redis is not configured. */
export function redis(name = "main"): Redis | null {
  if (!redisConfigured()) return null;
  const url = redisUrl();
  const sentinel = sentinelOptions();
  g.__platformRedis ??= new Map();
  let client = g.__platformRedis.get(name);
  if (!client) {
    const fromUrl = url ? new URL(url) : null;
    const target = sentinel
      ? {
          ...sentinel,
          password: fromUrl?.password ? decodeURIComponent(fromUrl.password) : undefined,
          db: fromUrl && fromUrl.pathname.length > 1 ? Number(fromUrl.pathname.slice(1)) : 0,
          sentinelRetryStrategy: (times: number) => Math.min(times * 200, 2000),
          // Not ioredis's failoverDetector: with it, a client whose master was killed ended for good ("end") in 4 of 4
          // tries of a probe (2026-12-06), where without it every one was back on the new master within 3 s. A killed
          // master closes the connection anyway, and the reconnection asks the sentinels again.
        }
      : null;
    const options = {
      lazyConnect: false,
      enableOfflineQueue: name === "subscriber",
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      // A request never waits long on Redis: the callers fall back instead.
      commandTimeout: name === "subscriber" ? undefined : 1000,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
    };
    client = target ? new Redis({ ...options, ...target }) : new Redis(url!, options);
    client.on("error", (e) => {
      // ioredis reconnects by itself; one line per failure is enough.
      console.warn(`[redis:${name}] ${e.message}`);
    });
    g.__platformRedis.set(name, client);
  }
  return client;
}

/** Closes every connection this process opened (scripts and tests end with it; a live connection keeps a process up). */
export async function closeRedis(): Promise<void> {
  const clients = [...(g.__platformRedis?.values() ?? [])];
  g.__platformRedis?.clear();
  await Promise.all(clients.map((c) => c.quit().catch(() => c.disconnect())));
}
