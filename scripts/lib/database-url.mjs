// One rule, shared by the app, the CLI and the scripts: DATABASE_URL unset means the embedded SQLite file.
import path from "node:path";
import { dataDir } from "./node-identity.mjs";

export const DEFAULT_SQLITE_URL = "file:./data/platform.db";

export function databaseUrl(env = process.env) {
  if (env.DATABASE_URL && env.DATABASE_URL.trim() !== "") return env.DATABASE_URL;
  // A node with a data folder of its own (DATA_DIR) keeps its embedded database there.
  return env.DATA_DIR?.trim() ? `file:${path.join(dataDir(env), "platform.db")}` : DEFAULT_SQLITE_URL;
}

export function providerOf(url) {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgresql";
  throw new Error(`DATABASE_URL must start with file: or postgres://, got ${url.split(":")[0]}:`);
}

export function sqliteFilePath(url) {
  return path.resolve(url.slice("file:".length));
}

/** The URL as `pg` takes it: without the settings that are ours or Prisma's (lib/db/database-url.ts's twin). */
export function plainPostgresUrl(url) {
  const u = new URL(url);
  for (const p of ["connection_limit", "pgbouncer"]) u.searchParams.delete(p);
  return u.toString();
}

export function prismaConfigFor(url) {
  return providerOf(url) === "sqlite" ? "prisma.sqlite.config.ts" : "prisma.postgres.config.ts";
}

/** The sentence that says why DATABASE_REPLICA_URL or DATABASE_POOL_SIZE cannot be honoured, or null. */
export function databaseSettingsError(env = process.env) {
  const pool = env.DATABASE_POOL_SIZE?.trim();
  if (pool && !(Number.isInteger(Number(pool)) && Number(pool) >= 1))
    return `DATABASE_POOL_SIZE must be a whole number of connections, at least 1, not "${pool}".`;
  const replica = env.DATABASE_REPLICA_URL?.trim();
  if (!replica) return null;
  if (!/^postgres(ql)?:\/\//.test(replica))
    return `DATABASE_REPLICA_URL must be a postgresql:// URL of a read replica, not "${replica.split(":")[0]}:…".`;
  if (providerOf(databaseUrl(env)) !== "postgresql")
    return "DATABASE_REPLICA_URL needs DATABASE_URL on PostgreSQL: a replica is of the primary's database (SQLite has none).";
  return null;
}
