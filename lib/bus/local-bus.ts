import { createHash, randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync, readSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { dataDir } from "@/lib/cluster/node-identity";
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { processSingleton } from "@/lib/process-state";

// The invalidation bus between the processes of one machine (the data plane's workers, Next, the jobs and the CLI),
// with or without Redis: a small SQLite file of its own beside the database. A process that changes something other
// processes cache appends one row *synchronously*, so the row is committed before the call that made the change
// returns; every reader looks at the file's WAL-index header (one pread: it moves with every commit) before each
// request it serves, asks SQLite's data_version only when it moved, and reads the new rows only when that moved.
// That is the promise "a change is honoured by the very next call, in every process", kept without a broker or an
// ack.
//
// Its own file, not a table of the database: the bus's rare writes never wait behind the database's writers (the
// usage recorder's batches), and on PostgreSQL it needs no polling. Rows older than a minute are pruned; a process
// reads only rows written after it opened the file (its caches were empty before).

export type LocalBusHandler = (topic: string, message: string) => void;

interface LocalBus {
  conn: Database.Database;
  origin: string;
  lastId: number;
  version: number;
  written: number;
  dataVersion: Database.Statement;
  readSince: Database.Statement;
  insert: Database.Statement;
  prune: Database.Statement;
  /** The WAL-index header read last, or null where the -shm file could not be read (then every poll asks SQLite). */
  walIndex: WalIndexHeader | null;
}

export interface WalIndexHeader {
  fd: number;
  last: Buffer;
  read: Buffer;
}

const PRUNE_EVERY = 200;
const KEEP_MS = 60_000;

const state = processSingleton("local-bus", () => ({
  bus: null as LocalBus | null,
  /** When opening failed: not tried again before this time (ms). */
  retryAt: 0,
  handlers: [] as LocalBusHandler[],
  timer: null as NodeJS.Timeout | null,
  polledThisTurn: false,
}));

/** The bus file for this process's database: `<file>-bus` beside a SQLite file, else in the node's DATA_DIR by the URL's hash. */
export function localBusFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LOCAL_BUS_FILE) return path.resolve(env.LOCAL_BUS_FILE);
  const url = databaseUrl(env);
  if (databaseProvider(url) === "sqlite") return `${path.resolve(url.slice("file:".length))}-bus`;
  return path.join(dataDir(env), `bus-${createHash("sha256").update(url).digest("hex").slice(0, 16)}.db`);
}

/** Opens the bus file, waiting out (up to a second) another process that is creating it at the same moment; on the
 * request path (`attempts` 1) without waiting. */
function open(attempts = 10): LocalBus | null {
  if (state.bus || Date.now() < state.retryAt) return state.bus;
  let lastError: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      state.bus = openBus(localBusFile());
      return state.bus;
    } catch (e) {
      lastError = e;
      // Two processes starting together (the data plane and Next) both set the file up: the loser is told
      // SQLITE_BUSY without waiting. A short synchronous wait, then again.
      if (attempt + 1 < attempts) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  state.retryAt = Date.now() + 5000;
  console.warn(`[bus] the local bus could not be opened (tried again in 5 s): ${(lastError as Error).message}`);
  return null;
}

function openBus(file: string): LocalBus {
  mkdirSync(path.dirname(file), { recursive: true });
  // A writer waits for another writer's row (rare, and short): the busy timeout is a synchronous wait.
  const conn = new Database(file, { timeout: 2000 });
  try {
    conn.pragma("journal_mode = WAL");
    conn.pragma("synchronous = NORMAL");
    conn.exec(
      "CREATE TABLE IF NOT EXISTS message (id INTEGER PRIMARY KEY AUTOINCREMENT, at INTEGER NOT NULL, origin TEXT NOT NULL, topic TEXT NOT NULL, body TEXT NOT NULL)",
    );
    const dataVersion = conn.prepare("PRAGMA data_version").pluck();
    // The WAL-index header first, then the version, then the last row: a row committed in between is read at the
    // next poll (the header and the version have moved by then), never skipped.
    const walIndex = openWalIndexHeader(file);
    const version = Number(dataVersion.get());
    return {
      conn,
      origin: `${process.pid}.${randomBytes(4).toString("hex")}`,
      lastId: Number(conn.prepare("SELECT coalesce(max(id), 0) FROM message").pluck().get()),
      version,
      written: 0,
      dataVersion,
      readSince: conn.prepare("SELECT id, origin, topic, body FROM message WHERE id > ? ORDER BY id"),
      insert: conn.prepare("INSERT INTO message (at, origin, topic, body) VALUES (?, ?, ?, ?)"),
      prune: conn.prepare("DELETE FROM message WHERE at < ?"),
      walIndex,
    };
  } catch (e) {
    conn.close();
    throw e;
  }
}

/**
 * The first 48 bytes of the bus's `-shm` file: the WAL-index header (https://sqlite.org/walformat.html), which every
 * commit rewrites (its change counter, its frame count and its checksum) in the shared memory SQLite maps from that
 * file, before the writing call returns. Reading those bytes is one `pread`; `PRAGMA data_version` opens a read
 * transaction (two fcntl locks and a pread: 2.2 against 1.3 µs on an AMD EPYC VM, and each system call costs more
 * where the kernel isolates its page tables). Only when they moved does the poll ask SQLite. The file stays as long
 * as this process's own connection holds it (SQLite removes it only when the last connection closes).
 */
export function openWalIndexHeader(file: string): WalIndexHeader | null {
  let fd = -1;
  try {
    fd = openSync(`${file}-shm`, "r");
    const header: WalIndexHeader = { fd, last: Buffer.alloc(WAL_INDEX_HEADER_BYTES), read: Buffer.alloc(WAL_INDEX_HEADER_BYTES) };
    if (readSync(fd, header.last, 0, WAL_INDEX_HEADER_BYTES, 0) === WAL_INDEX_HEADER_BYTES) return header;
  } catch {
    // no -shm file to read (another journal mode, a VFS of its own): data_version alone
  }
  if (fd >= 0) closeSync(fd);
  return null;
}
const WAL_INDEX_HEADER_BYTES = 48;

/** Whether a commit may have happened since the last look: the header's bytes moved, or they could not be read. */
export function walIndexMoved(header: WalIndexHeader): boolean {
  try {
    if (readSync(header.fd, header.read, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES) return true;
  } catch {
    return true;
  }
  if (header.read.equals(header.last)) return false;
  header.read.copy(header.last);
  return true;
}

/** Appends a message for every other process on this machine; committed when this returns. */
export function writeLocalBus(topic: string, message: string): void {
  const bus = open();
  if (!bus) return;
  try {
    bus.insert.run(Date.now(), bus.origin, topic, message);
    if (++bus.written % PRUNE_EVERY === 0) bus.prune.run(Date.now() - KEEP_MS);
  } catch (e) {
    console.warn(`[bus] ${topic} not written to the local bus: ${(e as Error).message}`);
  }
}

/** Hands every row other processes appended since the last call to the handlers. Cheap when nothing changed. */
export function pollLocalBus(): void {
  const bus = state.bus ?? open(1);
  if (!bus) return;
  if (bus.walIndex && !walIndexMoved(bus.walIndex)) return;
  const version = Number(bus.dataVersion.get());
  if (version === bus.version) return;
  bus.version = version;
  const rows = bus.readSince.all(bus.lastId) as { id: number; origin: string; topic: string; body: string }[];
  for (const row of rows) {
    bus.lastId = row.id;
    if (row.origin === bus.origin) continue;
    for (const handler of state.handlers) {
      try {
        handler(row.topic, row.body);
      } catch (e) {
        console.warn(`[bus] a handler of ${row.topic} failed: ${(e as Error).message}`);
      }
    }
  }
}

/**
 * The request path's poll: at most once per event-loop turn. The requests one turn serves were all read from sockets
 * epoll reported ready before the turn's first request polled, so a request sent after a change committed (after the
 * call that made it returned) is served in a later turn, which polls again. The exception is a pipelining client:
 * its next request can land on a socket already being read in this turn, and node:http hands a pipelined request
 * over when the answer before it ends, which may be in the check phase; the flag it sets there is cleared only in the
 * next turn's check phase, so that next turn's requests are not checked (the 50 ms timer still is). HTTP/1.1
 * clients that wait for an answer before asking again (browsers, fetch, every SDK) never pipeline. Under load one
 * turn serves several requests, and the check (one pread of the WAL-index header, a read transaction only when it
 * moved) is paid once for all of them.
 */
export function pollLocalBusThisTurn(): void {
  if (state.polledThisTurn) return;
  state.polledThisTurn = true;
  setImmediate(endTurn);
  pollLocalBus();
}
const endTurn = () => {
  state.polledThisTurn = false;
};

/** Starts reading the bus in this process: `handler` gets every other process's message; polled every 50 ms too. */
export function listenToLocalBus(handler: LocalBusHandler): void {
  if (!state.handlers.includes(handler)) state.handlers.push(handler);
  open();
  if (!state.timer) {
    // Between requests (or in a process that serves none) changes still arrive within 50 ms.
    state.timer = setInterval(pollLocalBus, 50);
    state.timer.unref();
  }
}
