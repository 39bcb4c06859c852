import { now } from "@/lib/clock";
import { db, databaseProvider, databaseUrl } from "./client";

// Day partitions of the two tables that take a row per call (PostgreSQL only; SQLite has no partitioning and keeps
// plain tables). The migration made each a table partitioned by range of "timestamp" with a DEFAULT partition; this
// module adds one partition per UTC day ahead of time, and retention drops whole days rather than DELETE rows: a DROP
// frees a day's space at once, with no dead rows for VACUUM to find and no index bloat.
//
// Rows whose day has no partition (written before the migration, a meter event backfilled into a past day, a test
// clock moved months ahead) land in the default partition. Making the partition of a day that the default partition
// already holds rows of moves those rows first: PostgreSQL refuses to attach a range some default row falls in.

export const PARTITIONED_TABLES = ["RequestLog", "UsageEvent"] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

const DAY_MS = 86_400_000;

/** Days made ahead of the clock (PARTITION_DAYS_AHEAD, default 7): a node whose jobs stop for a while still writes
 * into day partitions. */
export function partitionDaysAhead(env: Record<string, string | undefined> = process.env): number {
  const days = Number(env.PARTITION_DAYS_AHEAD ?? 7);
  return Number.isInteger(days) && days >= 1 && days <= 366 ? days : 7;
}

export const partitionedDatabase = (): boolean => databaseProvider(databaseUrl()) === "postgresql";

export function utcDay(t: Date): Date {
  return new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
}

/** "RequestLog_20261206": the table and its day, UTC. */
export function partitionName(table: PartitionedTable, day: Date): string {
  return `${table}_${day.toISOString().slice(0, 10).replaceAll("-", "")}`;
}

/** A timestamp(3) literal as Prisma stores DateTime on PostgreSQL (UTC, no zone). */
const sqlTimestamp = (t: Date): string => `'${t.toISOString().replace("T", " ").replace("Z", "")}'`;

export interface DayPartition {
  name: string;
  from: Date;
  to: Date;
}

const BOUND = /FROM \('([^']+)'\) TO \('([^']+)'\)/;
const parseTimestamp = (v: string): Date => new Date(`${v.replace(" ", "T")}Z`);

/** The table's day partitions, oldest first (the default partition is not listed). */
export async function dayPartitions(table: PartitionedTable): Promise<DayPartition[]> {
  const rows = await db.$queryRawUnsafe<{ name: string; bound: string }[]>(
    `SELECT c.relname::text AS "name", pg_get_expr(c.relpartbound, c.oid)::text AS "bound"
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = $1 AND p.relnamespace = current_schema()::regnamespace`,
    table,
  );
  const days: DayPartition[] = [];
  for (const r of rows) {
    const m = BOUND.exec(r.bound);
    if (m) days.push({ name: r.name, from: parseTimestamp(m[1]), to: parseTimestamp(m[2]) });
  }
  return days.sort((a, b) => a.from.getTime() - b.from.getTime());
}

// One maker or dropper of partitions at a time, whichever node runs it: DDL on the same table from two transactions
// would fail on the second's attach rather than wait. Transaction-scoped, so it holds behind pgbouncer too.
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('platform:partitions'))`;

// Making a day locks the default partition, and dropping one locks the parent table, each for milliseconds; but a lock
// waiting behind a long query (an analytics read, say) would hold every insert queued behind it. So each waits at
// most this long, then gives up until the job's next run.
const DDL_LOCK_TIMEOUT = `SET LOCAL lock_timeout = '3s'`;

/**
 * The partition of `day` for `table`, made if missing: a plain table shaped like the parent gets the day's rows out of
 * the default partition (in the same transaction, the default partition locked so no row of that day slips in
 * between), then is attached, which builds its indexes. Answers whether it was made here.
 */
export async function ensureDayPartition(table: PartitionedTable, day: Date): Promise<boolean> {
  const from = utcDay(day);
  const to = new Date(from.getTime() + DAY_MS);
  const name = partitionName(table, from);
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(LOCK);
      const exists = await tx.$queryRawUnsafe<{ n: number }[]>(`SELECT COUNT(*)::int AS "n" FROM pg_class WHERE relname = $1`, name);
      if (exists[0].n > 0) return false;
      const range = `FROM (${sqlTimestamp(from)}) TO (${sqlTimestamp(to)})`;
      await tx.$executeRawUnsafe(DDL_LOCK_TIMEOUT);
      await tx.$executeRawUnsafe(`LOCK TABLE "${table}_default" IN ACCESS EXCLUSIVE MODE`);
      await tx.$executeRawUnsafe(`CREATE TABLE "${name}" (LIKE "${table}" INCLUDING DEFAULTS)`);
      await tx.$executeRawUnsafe(
        `WITH moved AS (DELETE FROM "${table}_default" WHERE "timestamp" >= ${sqlTimestamp(from)} AND "timestamp" < ${sqlTimestamp(to)} RETURNING *)
         INSERT INTO "${name}" SELECT * FROM moved`,
      );
      await tx.$executeRawUnsafe(`ALTER TABLE "${table}" ATTACH PARTITION "${name}" FOR VALUES ${range}`);
      return true;
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** Today's and the next `partitionDaysAhead()` days' partitions of both tables. Answers the partitions made. */
export async function ensureDayPartitions(at: Date = now(), daysAhead = partitionDaysAhead()): Promise<string[]> {
  if (!partitionedDatabase()) return [];
  const made: string[] = [];
  const today = utcDay(at);
  for (const table of PARTITIONED_TABLES)
    for (let d = 0; d <= daysAhead; d++) {
      const day = new Date(today.getTime() + d * DAY_MS);
      if (await ensureDayPartition(table, day)) made.push(partitionName(table, day));
    }
  return made;
}

/** Drops the table's day partitions that end at or before `before`. Answers their names. */
export async function dropDayPartitionsBefore(table: PartitionedTable, before: Date): Promise<string[]> {
  if (!partitionedDatabase()) return [];
  const old = (await dayPartitions(table)).filter((p) => p.to.getTime() <= before.getTime());
  const dropped: string[] = [];
  for (const p of old) {
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(LOCK);
      await tx.$executeRawUnsafe(DDL_LOCK_TIMEOUT);
      await tx.$executeRawUnsafe(`DROP TABLE IF EXISTS "${p.name}"`);
    });
    dropped.push(p.name);
  }
  return dropped;
}
