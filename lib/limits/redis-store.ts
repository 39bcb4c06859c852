import type Redis from "ioredis";
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
import { bucketState, decide } from "./memory-store";
import type { KeyPolicy } from "./plans";

// The shared store: one Lua script per check, so the bucket and both windows are read, tested and updated
// atomically on the Redis server. Two server processes therefore share one budget exactly.

const CONSUME = `
local now = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
local rate = tonumber(ARGV[3])
local hourLimit = tonumber(ARGV[4])
local dayLimit = tonumber(ARGV[5])
local HOUR = ${HOUR_MS}
local DAY = ${DAY_MS}
local b = redis.call('HMGET', KEYS[1], 't', 'ts')
local tokens = tonumber(b[1])
local ts = tonumber(b[2])
if not tokens then tokens = cap; ts = now end
if now > ts then tokens = math.min(cap, tokens + (now - ts) * rate) end
local function win(prefix, size)
  local start = math.floor(now / size)
  local cur = tonumber(redis.call('GET', prefix .. ':' .. start) or '0')
  local prev = tonumber(redis.call('GET', prefix .. ':' .. (start - 1)) or '0')
  return start, cur, prev, prev * (1 - (now % size) / size) + cur
end
local hs, hc, hp, he, ds, dc, dp, de = 0, 0, 0, 0, 0, 0, 0, 0
local hourOk, dayOk = 1, 1
if hourLimit >= 0 then hs, hc, hp, he = win(KEYS[2], HOUR); if he + 1 > hourLimit then hourOk = 0 end end
if dayLimit >= 0 then ds, dc, dp, de = win(KEYS[3], DAY); if de + 1 > dayLimit then dayOk = 0 end end
local bucketOk = 1
if tokens < 1 then bucketOk = 0 end
local allowed = 0
if bucketOk == 1 and hourOk == 1 and dayOk == 1 then
  allowed = 1
  tokens = tokens - 1
  if hourLimit >= 0 then redis.call('INCR', KEYS[2] .. ':' .. hs); redis.call('PEXPIRE', KEYS[2] .. ':' .. hs, 2 * HOUR); hc = hc + 1 end
  if dayLimit >= 0 then redis.call('INCR', KEYS[3] .. ':' .. ds); redis.call('PEXPIRE', KEYS[3] .. ':' .. ds, 2 * DAY); dc = dc + 1 end
end
redis.call('HSET', KEYS[1], 't', string.format('%.6f', tokens), 'ts', string.format('%d', math.max(now, ts)))
redis.call('PEXPIRE', KEYS[1], math.ceil(cap / rate) + 60000)
return {allowed, string.format('%.6f', tokens), bucketOk, hourOk, dayOk, hs, hc, hp, ds, dc, dp}
`;

// Only an admitted slot renews the counter's minute: a slot whose release was lost (a Redis timeout) then frees
// itself a minute after the last admission, even while refused clients keep retrying.
const ACQUIRE = `
local n = redis.call('INCR', KEYS[1])
if n > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]); return 0 end
redis.call('PEXPIRE', KEYS[1], 60000)
return 1
`;

// Never below zero: a release without its slot (the counter expired meanwhile) must not make a spare one.
const RELEASE = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 1
`;

export class RedisStore implements LimiterStore {
  readonly kind = "redis" as const;
  constructor(
    private readonly redis: Redis,
    private readonly prefix = process.env.REDIS_PREFIX ?? "platform:",
  ) {}

  async consume(key: string, policy: KeyPolicy, nowMs: number): Promise<Decision> {
    const k = `${this.prefix}rl:${key}`;
    const ratePerMs = policy.refillPerMinute / 60_000;
    const r = (await this.redis.eval(
      CONSUME,
      3,
      `${k}:bucket`,
      `${k}:hour`,
      `${k}:day`,
      nowMs,
      policy.capacity,
      ratePerMs,
      policy.perHour ?? -1,
      policy.perDay ?? -1,
    )) as (number | string)[];
    const [allowedN, tokensS, bucketOk, hourOk, dayOk, hs, hc, hp, ds, dc, dp] = r.map(Number);
    const allowed = allowedN === 1;
    const tokens = Number(tokensS);
    const limits: LimitState[] = [bucketState(policy, tokens, nowMs)];
    const windows: { ok: boolean; name: "hour" | "day"; fitsAtMs: number }[] = [];
    const addWindow = (name: "hour" | "day", limit: number | null, ms: number, start: number, cur: number, prev: number, ok: number) => {
      if (limit === null) return;
      const remaining = Math.max(0, Math.floor(limit - slidingEstimate(prev, cur, nowMs, ms)));
      limits.push({
        name,
        limit,
        remaining,
        windowSeconds: ms / 1000,
        resetMs: (start + 1) * ms,
        moreAtMs: windowRoomGrowsAtMs(prev, cur, nowMs, ms, limit, remaining),
      });
      windows.push({ ok: ok === 1, name, fitsAtMs: windowFitsAtMs(prev, cur, nowMs, ms, limit) });
    };
    addWindow("hour", policy.perHour, HOUR_MS, hs, hc, hp, hourOk);
    addWindow("day", policy.perDay, DAY_MS, ds, dc, dp, dayOk);
    return decide(allowed, limits, bucketOk === 1, tokens, ratePerMs, windows, nowMs);
  }

  async acquire(key: string, limit: number): Promise<boolean> {
    return (await this.redis.eval(ACQUIRE, 1, `${this.prefix}cc:${key}`, limit)) === 1;
  }

  async release(key: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, `${this.prefix}cc:${key}`);
  }

  async incrementCounter(key: string, by: number, init: () => Promise<number>, ttlMs: number): Promise<number> {
    const k = `${this.prefix}ctr:${key}`;
    if (!(await this.redis.exists(k))) await this.redis.set(k, await init(), "PX", ttlMs, "NX");
    return this.redis.incrby(k, by);
  }

  async setOnce(key: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.prefix}once:${key}`, "1", "PX", ttlMs, "NX")) === "OK";
  }
}
