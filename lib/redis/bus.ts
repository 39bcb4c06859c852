import { listenToOtherNodes, recordForOtherNodes } from "@/lib/bus/cluster-bus";
import { listenToLocalBus, writeLocalBus } from "@/lib/bus/local-bus";
import { processSingleton } from "@/lib/process-state";
import { redis } from "./client";

// The one invalidation bus: a process that changes something other processes cache (a key, a subscription's
// prices, a table's row count) publishes the changed thing's name on a topic; every process that subscribed
// drops its copy. Two carriers, each message on both (handlers are idempotent):
//  - the local bus (lib/bus/local-bus.ts), always: the processes of this machine (the data plane's workers, Next,
//    jobs, the CLI) hear a change before the call that made it returns;
//  - Redis pub/sub when REDIS_URL is set: servers on other machines hear it within a round trip to Redis (about a
//    millisecond; messages published while Redis is unreachable are lost, and the caches' TTLs bound the damage);
//  - on PostgreSQL, a row of the database's BusMessage table (lib/bus/cluster-bus.ts) that every process reads every
//    BUS_POLL_MS: what pub/sub lost reaches the other nodes within about half a second anyway.
// Redis topics live under REDIS_PREFIX (default `platform:`), so two deployments sharing a Redis do not hear each
// other.

type Handler = (message: string) => void;

const state = processSingleton("redis-bus", () => ({ handlers: new Map<string, Handler[]>(), listening: false }));

// While the subscriber's connection is down, messages are missed: the caches fed by the bus stop trusting their
// entries beyond BUS_DOWN_CACHE_TTL_MS (cacheTtl), and every cache registered with onBusReconnect is emptied when
// the connection is back, so a change made during the outage (a key revoked on another machine) is honoured at most
// that long after it, and at once when Redis returns (docs/operations.md).
export const BUS_DOWN_CACHE_TTL_MS = 2000;
const health = processSingleton("redis-bus-health", () => ({ down: false, since: 0, flushers: [] as (() => void)[] }));

/** How long a bus-fed cache may keep an entry now: `ttlMs`, or BUS_DOWN_CACHE_TTL_MS while the bus is down. */
export function cacheTtl(ttlMs: number): number {
  return health.down && ttlMs > BUS_DOWN_CACHE_TTL_MS ? BUS_DOWN_CACHE_TTL_MS : ttlMs;
}

/** `flush` empties a bus-fed cache when the subscriber's connection comes back after missing messages. */
export function onBusReconnect(flush: () => void): void {
  health.flushers.push(flush);
}

/** Whether the bus's Redis connection is down now (messages from other machines are being missed). */
export function busDown(): boolean {
  return health.down;
}

function watchSubscriber(sub: NonNullable<ReturnType<typeof redis>>): void {
  const wentDown = (cause: string) => {
    if (health.down) return;
    health.down = true;
    health.since = Date.now();
    console.warn(JSON.stringify({ event: "platform.degraded", component: "bus", cacheTtlMs: BUS_DOWN_CACHE_TTL_MS, cause }));
  };
  if (sub.status !== "ready") wentDown("not connected yet");
  sub.on("close", () => wentDown("the Redis connection closed"));
  sub.on("ready", () => {
    if (!health.down) return;
    health.down = false;
    for (const flush of health.flushers) flush();
    const seconds = Math.round((Date.now() - health.since) / 100) / 10;
    console.warn(
      JSON.stringify({ event: "platform.recovered", component: "bus", degradedSeconds: seconds, cachesFlushed: health.flushers.length }),
    );
  });
}

export const channelOf = (topic: string) => `${process.env.REDIS_PREFIX ?? "platform:"}${topic}`;

/** Sends `message` on `topic` to every other process; never throws. The local bus's row is written synchronously (a
 * few tens of µs, so that it is committed before the caller returns); Redis's publish is never waited for. */
export function publish(topic: string, message: string): void {
  writeLocalBus(topic, message);
  recordForOtherNodes(topic, message);
  const client = redis();
  if (!client) return;
  const send = () => {
    client.publish(channelOf(topic), message).catch((e: Error) => notPublished(topic, e.message));
  };
  if (client.status === "ready") return send();
  // A connection still opening (the first change in a fresh process) has no offline queue: send once it is up.
  const onReady = () => {
    clearTimeout(timer);
    send();
  };
  const timer = setTimeout(() => {
    client.off("ready", onReady);
    notPublished(topic, "Redis not ready");
  }, 5000);
  timer.unref?.();
  client.once("ready", onReady);
}

// During an outage every change would log a line: one every 10 s says how many went unpublished since the last.
const unpublished = processSingleton("redis-bus-unpublished", () => ({ last: 0, count: 0 }));
function notPublished(topic: string, why: string): void {
  unpublished.count++;
  if (Date.now() - unpublished.last < 10_000) return;
  console.warn(`[bus] ${unpublished.count} message(s) not published on Redis (last: ${topic}): ${why}`);
  unpublished.last = Date.now();
  unpublished.count = 0;
}

/** Calls `handler` with every message other processes publish on `topic` (and this one's: handlers are idempotent). */
export function subscribe(topic: string, handler: Handler): void {
  const handlers = localHandlers.get(topic) ?? [];
  if (!handlers.includes(handler)) handlers.push(handler);
  localHandlers.set(topic, handlers);
  listenToLocalBus(fromLocalBus);
  listenToOtherNodes(fromLocalBus);
  subscribeOnRedis(topic, handler);
}

// What other processes of this machine wrote on the local bus, by topic.
const localHandlers = processSingleton("bus-local-handlers", () => new Map<string, Handler[]>());
function fromLocalBus(topic: string, message: string): void {
  for (const h of localHandlers.get(topic) ?? []) h(message);
}

function subscribeOnRedis(topic: string, handler: Handler): void {
  const sub = redis("subscriber");
  if (!sub) return;
  const channel = channelOf(topic);
  const handlers = state.handlers.get(channel);
  if (handlers) {
    if (!handlers.includes(handler)) handlers.push(handler);
    return;
  }
  state.handlers.set(channel, [handler]);
  redis(); // open the publishing connection early too, so a first change is sent at once
  sub.subscribe(channel).catch((e: Error) => console.warn(`[bus] subscribe to ${topic} failed: ${e.message}`));
  if (!state.listening) {
    state.listening = true;
    watchSubscriber(sub);
    sub.on("message", (ch: string, message: string) => {
      for (const h of state.handlers.get(ch) ?? []) h(message);
    });
  }
}

const local = processSingleton("redis-bus-local", () => new Map<string, Handler[]>());

/** Calls `handler` with messages this process announces on `topic` (see announce). */
export function listenLocally(topic: string, handler: Handler): void {
  const handlers = local.get(topic) ?? [];
  if (!handlers.includes(handler)) handlers.push(handler);
  local.set(topic, handlers);
}

/** Tells this process's local listeners and every other process: for a change whose writer cannot reach the cache. */
export function announce(topic: string, message: string): void {
  for (const h of local.get(topic) ?? []) h(message);
  publish(topic, message);
}
