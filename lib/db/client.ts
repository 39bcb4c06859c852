import "server-only";
import path from "node:path";
import { mkdirSync } from "node:fs";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient, Prisma as SqlitePrisma } from "@/generated/prisma-sqlite";
import { PrismaClient as PgClient, Prisma as PgPrisma } from "@/generated/prisma-pg";
import { countCacheExtension, markWritten } from "./count-cache";
import { databasePoolSize, databaseProvider, databaseUrl, plainPostgresUrl } from "./database-url";

// One type for the rest of the code: both clients are generated from one schema, so the SQLite client's
// type describes the PostgreSQL one as well.
export type Db = SqliteClient;

export { DEFAULT_SQLITE_URL, databaseProvider, databaseUrl } from "./database-url";

type DbNullValue = typeof SqlitePrisma.DbNull;

const globalForDb = globalThis as unknown as { __platformDb?: Db; __platformAnalyticsDb?: Db; __platformDbNull?: DbNullValue };

function createClient(url: string): Db {
  // Kept with the client: see dbNull below.
  globalForDb.__platformDbNull = databaseProvider(url) === "postgresql" ? (PgPrisma.DbNull as unknown as DbNullValue) : SqlitePrisma.DbNull;
  if (databaseProvider(url) === "postgresql") {
    // Prisma's pg adapter prepares no statement under a name, so it works behind pgbouncer in transaction pooling as is.
    const max = databasePoolSize(url);
    return new PgClient({ adapter: new PrismaPg({ connectionString: plainPostgresUrl(url), max }) }) as unknown as Db;
  }
  const file = path.resolve(url.slice("file:".length));
  mkdirSync(path.dirname(file), { recursive: true });
  const adapter = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 5000 });
  const client = new SqliteClient({ adapter });
  // WAL lets readers run beside the writer and lifts sequential inserts from ~240/s to ~1,400/s (stack.md).
  void client
    .$executeRawUnsafe("PRAGMA journal_mode=WAL")
    .then(() => client.$executeRawUnsafe("PRAGMA synchronous=NORMAL"))
    .catch(() => {});
  return client;
}

/**
 * The client with the count cache (./count-cache.ts). A count taken while a transaction was open may miss its
 * writes, so the end of every transaction bumps every write version once more.
 */
function withCountCache(client: Db): Db {
  const extended = client.$extends(countCacheExtension) as unknown as Db;
  const transaction = ((...args: Parameters<Db["$transaction"]>) =>
    (extended.$transaction as (...a: unknown[]) => Promise<unknown>)(...args).finally(() => markWritten(null))) as Db["$transaction"];
  return new Proxy(extended, {
    get: (target, prop, receiver) => (prop === "$transaction" ? transaction : Reflect.get(target, prop, receiver)),
  });
}

/** The process-wide client (a globalThis singleton survives Next's module reloading in development). */
export const db: Db = globalForDb.__platformDb ?? (globalForDb.__platformDb = withCountCache(createClient(databaseUrl())));

/**
 * The client for the portal's and analytics' reads (usage charts, metrics, log search, revenue, product statistics):
 * a read replica when DATABASE_REPLICA_URL is set (PostgreSQL streaming replication), else `db`. Such a read may lag
 * the primary by the replica's delay, so nothing that must see the caller's own writes (a resource just created, a
 * quota or a balance being enforced) reads through it. A plain client: the count cache is the primary's.
 */
export const analyticsDb: Db =
  globalForDb.__platformAnalyticsDb ??
  (globalForDb.__platformAnalyticsDb = (() => {
    const replica = process.env.DATABASE_REPLICA_URL?.trim();
    if (!replica || databaseProvider(databaseUrl()) !== "postgresql" || databaseProvider(replica) !== "postgresql") return db;
    const adapter = new PrismaPg({ connectionString: plainPostgresUrl(replica), max: databasePoolSize(replica) });
    return new PgClient({ adapter }) as unknown as Db;
  })());

/**
 * Prisma's DbNull (what clears a JSON column) from the generated module `db` was built with. Prisma matches the
 * sentinel by identity, and each Next route bundle carries its own copy of the generated clients while `db` is
 * one per process: another copy's DbNull, or the SQLite client's given to PostgreSQL, is silently stored as `{}`.
 */
export const dbNull: DbNullValue = globalForDb.__platformDbNull!;
