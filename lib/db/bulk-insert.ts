import "server-only";
import { db } from "./client";
import { directSqlite, statement, toSqliteDate } from "./sqlite-direct";
import { markWritten } from "./count-cache";
import { directPostgres } from "./pg-direct";
import { insertOnSqliteThread, sqliteThreadRunning } from "./sqlite-thread";

// Many rows into one table at once, for the usage recorder's batches. Prisma's createMany costs about 0.6 ms of
// CPU per row here (every value goes through the query engine); these paths cost a few microseconds:
// - SQLite: one prepared INSERT run per row inside one transaction (BEGIN IMMEDIATE), on the server's SQLite
//   thread (lib/db/sqlite-thread.ts: the event loop only encodes the rows), else on the plain better-sqlite3
//   connection of lib/db/sqlite-direct.ts (a busy database is then retried after a pause, never waited on). Values
//   are stored exactly as Prisma's adapter stores them (dates as ISO 8601 with "+00:00", booleans as 0/1, JSON
//   as its text), so Prisma reads the rows back unchanged (tests/api/usage-bulk-insert.test.ts).
// - PostgreSQL: one INSERT ... SELECT FROM unnest(<one array per column>) on the plain pg pool (lib/db/pg-direct.ts),
//   each array cast to its column's type.

export type ColumnType = "text" | "int" | "float" | "bool" | "date" | "json";
export type Columns = Record<string, ColumnType>;

const PG_CAST: Record<ColumnType, string> = {
  text: "text",
  int: "integer",
  float: "double precision",
  bool: "boolean",
  date: "timestamp(3)",
  json: "jsonb",
};

function sqliteValue(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "date":
      return toSqliteDate(v as Date);
    case "bool":
      return v ? 1 : 0;
    case "json":
      return JSON.stringify(v);
    default:
      return v;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BUSY_RETRY_MS = [2, 5, 10, 20, 50, 100, 200, 400, 800, 1000];

async function insertSqlite(
  s: NonNullable<ReturnType<typeof directSqlite>>,
  table: string,
  columns: Columns,
  rows: Record<string, unknown>[],
  skipExisting: boolean,
): Promise<void> {
  const names = Object.keys(columns);
  const sql = `INSERT${skipExisting ? " OR IGNORE" : ""} INTO "${table}" (${names.map((c) => `"${c}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`;
  const encoded = rows.map((row) => names.map((c) => sqliteValue(columns[c], row[c])));
  if (sqliteThreadRunning(s.file)) return insertOnSqliteThread(sql, encoded);
  const stmt = statement(s, sql);
  const run = s.conn.transaction(() => {
    for (const values of encoded) stmt.run(values);
  });
  for (let attempt = 0; ; attempt++) {
    try {
      run.immediate();
      return;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if ((code !== "SQLITE_BUSY" && code !== "SQLITE_LOCKED") || attempt >= BUSY_RETRY_MS.length) throw e;
      await sleep(BUSY_RETRY_MS[attempt]);
    }
  }
}

/** PostgreSQL's text form of a timestamp(3) (UTC, as Prisma stores it). */
const pgTimestamp = (d: Date) => d.toISOString().replace("T", " ").replace("Z", "");

async function insertPostgres(table: string, columns: Columns, rows: Record<string, unknown>[], skipExisting: boolean): Promise<void> {
  // One array parameter per column and unnest() to turn them into rows: the statement has as many parameters as
  // the table has columns whatever the batch size, so neither Prisma nor PostgreSQL handles thousands of them.
  const names = Object.keys(columns);
  const arrays = names.map((c) =>
    rows.map((row) => {
      const v = row[c];
      if (v === null || v === undefined) return null;
      if (columns[c] === "date") return pgTimestamp(v as Date);
      return columns[c] === "json" ? JSON.stringify(v) : v;
    }),
  );
  const list = names.map((c) => `"${c}"`).join(", ");
  const unnest = names.map((c, i) => `$${i + 1}::${PG_CAST[columns[c]]}[]`).join(", ");
  const sql = `INSERT INTO "${table}" (${list}) SELECT * FROM unnest(${unnest})${skipExisting ? " ON CONFLICT DO NOTHING" : ""}`;
  // The plain pg pool when there is one: through Prisma, each batch's arrays were serialized again by its engine.
  const pool = directPostgres();
  if (pool) await pool.query(sql, arrays);
  else await db.$executeRawUnsafe(sql, ...arrays);
}

/**
 * Inserts `rows` (objects keyed by column name; missing values are NULL) into `table`, in one transaction.
 * `skipExisting`: a row whose key is taken is left out rather than failing the batch (a replay).
 */
export async function bulkInsert(
  table: string,
  columns: Columns,
  rows: Record<string, unknown>[],
  { skipExisting = false }: { skipExisting?: boolean } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const sqlite = directSqlite();
  try {
    if (sqlite) await insertSqlite(sqlite, table, columns, rows, skipExisting);
    else await insertPostgres(table, columns, rows, skipExisting);
  } finally {
    markWritten(table); // the model's counts are stale now (the direct SQLite path does not go through Prisma)
  }
}
