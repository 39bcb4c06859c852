import "server-only";
import { db } from "./client";
import { directSqlite, statement, toSqliteDate } from "./sqlite-direct";
import { type ColumnType, type Columns, checkedColumnNames } from "./columns";
import { markBatchWritten } from "./count-cache";
import { directPostgres } from "./pg-direct";
import { insertOnSqliteThread, sqliteThreadRunning } from "./sqlite-thread";

// Many rows into one table at once, for the usage recorder's batches. Prisma's createMany costs about 0.6 ms of
// CPU per row here (every value goes through the query engine); these paths cost a few microseconds:
// - SQLite: one prepared INSERT run per row inside one transaction (BEGIN IMMEDIATE), on the server's SQLite
//   thread (lib/db/sqlite-thread.ts: the event loop only encodes the rows), else on the plain better-sqlite3
//   connection of lib/db/sqlite-direct.ts (a busy database is then retried after a pause, never waited on). Values
//   are stored exactly as Prisma's adapter stores them (dates as ISO 8601 with "+00:00", booleans as 0/1, JSON
//   as its text), so Prisma reads the rows back unchanged (tests/api/usage-bulk-insert.test.ts).
// - PostgreSQL: one INSERT ... SELECT FROM json_populate_recordset(<the rows as one JSON text>) on the plain pg pool
//   (lib/db/pg-direct.ts): the statement has one parameter whatever the batch size.

export type { ColumnType, Columns } from "./columns";

// A boolean the row does not carry is false, never NULL: a journal line written before a boolean column was added
// (a replay after an upgrade) still inserts.
const encodeValue: Record<ColumnType, (v: unknown) => unknown> = {
  bool: (v) => (v ? 1 : 0),
  date: (v) => (v === null || v === undefined ? null : toSqliteDate(v as Date)),
  json: (v) => (v === null || v === undefined ? null : JSON.stringify(v)),
  text: (v) => (v === undefined ? null : v),
  int: (v) => (v === undefined ? null : v),
  float: (v) => (v === undefined ? null : v),
};

type RowEncoder = (row: Record<string, unknown>) => unknown[];
const encoders = new WeakMap<Columns, RowEncoder>();

/** A row's values in the columns' order, as the INSERT binds them. One function per column set, compiled once: it
 * reads each column by its own name (`row.timestamp`) where a loop over the names made every read a lookup by a
 * varying key; with the dates' text this took the recorder's encoding from about 3 µs a row to under 1 (the
 * usage event and the request log of every gateway call). The names are the recorder's own constants, checked. */
function rowEncoder(columns: Columns): RowEncoder {
  let encode = encoders.get(columns);
  if (!encode) {
    const names = checkedColumnNames(columns, "bulk insert");
    const body = `return (row) => [${names.map((name, i) => `e[${i}](row.${name})`).join(", ")}];`;
    encode = new Function("e", body)(names.map((name) => encodeValue[columns[name]])) as RowEncoder;
    encoders.set(columns, encode);
  }
  return encode;
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
  const encoded = rows.map(rowEncoder(columns));
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

async function insertPostgres(table: string, columns: Columns, rows: Record<string, unknown>[], skipExisting: boolean): Promise<void> {
  // The rows as one JSON parameter, turned back into rows of the table's type by json_populate_recordset: one
  // JSON.stringify of the batch (dates as ISO 8601 text, which a timestamp(3) column reads as the UTC it is; JSON
  // columns as the JSON they are; a missing value or JSON null as NULL), where one array per column cost 25–70 µs
  // a row on the event loop in pg's array encoding. Only the listed columns are inserted: the rest keep their
  // defaults, as before.
  const list = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(", ");
  const select = Object.entries(columns)
    .map(([c, type]) => (type === "bool" ? `COALESCE("${c}", false)` : `"${c}"`))
    .join(", ");
  const sql = `INSERT INTO "${table}" (${list}) SELECT ${select} FROM json_populate_recordset(NULL::"${table}", $1::json)${skipExisting ? " ON CONFLICT DO NOTHING" : ""}`;
  const json = JSON.stringify(rows);
  // The plain pg pool when there is one: through Prisma, each batch's parameter was serialized again by its engine.
  const pool = directPostgres();
  if (pool) await pool.query(sql, [json]);
  else await db.$executeRawUnsafe(sql, json);
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
    markBatchWritten(table); // the model's counts are stale now (the direct SQLite path does not go through Prisma)
  }
}
