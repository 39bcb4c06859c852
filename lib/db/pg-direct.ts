import "server-only";
import pg from "pg";
import { processSingleton } from "@/lib/process-state";
import { databaseProvider, databaseUrl } from "./client";
import { behindPgbouncer, plainPostgresUrl } from "./database-url";

// A small pool of plain `pg` connections for the request path's reads by id on PostgreSQL (batchedById), where Prisma's
// per-query work (building and compiling the query, mapping the row) costs several times the database's own.
// Statements are named, so each connection prepares them once (not behind pgbouncer: statementName). Null on SQLite
// (lib/db/sqlite-direct.ts).

const direct = processSingleton("pg-direct", () => ({ opened: false, pool: null as pg.Pool | null, named: true }));

/** A statement's name, or none behind pgbouncer in transaction pooling (a prepared statement would be another
 * connection's there: `pgbouncer=true` on DATABASE_URL). */
export const statementName = (name: string): string | undefined => (direct.named ? name : undefined);

export function directPostgres(): pg.Pool | null {
  if (direct.opened) return direct.pool;
  direct.opened = true;
  const url = databaseUrl();
  if (databaseProvider(url) !== "postgresql") return null;
  direct.named = !behindPgbouncer(url);
  direct.pool = new pg.Pool({ connectionString: plainPostgresUrl(url), max: Number(process.env.PG_DIRECT_POOL ?? 4) });
  direct.pool.on("error", (e) => console.warn(`[pg-direct] ${e.message}`));
  return direct.pool;
}

/** Ends the pool (a script or test file that is done: its idle connections would keep the process alive 10 s). */
export async function closeDirectPostgres(): Promise<void> {
  const pool = direct.pool;
  direct.pool = null;
  direct.opened = false;
  await pool?.end();
}

// Prisma stores DateTime as `timestamp(3)` without a zone, in UTC; pg would read it in the process's zone.
const TIMESTAMP = 1114;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP
      ? (v: string) => new Date(`${v.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

type Waiter<T> = { resolve: (row: T | undefined) => void; reject: (e: unknown) => void };

/**
 * A loader of rows by id for the request path: the ids asked for in one turn of the event loop are read by one
 * query (`text` takes them as $1, a text[]: `WHERE p."id" = ANY($1)`). Under load each lookup was a round trip of
 * its own (a socket write, a wait for a pool connection, the answer's parse), most of the CPU a PostgreSQL read
 * cost. Callers that asked for the same id in one turn share its row: they read it and never change it.
 */
export function batchedById<T extends { id: string }>(name: string, text: string) {
  let waiting = new Map<string, Waiter<T>[]>();
  let scheduled = false;
  async function run(pool: pg.Pool) {
    const batch = waiting;
    waiting = new Map();
    scheduled = false;
    try {
      const r = await pool.query({ name: statementName(name), text, values: [[...batch.keys()]], types });
      const byId = new Map<string, T>();
      for (const row of r.rows as T[]) byId.set(row.id, row);
      for (const [id, list] of batch) for (const w of list) w.resolve(byId.get(id));
    } catch (e) {
      for (const list of batch.values()) for (const w of list) w.reject(e);
    }
  }
  return (pool: pg.Pool, id: string): Promise<T | undefined> =>
    new Promise((resolve, reject) => {
      const list = waiting.get(id);
      if (list) list.push({ resolve, reject });
      else waiting.set(id, [{ resolve, reject }]);
      if (!scheduled) {
        scheduled = true;
        // After the poll phase: every request read from the sockets in this turn has asked by then.
        setImmediate(() => void run(pool));
      }
    });
}
