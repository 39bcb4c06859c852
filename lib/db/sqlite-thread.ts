import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { processSingleton } from "@/lib/process-state";

// The server's SQLite thread: a worker thread with a connection of its own to the database file, for the two
// writes that need no answer from the request path and only cost it time.
//
// 1. WAL checkpoints. In WAL mode each commit appends to the -wal file, and a checkpoint copies those pages back
//    into the database file and syncs it. The connection whose commit takes the log past 1,000 pages does it there
//    and then: 25 ms (4 KB pages) to 50 ms (16 KB pages) with the event loop stopped, once every few thousand
//    requests, which was most of the API's and the gateway's p99. The thread copies the log every
//    SQLITE_CHECKPOINT_MS (250 ms; with nothing new it costs microseconds), so it seldom reaches those 1,000 pages.
//    The main thread's connections keep SQLite's own checkpoint as the backstop (under a write load the thread
//    cannot keep up with, or if it stops): it then copies only what the thread has not copied yet.
// 2. The usage recorder's batched inserts (lib/db/bulk-insert.ts). The event loop encodes the rows (the values
//    the statement binds) and posts them; the thread runs them in one transaction and answers. SQLite's own work
//    per row (binding, the table's and its indexes' B-trees, the commit) was about a tenth of a gateway call's
//    CPU, and each flush stopped the loop for a millisecond or more, which the requests arriving meanwhile waited
//    out. Off the loop, the thread may also wait for the write lock (5 s) while another connection holds it,
//    where the main thread's plain connection must not wait at all (sqlite-direct.ts).

const INTERVAL_MS = Number(process.env.SQLITE_CHECKPOINT_MS ?? 250);

// The worker is CommonJS evaluated from a string (the server's code is bundled: a file of its own would not be
// beside it); better-sqlite3 is resolved from the app's folder.
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require("node:module").createRequire(workerData.base)("better-sqlite3");
const db = new Database(workerData.file, { timeout: 5000 });
db.pragma("synchronous = NORMAL");
if (workerData.intervalMs > 0) {
  let failures = 0;
  setInterval(() => {
    try {
      db.pragma("wal_checkpoint(PASSIVE)");
      failures = 0;
    } catch (e) {
      // Busy (another checkpoint, a writer holding the lock in a way that blocks it): the next tick tries again.
      if (++failures === 20) console.error("[sqlite] checkpoints failing: " + e.message);
    }
  }, workerData.intervalMs);
}
const statements = new Map();
parentPort.on("message", ({ id, sql, rows }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 100) statements.clear();
      statements.set(sql, (statement = db.prepare(sql)));
    }
    db.transaction(() => {
      for (const values of rows) statement.run(values);
    }).immediate();
    parentPort.postMessage({ id });
  } catch (e) {
    parentPort.postMessage({ id, error: { message: e.message, code: e.code } });
  }
});
`;

interface Pending {
  resolve: () => void;
  reject: (e: Error) => void;
}

interface Reply {
  id: number;
  error?: { message: string; code?: string };
}

const state = processSingleton("sqlite-thread", () => ({
  worker: null as Worker | null,
  file: null as string | null,
  nextId: 1,
  pending: new Map<number, Pending>(),
}));

/** The thread is gone: what it was asked and has not answered fails (the recorder keeps those rows for a retry). */
function forgetThread(reason: string): void {
  state.worker = null;
  state.file = null;
  const pending = [...state.pending.values()];
  state.pending.clear();
  for (const p of pending) p.reject(new Error(`the SQLite thread stopped: ${reason}`));
}

function stopped(reason: string): void {
  console.error(`[sqlite] thread stopped: ${reason}`);
  forgetThread(reason);
}

/** Starts the SQLite thread for this database file (once per process); true when it runs. */
export function startSqliteThread(file: string): boolean {
  if (state.worker) return true;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, base: path.join(process.cwd(), "package.json"), intervalMs: INTERVAL_MS },
    // A young generation of 3 MB, not the 2 × 16 MB semi-spaces the process's flags give the main thread for its
    // throughput (scripts/lib/server-flags.mjs): what this thread allocates is the batch in hand, and the larger
    // young generation, grown under load, stayed committed after it (worker heap 11.5–11.7 MB against 8.2 after
    // bench:gateway's load; the thread's CPU a call 27.0 µs against 28.7, inside the noise; 2026-11-30).
    resourceLimits: { maxYoungGenerationSizeMb: 3 },
  });
  // Never what keeps a process alive while idle; held while a write is in flight (insertOnSqliteThread), so a
  // graceful stop that awaits the last flush does not exit under it.
  worker.unref();
  worker.on("message", ({ id, error }: Reply) => {
    const p = state.pending.get(id);
    if (!p) return;
    state.pending.delete(id);
    if (state.pending.size === 0) worker.unref();
    if (error) p.reject(Object.assign(new Error(error.message), { code: error.code }));
    else p.resolve();
  });
  worker.on("error", (e) => stopped(e.message));
  worker.on("exit", (code) => {
    if (state.worker === worker) stopped(`exit code ${code}`);
  });
  state.worker = worker;
  state.file = file;
  return true;
}

/** True when the thread runs for this database file (the file a connection of this process writes to). */
export function sqliteThreadRunning(file?: string): boolean {
  return state.worker !== null && (file === undefined || state.file === file);
}

/**
 * Runs `sql` once for each array of values in `rows`, all in one transaction (BEGIN IMMEDIATE), on the thread.
 * Resolves when it has committed; rejects with SQLite's message and code (none of the rows written) when it failed.
 */
export function insertOnSqliteThread(sql: string, rows: unknown[][]): Promise<void> {
  const worker = state.worker;
  if (!worker) return Promise.reject(new Error("the SQLite thread is not running"));
  const id = state.nextId++;
  return new Promise<void>((resolve, reject) => {
    if (state.pending.size === 0) worker.ref();
    state.pending.set(id, { resolve, reject });
    worker.postMessage({ id, sql, rows });
  });
}

/** Stops the thread (tests); what is in flight fails. */
export async function stopSqliteThread(): Promise<void> {
  const worker = state.worker;
  if (!worker) return;
  forgetThread("stopped on purpose");
  await worker.terminate();
}
