import Redis from "ioredis";

// Redis is optional: with REDIS_URL unset the platform keeps its shared state in this process. When set, it
// carries rate-limit state and key-invalidation messages between server processes. Commands fail fast
// (no offline queue, one retry) so a Redis outage never hangs a request; callers decide how to degrade.

const g = globalThis as unknown as { __platformRedis?: Map<string, Redis> };

export function redisUrl(): string | null {
  const url = process.env.REDIS_URL?.trim();
  return url ? url : null;
}

/** A named connection (a subscriber needs its own); null when Redis is not configured. */
export function redis(name = "main"): Redis | null {
  const url = redisUrl();
  if (!url) return null;
  g.__platformRedis ??= new Map();
  let client = g.__platformRedis.get(name);
  if (!client) {
    client = new Redis(url, {
      lazyConnect: false,
      enableOfflineQueue: name === "subscriber",
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      // A request never waits long on Redis: the callers fall back instead.
      commandTimeout: name === "subscriber" ? undefined : 1000,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
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
