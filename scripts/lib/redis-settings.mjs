// Redis's settings as `npm start` checks them before anything is installed (lib/redis/client.ts reads them): REDIS_URL,
// or REDIS_SENTINELS (host:port of each sentinel, comma-separated) with REDIS_SENTINEL_NAME (default mymaster).

/** Whether Redis is configured (a URL or sentinels). */
export const redisConfigured = (env = process.env) => Boolean(env.REDIS_URL?.trim() || env.REDIS_SENTINELS?.trim());

/** The sentence that says why REDIS_SENTINELS cannot be honoured, or null. */
export function redisSettingsError(env = process.env) {
  const raw = env.REDIS_SENTINELS?.trim();
  if (!raw) return null;
  const bad = raw.split(",").find((entry) => !/^\s*\[?([^\]\s]+?)\]?:(\d{1,5})\s*$/.test(entry));
  if (bad !== undefined)
    return `REDIS_SENTINELS must list host:port pairs separated by commas (127.0.0.1:26379,127.0.0.1:26380), not "${bad.trim()}".`;
  return null;
}
