// Which database this process uses, read from DATABASE_URL (default: the embedded SQLite file). A module of its own
// with no imports but node's identity, so that the lowest modules (the local bus) can ask without loading a Prisma client.
import path from "node:path";
import { dataDir } from "@/lib/cluster/node-identity";

export const DEFAULT_SQLITE_URL = "file:./data/platform.db";

export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim();
  if (url) return url;
  // A node with a data folder of its own (DATA_DIR) keeps its embedded database there.
  return env.DATA_DIR?.trim() ? `file:${path.join(dataDir(env), "platform.db")}` : DEFAULT_SQLITE_URL;
}

export function databaseProvider(url = databaseUrl()): "sqlite" | "postgresql" {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgresql";
  throw new Error("DATABASE_URL must start with file: or postgres://");
}

/** Whether PostgreSQL is reached through pgbouncer in transaction pooling (`pgbouncer=true` on DATABASE_URL, Prisma's
 * own spelling): a server connection is ours for one transaction only, so no statement is prepared under a name. */
export function behindPgbouncer(url = databaseUrl()): boolean {
  return databaseProvider(url) === "postgresql" && new URL(url).searchParams.get("pgbouncer") === "true";
}

/** Connections each process's Prisma pool opens: DATABASE_POOL_SIZE, else `connection_limit` on the URL, else 10. */
export function databasePoolSize(url = databaseUrl(), env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.DATABASE_POOL_SIZE);
  if (Number.isInteger(fromEnv) && fromEnv >= 1) return fromEnv;
  const fromUrl = Number(new URL(url).searchParams.get("connection_limit"));
  return Number.isInteger(fromUrl) && fromUrl >= 1 ? fromUrl : 10;
}

/** The URL as `pg` takes it: without the settings that are ours or Prisma's, not the server's. */
export function plainPostgresUrl(url: string): string {
  const u = new URL(url);
  for (const p of ["connection_limit", "pgbouncer"]) u.searchParams.delete(p);
  return u.toString();
}
