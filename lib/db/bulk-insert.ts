import "server-only";
import { db } from "./client";
import { directSqlite, statement, toSqliteDate } from "./sqlite-direct";

// Many rows into one table at once, for the usage recorder's batches. Prisma's createMany costs about 0.6 ms of
// CPU per row here (every value goes through the query engine); these paths cost a few microseconds:
// - SQLite: the plain better-sqlite3 connection of lib/db/sqlite-direct.ts, one prepared INSERT run per row
//   inside one transaction (BEGIN IMMEDIATE; a busy database is retried after a pause, never waited on). Values
//   are stored exactly as Prisma's adapter stores them (dates as ISO 8601 with "+00:00", booleans as 0/1, JSON
//   as its text), so Prisma reads the rows back unchanged (tests/api/usage-bulk-insert.test.ts).
// - PostgreSQL: one multi-row INSERT through Prisma's raw query, every parameter cast to its column's type
//   (a multi-row VALUES list would otherwise resolve untyped parameters to text).

export type ColumnType = "text" | "int" | "float" | "bool" | "date" | "json";
export type Columns = Record<string, ColumnType>;

/** SQLite's largest number of parameters in one statement is 32,766; PostgreSQL's is 65,535. */
const PG_MAX_PARAMS = 60_000;

const PG_CAST: Record<ColumnType, string> = {
  text: "text", int: "integer", float: "double precision", bool: "boolean", date: "timestamp(3)", json: "jsonb",
};

function sqliteValue(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case "date": return toSqliteDate(v as Date);
    case "bool": return v ? 1 : 0;
    case "json": return JSON.stringify(v);
    default: return v;
  }
}

function pgValue(type: ColumnType, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  return type === "json" ? JSON.stringify(v) : v;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const BUSY_RETRY_MS = [2, 5, 10, 20, 50, 100, 200, 400, 800, 1000];

async function insertSqlite(s: NonNullable<ReturnType<typeof directSqlite>>, table: string, columns: Columns, rows: Record<string, unknown>[]): Promise<void> {
  const names = Object.keys(columns);
  const stmt = statement(s, `INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
  const encoded = rows.map((row) => names.map((c) => sqliteValue(columns[c], row[c])));
  const run = s.conn.transaction(() => { for (const values of encoded) stmt.run(values); });
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

async function insertPostgres(table: string, columns: Columns, rows: Record<string, unknown>[]): Promise<void> {
  const names = Object.keys(columns);
  const perStatement = Math.max(1, Math.floor(PG_MAX_PARAMS / names.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const params: unknown[] = [];
    const tuples = chunk.map((row) => `(${names.map((c) => {
      params.push(pgValue(columns[c], row[c]));
      return `$${params.length}::${PG_CAST[columns[c]]}`;
    }).join(", ")})`);
    await db.$executeRawUnsafe(`INSERT INTO "${table}" (${names.map((c) => `"${c}"`).join(", ")}) VALUES ${tuples.join(", ")}`, ...params);
  }
}

/**
 * Inserts `rows` (objects keyed by column name; missing values are NULL) into `table`: one transaction on SQLite,
 * one statement per 60,000 parameters on PostgreSQL (the recorder's batches of 500 rows are always one).
 */
export async function bulkInsert(table: string, columns: Columns, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const sqlite = directSqlite();
  if (sqlite) return insertSqlite(sqlite, table, columns, rows);
  return insertPostgres(table, columns, rows);
}
