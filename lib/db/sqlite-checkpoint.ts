import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { processSingleton } from "@/lib/process-state";

// SQLite in WAL mode appends each commit to the -wal file, and a checkpoint copies those pages back into the
// database file and syncs it. The connection whose commit takes the log past 1,000 pages does it there and then:
// 25 ms (4 KB pages) to 50 ms (16 KB pages) of this machine with the event loop stopped, once every few thousand
// requests (each writes a usage row and a log row), which was most of the API's and the gateway's p99. In the
// server a worker thread with a connection of its own copies the log every SQLITE_CHECKPOINT_MS (250 ms; with
// nothing new it costs microseconds), so the log seldom reaches those 1,000 pages. The main thread's connections
// keep SQLite's own checkpoint as the backstop (under a write load the thread cannot keep up with, or if it
// stops): it then copies only what the thread has not copied yet.

const INTERVAL_MS = Number(process.env.SQLITE_CHECKPOINT_MS ?? 250);

// The worker is CommonJS evaluated from a string (the server's code is bundled: a file of its own would not be
// beside it); better-sqlite3 is resolved from the app's folder.
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const Database = require("node:module").createRequire(workerData.base)("better-sqlite3");
const db = new Database(workerData.file);
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
`;

const state = processSingleton("sqlite-checkpoint", () => ({ worker: null as Worker | null }));

/** Starts the checkpoint thread for this database file (once per process); true when it runs. */
export function startCheckpointWorker(file: string): boolean {
  if (state.worker) return true;
  if (!(INTERVAL_MS > 0)) return false;
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, base: path.join(process.cwd(), "package.json"), intervalMs: INTERVAL_MS },
  });
  worker.unref(); // never what keeps a process alive
  worker.on("error", (e) => {
    console.error(`[sqlite] checkpoint thread stopped: ${e.message}`);
    state.worker = null;
  });
  state.worker = worker;
  return true;
}

export function checkpointWorkerRunning(): boolean {
  return state.worker !== null;
}
