import "server-only";
import path from "node:path";
import Database from "better-sqlite3";
import { NativeDate } from "@/lib/native-date";
import { processSingleton } from "@/lib/process-state";
import { isoText } from "./iso-text";
import { databaseProvider, databaseUrl } from "./client";
import { startSqliteThread } from "./sqlite-thread";

// A second, plain better-sqlite3 connection to the SQLite file Prisma uses, for the two hot paths where Prisma's
// per-query cost (about 0.65 ms of CPU, and ~0.6 ms per row written) dominates: the recorder's batched inserts
// (lib/db/bulk-insert.ts) and single-row reads on the request path (lib/products/find-product-row.ts). WAL mode
// lets it read beside Prisma's connection and see everything committed. Null on PostgreSQL.
//
// Its values are in the storage format of Prisma's adapter: DateTime as ISO 8601 text ending "+00:00", Boolean
// as 0/1, Json as its text (the helpers below convert both ways).

export interface DirectSqlite {
  file: string;
  conn: Database.Database;
  statements: Map<string, Database.Statement>;
  /** Reads kept while the database is unchanged (readUnchanged). */
  reads: { version: string; results: Map<string, unknown> };
}
// Opened once per process for the database `db` was opened on (DATABASE_URL at start), like the Prisma client.
const direct = processSingleton("sqlite-direct", () => ({ opened: false, current: null as DirectSqlite | null }));

export function directSqlite(): DirectSqlite | null {
  if (direct.opened) return direct.current;
  const url = databaseUrl();
  if (databaseProvider(url) !== "sqlite") {
    direct.opened = true;
    return null;
  }
  const file = path.resolve(url.slice("file:".length));
  // While it is set up, the connection waits for a database another process holds, as Prisma's does (5 s): the
  // first process to open a file whose last user did not close it (a kill -9, an exit with a connection open)
  // rebuilds its WAL index, and a second server starting at that moment got SQLITE_BUSY_RECOVERY and did not start
  // (bench:gateway's two servers started side by side did).
  const conn = new Database(file, { timeout: 5000 });
  try {
    conn.pragma("journal_mode = WAL");
  } catch {
    // Busy at this instant: the mode is a property of the file, and Prisma's connection sets it as well.
  }
  conn.pragma("synchronous = NORMAL");
  // The hot reads' pages in this connection's own cache (32 MB rather than SQLite's 2 MB default): a list page
  // otherwise fetched most of its rows' pages from the OS again, a system call each.
  conn.pragma(`cache_size = -${Number(process.env.SQLITE_CACHE_KB ?? 32768)}`);
  // Then no busy wait: better-sqlite3 waits synchronously, which would stall the event loop, and with it an
  // interactive Prisma transaction of this very process that holds the write lock. Writers retry a busy
  // database asynchronously instead (bulk-insert.ts, when the SQLite thread does not run); WAL readers are never
  // blocked.
  conn.pragma("busy_timeout = 0");
  direct.current = { file, conn, statements: new Map(), reads: { version: "", results: new Map() } };
  direct.opened = true;
  return direct.current;
}

/** In the server: WAL checkpoints and the recorder's batched inserts on their own thread (lib/db/sqlite-thread.ts),
 * off the event loop. */
export function startSqliteThreadForDb(): void {
  const s = directSqlite();
  if (s) startSqliteThread(s.file);
}

/** A prepared statement, compiled once per connection (list pages make many shapes: the cache is bounded). */
export function statement(s: DirectSqlite, sql: string): Database.Statement {
  let st = s.statements.get(sql);
  if (!st) {
    if (s.statements.size >= 1000) s.statements.clear();
    s.statements.set(sql, (st = s.conn.prepare(sql)));
  }
  return st;
}

const MAX_KEPT_READS = 500;
// What the database looks like to this connection: SQLite's data_version (bumped by any other connection's commit,
// in this process or another) and total_changes() (rows this connection itself changed, which data_version does not
// count; a rolled-back change counts too, which only costs a read).
const DATABASE_VERSION = `SELECT (SELECT "data_version" FROM pragma_data_version()) || '.' || total_changes()`;

/**
 * A read's result, used again until anything is committed to the database, by any connection of any process or
 * by this one (DATABASE_VERSION, asked in a microsecond). So the answer is exactly what the read would return now.
 * On a busy server the request logs are committed every few milliseconds, so a result lives that long: what it
 * saves is identical reads between two commits (the same list page asked by many clients, or polled). The result
 * is shared: callers must not change it.
 */
export function readUnchanged<T>(s: DirectSqlite, key: string, read: () => T): T {
  const version = statement(s, DATABASE_VERSION).pluck(true).get() as string;
  if (s.reads.version !== version) s.reads = { version, results: new Map() };
  const kept = s.reads.results.get(key) as T | undefined;
  if (kept !== undefined) return kept;
  const result = read();
  if (s.reads.results.size >= MAX_KEPT_READS) s.reads.results.clear();
  s.reads.results.set(key, result);
  return result;
}

/** Prisma's SQLite storage format for a DateTime: toISOString's text with "+00:00" for "Z". */
export const toSqliteDate = (d: Date): string => isoText(d, "+00:00");

/** A stored DateTime back to a Date (ISO text, or epoch ms if the database was written with "unixepoch-ms"). */
export const fromSqliteDate = (v: unknown) => new NativeDate(typeof v === "string" ? v : Number(v));

// The adapter's own DateTime text, "2026-11-26T02:07:19.584+00:00": the wire's ISO form but for the zone's spelling.
// Written twice, side by side: as a regex for JavaScript and as a GLOB pattern for SQL that tests a column.
const ADAPTER_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/;
export const ADAPTER_DATE_GLOB = "'[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9].[0-9][0-9][0-9]+00:00'";

/** A stored DateTime as the wire's ISO 8601 text (Date#toISOString's form) without building a Date when the text
 * is already in that form. */
export const sqliteDateToIso = (v: unknown): string =>
  typeof v === "string" && ADAPTER_DATE.test(v) ? `${v.slice(0, 23)}Z` : fromSqliteDate(v).toISOString();

export const fromSqliteJson = (v: unknown) => (v === null || v === undefined ? null : JSON.parse(String(v)));
