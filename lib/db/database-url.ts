// Which database this process uses, read from DATABASE_URL (default: the embedded SQLite file). A module of its own
// with no imports, so that the lowest modules (the local bus) can ask without loading a Prisma client.

export const DEFAULT_SQLITE_URL = "file:./data/platform.db";

export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const url = env.DATABASE_URL?.trim();
  return url ? url : DEFAULT_SQLITE_URL;
}

export function databaseProvider(url = databaseUrl()): "sqlite" | "postgresql" {
  if (url.startsWith("file:")) return "sqlite";
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) return "postgresql";
  throw new Error("DATABASE_URL must start with file: or postgres://");
}
