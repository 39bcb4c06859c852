// One rule, shared by the app, the CLI and the scripts: DATABASE_URL unset means the embedded SQLite file.
import path from "node:path";

export const DEFAULT_SQLITE_URL = "file:./data/platform.db";

export function databaseUrl(env = process.env) {
  return env.DATABASE_URL && env.DATABASE_URL.trim() !== "" ? env.DATABASE_URL : DEFAULT_SQLITE_URL;
}

export function providerOf(url) {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: or postgres://, got ${url.split(":")[0]}:`);
}

export function sqliteFilePath(url) {
  return path.resolve(url.slice("file:".length));
}

export function prismaConfigFor(url) {
  return providerOf(url) === "sqlite" ? "prisma.sqlite.config.ts" : "prisma.postgres.config.ts";
}
