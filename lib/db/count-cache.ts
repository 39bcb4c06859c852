import { processSingleton } from "@/lib/process-state";
import { publish, subscribe } from "@/lib/redis/bus";

// Every list page answers `pagination.total`, and counting 100,000 rows costs far more than reading 20 of them.
// A count is kept per model and arguments (tenant, filters) and used again until that model is written: every
// write through the client bumps its model's write version, a raw statement or the end of a transaction bumps
// all of them, so a total is never older than the last write this process made or saw. Another process's
// server's writes arrive through Redis when REDIS_URL is set (the topic below); a count is also never kept longer
// than COUNT_CACHE_MS (default 2 s), which bounds what writes of other processes (a separate `npm run jobs`, the
// CLI) can skew.
// Only the server turns it on (instrumentation.ts): a script, the CLI or a test reading the database counts afresh.

const WRITES = new Set([
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
]);
const RAW_WRITES = new Set(["$executeRaw", "$executeRawUnsafe"]);
const MAX_ENTRIES = 10_000;
const TTL_MS = Number(process.env.COUNT_CACHE_MS ?? 2_000);
const TOPIC = "db-written";

interface Entry {
  version: number;
  total: number;
  at: number;
}

const state = processSingleton("count-cache", () => ({
  versions: new Map<string, number>(),
  all: 0,
  entries: new Map<string, Entry>(),
  listening: false,
  enabled: false,
}));

const versionOf = (model: string) => state.all + (state.versions.get(model) ?? 0);

function bumpLocally(model: string | null): void {
  if (model === null) state.all++;
  else state.versions.set(model, (state.versions.get(model) ?? 0) + 1);
}

/** A write happened (model null: any table may have changed). */
export function markWritten(model: string | null): void {
  bumpLocally(model);
  // Servers tell each other. A script, the CLI or a test does not open a Redis connection just for this (it would
  // keep a short process alive); their writes reach the servers' counts within COUNT_CACHE_MS.
  if (state.enabled) publish(TOPIC, model ?? "*");
}

// Background batches (the usage recorder's rows, written after their calls have answered) tell other processes at
// most once per BATCH_NOTICE_MS per table: under load a batch is written every few milliseconds, and each notice
// is a row in the local bus that every process then reads (bench:gateway's profile: 7 % of the data plane's CPU).
// No call waits for these rows, so no promise is loosened: another process's total was already as old as the
// batching, and is now at most BATCH_NOTICE_MS older.
const BATCH_NOTICE_MS = 100;
const noticed = processSingleton("count-cache-batch-notices", () => new Map<string, { at: number; pending: boolean }>());

/** A background batch wrote to `model`: counted as written here at once, told to other processes within 100 ms. */
export function markBatchWritten(model: string): void {
  bumpLocally(model);
  if (!state.enabled) return;
  const last = noticed.get(model);
  const nowMs = Date.now();
  if (!last || nowMs - last.at >= BATCH_NOTICE_MS) {
    noticed.set(model, { at: nowMs, pending: false });
    publish(TOPIC, model);
    return;
  }
  if (last.pending) return;
  last.pending = true;
  setTimeout(
    () => {
      last.pending = false;
      last.at = Date.now();
      publish(TOPIC, model);
    },
    BATCH_NOTICE_MS - (nowMs - last.at),
  ).unref();
}

function listen(): void {
  if (state.listening) return;
  state.listening = true;
  subscribe(TOPIC, (model) => bumpLocally(model === "*" ? null : model));
}

/** Called once by the server at start; elsewhere every count goes to the database. */
export function enableCountCache(): void {
  state.enabled = TTL_MS > 0;
}

/** A count through the cache: `run` only when the model was written since, or the entry is older than the TTL. */
export async function cachedCount(model: string, args: unknown, run: () => Promise<number>): Promise<number> {
  if (!state.enabled) return run();
  listen();
  const key = `${model}\u0000${JSON.stringify(args ?? {})}`;
  const version = versionOf(model);
  const hit = state.entries.get(key);
  if (hit && hit.version === version && Date.now() - hit.at < TTL_MS) {
    return hit.total;
  }
  const total = await run();
  // Kept only if nothing was written while counting: the count may or may not include that write.
  if (versionOf(model) === version) {
    if (state.entries.size >= MAX_ENTRIES) state.entries.clear();
    state.entries.set(key, { version, total, at: Date.now() });
  }
  return total;
}

/**
 * A model delegate's count through the cache without Prisma's client in between (the extension below would answer
 * the same, after a query dispatch that cost more than the hit itself): what list pages use for their total.
 * `count` is how a miss counts (the delegate's own count unless a cheaper one is given).
 */
export function countThroughCache(
  delegate: { count(args: unknown): Promise<number> },
  count: (args: unknown) => Promise<number> = (args) => delegate.count(args),
): (args: unknown) => Promise<number> {
  const model = (delegate as { $name?: string }).$name;
  return model ? (args) => cachedCount(model, args, () => count(args)) : count;
}

/**
 * The Prisma client extension: counts through the cache, writes bump versions. `query` runs the operation as
 * asked; the result is never changed.
 */
export const countCacheExtension = {
  name: "count-cache",
  query: {
    async $allOperations({
      model,
      operation,
      args,
      query,
    }: {
      model?: string;
      operation: string;
      args: unknown;
      query: (args: unknown) => Promise<unknown>;
    }) {
      if (model && operation === "count" && state.enabled) return cachedCount(model, args, () => query(args) as Promise<number>);
      if (model && WRITES.has(operation)) {
        try {
          return await query(args);
        } finally {
          markWritten(model);
        }
      }
      if (!model && RAW_WRITES.has(operation)) {
        try {
          return await query(args);
        } finally {
          markWritten(null);
        }
      }
      return query(args);
    },
  },
};
