// Applies pending migrations to DATABASE_URL (default: the embedded SQLite file), with WAL turned on for SQLite.
import { existsSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import { databaseUrl, providerOf, prismaConfigFor, sqliteFilePath } from "./lib/database-url.mjs";

// A new SQLite file gets 16 KB pages (SQLite's default is 4 KB): a request log keeps bodies up to 16 KB, and at 4 KB
// such a row spans up to five overflow pages, each its own write to the WAL and again at the checkpoint. A list
// page's log row cost about three times a single read's. The size is fixed when the file is made (an existing
// file keeps its own until a VACUUM).
const SQLITE_PAGE_SIZE = Number(process.env.SQLITE_PAGE_SIZE ?? 16_384);

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

export function migrate(url = databaseUrl(), { quiet = false } = {}) {
  if (providerOf(url) === "sqlite") createSqliteFile(sqliteFilePath(url));
  execFileSync("node_modules/.bin/prisma", ["migrate", "deploy", "--config", prismaConfigFor(url)], {
    stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) migrate();
