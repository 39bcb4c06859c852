// Applies pending migrations to DATABASE_URL (default: the embedded SQLite file), with WAL turned on for SQLite.
// `migrateIfPending` is what `npm start`, `npm run cli` and `npm run jobs` call: it asks the database which
// migrations it has and runs Prisma's migrate only when one is missing. Beside a running server that matters:
// Prisma's schema engine opens a SQLite file with `PRAGMA locking_mode=EXCLUSIVE`, which no other open connection
// allows (SQLITE_BUSY, which the adapter reports as the engine's unknown `SocketTimeout`), so `migrate deploy`
// cannot run at all while the server has the file open, even with nothing to apply.
import { existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import Database from "better-sqlite3";
import { databaseUrl, providerOf, prismaConfigFor, sqliteFilePath } from "./lib/database-url.mjs";
import { failureLine } from "./lib/prepare.mjs";

// A new SQLite file gets 16 KB pages (SQLite's default is 4 KB): a request log keeps bodies up to 16 KB, and at 4 KB
// such a row spans up to five overflow pages, each its own write to the WAL and again at the checkpoint. A list
// page's log row cost about three times a single read's. The size is fixed when the file is made (an existing
// file keeps its own until a VACUUM).
const SQLITE_PAGE_SIZE = Number(process.env.SQLITE_PAGE_SIZE ?? 16_384);

/** A migration that could not be applied, with one line saying what failed and what to do. */
export class MigrationError extends Error {}

function createSqliteFile(file) {
  mkdirSync(path.dirname(file), { recursive: true });
  if (existsSync(file) && statSync(file).size > 0) return;
  const conn = new Database(file);
  try {
    conn.pragma(`page_size = ${SQLITE_PAGE_SIZE}`);
    conn.pragma("journal_mode = WAL"); // writes the header, and with it the page size
  } finally {
    conn.close();
  }
}

const migrationsDir = (url) => (providerOf(url) === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations");

/** The migrations this checkout ships, oldest first (each a folder with its migration.sql). */
export function shippedMigrations(url) {
  const dir = migrationsDir(url);
  return readdirSync(dir)
    .filter((name) => existsSync(path.join(dir, name, "migration.sql")))
    .sort();
}

const APPLIED_SQL = `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;

/** The names of the migrations the database has applied; an empty list for a database without Prisma's table. */
async function appliedMigrations(url) {
  if (providerOf(url) === "sqlite") {
    const file = sqliteFilePath(url);
    if (!existsSync(file)) return [];
    // A WAL reader: it neither waits for nor blocks the server's connections.
    const conn = new Database(file, { readonly: true, timeout: 5000 });
    try {
      const table = conn.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
      return table ? conn.prepare(APPLIED_SQL).pluck().all() : [];
    } finally {
      conn.close();
    }
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present`);
    if (!rows[0].present) return [];
    return (await client.query(APPLIED_SQL)).rows.map((r) => r.migration_name);
  } finally {
    await client.end();
  }
}

/** The shipped migrations the database does not have yet, oldest first. */
export async function pendingMigrations(url = databaseUrl()) {
  const applied = new Set(await appliedMigrations(url));
  return shippedMigrations(url).filter((name) => !applied.has(name));
}

/** What a database is called in a message: the SQLite file's path, or PostgreSQL's host and database (no password). */
export function describeDatabase(url) {
  if (providerOf(url) === "sqlite") return path.relative(process.cwd(), sqliteFilePath(url)) || sqliteFilePath(url);
  const u = new URL(url);
  return `PostgreSQL ${u.hostname}:${u.port || 5432}${u.pathname}`;
}

/** Prisma's own reason, from its output: the line that starts with "Error:" (or the last one), without its prefix. */
function prismaReason(output) {
  const lines = output.split("\n").map((l) => l.trim());
  const error = lines.find((l) => /^Error:/.test(l)) ?? lines.filter(Boolean).at(-1) ?? "no output";
  return error.replace(/^Error:\s*/, "").slice(0, 300);
}

/** Prisma's migrate deploy; throws a MigrationError that says in one line what failed and what to do. */
export function migrate(url = databaseUrl(), { quiet = false } = {}) {
  if (providerOf(url) === "sqlite") createSqliteFile(sqliteFilePath(url));
  const r = spawnSync("node_modules/.bin/prisma", ["migrate", "deploy", "--config", prismaConfigFor(url)], {
    stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "pipe"],
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (!quiet && r.stderr) process.stderr.write(r.stderr);
  if (r.status === 0) return;
  const output = `${r.stdout ?? ""}\n${r.stderr ?? ""}`;
  const db = describeDatabase(url);
  if (providerOf(url) === "sqlite" && /SocketTimeout|SQLITE_BUSY|database is locked/.test(output)) {
    throw new MigrationError(
      `${db} has migrations to apply and is open in another process (a running server?), and Prisma's migrate needs the file alone: stop that server, then run \`npm start\` (or \`npm run db:migrate\`), which applies them.`,
    );
  }
  throw new MigrationError(
    `Applying the migrations to ${db} failed: ${prismaReason(output)}. Check DATABASE_URL and that the database is reachable, then run \`npm run db:migrate\` to see Prisma's whole report.`,
  );
}

/**
 * Applies the migrations only when the database lacks one: with none pending, nothing opens the database but a
 * read of Prisma's table, so it works beside a running server. Returns the names it applied.
 */
export async function migrateIfPending(url = databaseUrl(), options = {}) {
  let pending;
  try {
    pending = await pendingMigrations(url);
  } catch (e) {
    throw new MigrationError(
      `Could not read which migrations ${describeDatabase(url)} has: ${String(e?.message ?? e).split("\n")[0]}. Check DATABASE_URL and that the database is running.`,
    );
  }
  if (!pending.length) return pending;
  if (providerOf(url) !== "postgresql") {
    migrate(url, options);
    return pending;
  }
  // Several nodes starting at once on one database: one applies the migrations while the others wait here, then find
  // none pending. Prisma's migrate takes an advisory lock of its own, but gives up after 10 s, less than applying
  // every migration to a new database can take. A session lock: run migrations on a direct connection, not through
  // pgbouncer in transaction pooling (docs/deploy.md).
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('platform:migrate'))");
    pending = await pendingMigrations(url);
    if (pending.length) migrate(url, options);
    return pending;
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('platform:migrate'))").catch(() => {});
    await client.end().catch(() => {});
  }
}

// `npm run db:migrate`.
if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const applied = await migrateIfPending();
    console.log(
      applied.length
        ? `Applied ${applied.length} migration(s) to ${describeDatabase(databaseUrl())}.`
        : `${describeDatabase(databaseUrl())} is up to date.`,
    );
  } catch (e) {
    console.error(failureLine(e));
    process.exit(1);
  }
}
