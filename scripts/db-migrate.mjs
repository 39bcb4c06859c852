// Applies pending migrations to DATABASE_URL (default: the embedded SQLite file), with WAL turned on for SQLite.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { databaseUrl, providerOf, prismaConfigFor, sqliteFilePath } from "./lib/database-url.mjs";

export function migrate(url = databaseUrl(), { quiet = false } = {}) {
  if (providerOf(url) === "sqlite") mkdirSync(path.dirname(sqliteFilePath(url)), { recursive: true });
  execFileSync("node_modules/.bin/prisma", ["migrate", "deploy", "--config", prismaConfigFor(url)], {
    stdio: quiet ? "ignore" : ["ignore", "inherit", "inherit"],
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) migrate();
