import { db, databaseProvider } from "@/lib/db/client";
import { directSqlite, statement, toSqliteDate } from "@/lib/db/sqlite-direct";
import { directPostgres, statementName } from "@/lib/db/pg-direct";

// The worker's hot statements (claim, endpoints of a batch, record) in SQL of their own, for SQLite (3.35+: RETURNING, UPDATE … FROM) and
// PostgreSQL. Each Prisma model query costs ~0.65 ms of CPU whatever it does (stack.md); at a few hundred
// deliveries a second that was most of the worker's CPU. Here a claim is one statement for a whole batch, and
// the results of many finished attempts are recorded with one statement. Dates are passed as Date parameters,
// so the driver adapter writes them exactly as Prisma's own queries do (SQLite: ISO 8601 with "+00:00",
// PostgreSQL: TIMESTAMP(3)), and every other query keeps reading them.

/** What the worker needs of a claimed delivery. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  attempts: number;
  attemptLog: unknown[] | null;
  requestBody: string;
  /** The lease token this claim wrote: every later write to the row must still find it. */
  lockedBy: string;
}

/** The outcome of one attempt, written by recordAttempts. */
export interface AttemptRecord {
  id: string;
  lockedBy: string;
  status: "success" | "retrying" | "failed";
  attempts: number;
  lastAttempt: Date;
  responseStatus: number | null;
  responseHeaders: Record<string, string>;
  responseBody: string;
  responseDuration: number;
  lastError: string | null;
  attemptLog: unknown[];
  requestHeaders: Record<string, string>;
  nextRetry: Date | null;
  updatedAt: Date;
}

const pg = () => databaseProvider() === "postgresql";
const RETURNED = `"id", "webhookId", "eventId", "eventType", "attempts", "attemptLog", "requestBody", "lockedBy"`;

// The lease condition and the due condition, as in the index (status, nextRetry): one scan per status yields the
// earliest due rows in order, where `status IN (…)` made SQLite sort every due row of the backlog on each claim.
const SQLITE_CLAIM = `
UPDATE "WebhookDelivery" SET "lockedBy" = ?, "lockedUntil" = ?
WHERE "id" IN (
  SELECT "id" FROM (
    SELECT * FROM (SELECT "id", "nextRetry" FROM "WebhookDelivery"
      WHERE "status" = 'pending' AND "nextRetry" <= ? AND ("lockedUntil" IS NULL OR "lockedUntil" < ?) ORDER BY "nextRetry" LIMIT ?)
    UNION ALL
    SELECT * FROM (SELECT "id", "nextRetry" FROM "WebhookDelivery"
      WHERE "status" = 'retrying' AND "nextRetry" <= ? AND ("lockedUntil" IS NULL OR "lockedUntil" < ?) ORDER BY "nextRetry" LIMIT ?)
  ) ORDER BY "nextRetry" LIMIT ?
)
RETURNING ${RETURNED}`;

// PostgreSQL runs claims of several processes at once: FOR UPDATE SKIP LOCKED makes each skip the rows another
// claim holds instead of waiting for them, and re-checks the lease condition on the rows it locks.
const PG_CLAIM = `
WITH p AS (
  SELECT "id", "nextRetry" FROM "WebhookDelivery"
  WHERE "status" = 'pending' AND "nextRetry" <= $1 AND ("lockedUntil" IS NULL OR "lockedUntil" < $5)
  ORDER BY "nextRetry" LIMIT $2 FOR UPDATE SKIP LOCKED
), r AS (
  SELECT "id", "nextRetry" FROM "WebhookDelivery"
  WHERE "status" = 'retrying' AND "nextRetry" <= $1 AND ("lockedUntil" IS NULL OR "lockedUntil" < $5)
  ORDER BY "nextRetry" LIMIT $2 FOR UPDATE SKIP LOCKED
), picked AS (
  SELECT "id" FROM (SELECT * FROM p UNION ALL SELECT * FROM r) due ORDER BY "nextRetry" LIMIT $2
)
UPDATE "WebhookDelivery" d SET "lockedBy" = $3, "lockedUntil" = $4 FROM picked WHERE d."id" = picked."id"
RETURNING ${RETURNED.split(", ")
  .map((c) => `d.${c}`)
  .join(", ")}`;

// Whether anything is due, asked before a claim. Most of the worker's polls (one a second) find nothing, and a
// claim through Prisma costs milliseconds of CPU even then (its query compiler runs for every raw query): on a
// busy server, that held up a request or two every second. This read of the (status, nextRetry) index on the plain
// connection costs microseconds. Leases are not looked at: a due row another worker holds only costs a claim that
// finds nothing.
const ANY_DUE = (at: string) => `SELECT EXISTS(SELECT 1 FROM "WebhookDelivery" WHERE "status" = 'pending' AND "nextRetry" <= ${at})
  OR EXISTS(SELECT 1 FROM "WebhookDelivery" WHERE "status" = 'retrying' AND "nextRetry" <= ${at}) AS "due"`;
const SQLITE_ANY_DUE = ANY_DUE("@at");
const PG_ANY_DUE = ANY_DUE("$1");

/** True when a pending or retrying delivery is due at `at` (maybe leased: the claim sorts that out). */
export async function anyDue(at: Date): Promise<boolean> {
  const sqlite = directSqlite();
  if (sqlite) {
    const due = statement(sqlite, SQLITE_ANY_DUE)
      .pluck(true)
      .get({ at: toSqliteDate(at) });
    return due === 1;
  }
  const pool = directPostgres();
  if (!pool) return true;
  // "nextRetry" is a timestamp(3) without zone, in UTC: the parameter is written the same way.
  const r = await pool.query({
    name: statementName("webhook-any-due"),
    text: PG_ANY_DUE,
    values: [at.toISOString().slice(0, 23).replace("T", " ")],
  });
  return r.rows[0]?.due === true;
}

/** Leases up to `max` due deliveries (pending or retrying, nextRetry reached, no live lease) to `token`. */
/**
 * Leases up to `max` deliveries due at `at` (business time: the test clock moves it) to `token` until `leaseUntil`.
 * Leases are compared with `leaseNow`, the machine's real time: with the test clock moved on several nodes one after
 * the other, a node already ahead would otherwise see every lease the others hold as long lapsed and send those
 * deliveries a second time (tests/api/cluster.test.ts caught it).
 */
export async function claimBatch(at: Date, max: number, token: string, leaseUntil: Date, leaseNow: Date = at): Promise<ClaimedDelivery[]> {
  const rows = pg()
    ? await db.$queryRawUnsafe<Record<string, unknown>[]>(PG_CLAIM, at, max, token, leaseUntil, leaseNow)
    : await db.$queryRawUnsafe<Record<string, unknown>[]>(SQLITE_CLAIM, token, leaseUntil, at, leaseNow, max, at, leaseNow, max, max);
  return rows.map((r) => ({
    id: String(r.id),
    webhookId: String(r.webhookId),
    eventId: String(r.eventId),
    eventType: String(r.eventType),
    attempts: Number(r.attempts),
    attemptLog: parseJson(r.attemptLog) as unknown[] | null,
    requestBody: String(r.requestBody),
    lockedBy: String(r.lockedBy),
  }));
}

/** What the worker needs of an endpoint to send to it. */
export interface EndpointRow {
  id: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  isActive: boolean;
  headers: unknown;
  failingSince: Date | null;
}

const asDate = (v: unknown) => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));

/** The endpoints of a claimed batch, one statement (a Prisma findMany cost more than the claim itself). */
export async function readEndpoints(ids: string[]): Promise<Map<string, EndpointRow>> {
  if (!ids.length) return new Map();
  const list = ids.map((_, i) => (pg() ? `$${i + 1}` : "?")).join(", ");
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT "id", "url", "secret", "previousSecret", "previousSecretExpiresAt", "isActive", "headers", "failingSince" FROM "Webhook" WHERE "id" IN (${list})`,
    ...ids,
  );
  return new Map(
    rows.map((r) => [
      String(r.id),
      {
        id: String(r.id),
        url: String(r.url),
        secret: String(r.secret),
        previousSecret: r.previousSecret == null ? null : String(r.previousSecret),
        previousSecretExpiresAt: asDate(r.previousSecretExpiresAt),
        // SQLite keeps booleans as 0/1; depending on the path they come back as numbers, bigints or booleans.
        isActive: r.isActive === true || Number(r.isActive) === 1,
        headers: parseJson(r.headers),
        failingSince: asDate(r.failingSince),
      },
    ]),
  );
}

/** A JSON column as a raw query hands it back: parsed by the driver (PostgreSQL) or as its text (SQLite). */
function parseJson(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  return typeof v === "string" ? JSON.parse(v) : v;
}

const COLUMNS = [
  "status",
  "attempts",
  "lastAttempt",
  "responseStatus",
  "responseHeaders",
  "responseBody",
  "responseDuration",
  "lastError",
  "attemptLog",
  "requestHeaders",
  "nextRetry",
  "updatedAt",
] as const;
// PostgreSQL cannot infer the types of parameters in a VALUES list; SQLite needs none.
const PG_TYPES = [
  "text",
  "text",
  "text",
  "int",
  "timestamp(3)",
  "int",
  "jsonb",
  "text",
  "int",
  "text",
  "jsonb",
  "jsonb",
  "timestamp(3)",
  "timestamp(3)",
];

/**
 * Records many finished attempts with one statement. A row is written only while it still carries the lease
 * token of the claim that sent it (an attempt whose lease ran out, and that another worker may have taken, or
 * whose endpoint was deleted meanwhile, changes nothing); the lease is released in the same write. `client`: a
 * transaction to write in (the worker's, when the attempt disables its endpoint). Returns the ids written.
 */
export async function recordAttempts(records: AttemptRecord[], client: Pick<typeof db, "$queryRawUnsafe"> = db): Promise<Set<string>> {
  if (!records.length) return new Set();
  const params: unknown[] = [];
  const rows = records.map((r) => {
    const values = [
      r.id,
      r.lockedBy,
      r.status,
      r.attempts,
      r.lastAttempt,
      r.responseStatus,
      JSON.stringify(r.responseHeaders),
      r.responseBody,
      r.responseDuration,
      r.lastError,
      JSON.stringify(r.attemptLog),
      JSON.stringify(r.requestHeaders),
      r.nextRetry,
      r.updatedAt,
    ];
    const start = params.length;
    params.push(...values);
    return `(${values.map((_, i) => (pg() ? `$${start + i + 1}::${PG_TYPES[i]}` : "?")).join(", ")})`;
  });
  // VALUES columns are named column1, column2, … in both databases: 1 id, 2 lease token, 3.. the COLUMNS.
  const set = COLUMNS.map((c, i) => `"${c}" = v.column${i + 3}`).join(", ");
  const sql = pg()
    ? `UPDATE "WebhookDelivery" d SET ${set}, "lockedUntil" = NULL, "lockedBy" = NULL FROM (VALUES ${rows.join(", ")}) AS v
       WHERE d."id" = v.column1 AND d."lockedBy" = v.column2 RETURNING d."id"`
    : `UPDATE "WebhookDelivery" SET ${set}, "lockedUntil" = NULL, "lockedBy" = NULL FROM (VALUES ${rows.join(", ")}) AS v
       WHERE "WebhookDelivery"."id" = v.column1 AND "WebhookDelivery"."lockedBy" = v.column2 RETURNING "WebhookDelivery"."id"`;
  const written = await client.$queryRawUnsafe<{ id: string }[]>(sql, ...params);
  return new Set(written.map((w) => String(w.id)));
}
