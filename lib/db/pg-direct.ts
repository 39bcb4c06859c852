import "server-only";
import pg from "pg";
import { processSingleton } from "@/lib/process-state";
import { databaseProvider, databaseUrl } from "./client";

// A small pool of plain `pg` connections for the request path's single-row reads on PostgreSQL, where Prisma's
// per-query work (building and compiling the query, mapping the row) costs several times the database's own.
// Statements are named, so each connection prepares them once. Null on SQLite (lib/db/sqlite-direct.ts).

const direct = processSingleton("pg-direct", () => ({ opened: false, pool: null as pg.Pool | null }));

export function directPostgres(): pg.Pool | null {
  if (direct.opened) return direct.pool;
  direct.opened = true;
  const url = databaseUrl();
  if (databaseProvider(url) !== "postgresql") return null;
  const u = new URL(url);
  u.searchParams.delete("connection_limit");
  direct.pool = new pg.Pool({ connectionString: u.toString(), max: Number(process.env.PG_DIRECT_POOL ?? 4) });
  direct.pool.on("error", (e) => console.warn(`[pg-direct] ${e.message}`));
  return direct.pool;
}

// Prisma stores DateTime as `timestamp(3)` without a zone, in UTC; pg would read it in the process's zone.
const TIMESTAMP = 1114;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP
      ? (v: string) => new Date(`${v.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** One row of a named (prepared once per connection) statement, or null. */
export async function queryOne<T>(pool: pg.Pool, name: string, text: string, values: unknown[]): Promise<T | null> {
  const r = await pool.query({ name, text, values, types });
  return (r.rows[0] as T | undefined) ?? null;
}
