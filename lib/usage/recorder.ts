import type { HeaderReader } from "@/lib/http/header-reader";
import { bulkInsert, type Columns } from "@/lib/db/bulk-insert";
import { databaseAnswered, databaseFailed } from "@/lib/db/availability";
import { isDatabaseUnavailable } from "@/lib/http/error-mapper";
import { databaseProvider, db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { onShutdown, whileDraining } from "@/lib/shutdown";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";
import { processSingleton } from "@/lib/process-state";
import { addTo, merge, type Histogram } from "./histogram";
import { redactBody, redactHeaders, redactText } from "./redact";
import { jsonLineEncoder } from "./journal-line";
import {
  appendToJournal,
  appendToJournalSoon,
  setJournalLine,
  closeJournal,
  isJournaled,
  journalCommitted,
  journalEnabled,
  recoverJournals,
} from "./usage-journal";

// Usage events, request logs and hourly rollups, recorded off the request's path: a request only appends to
// in-memory queues; a timer writes them in batches, one raw insert each (lib/db/bulk-insert.ts: Prisma's
// createMany cost ~0.6 ms of CPU a row, which capped ingestion near 1,600 events/s). A graceful stop flushes
// everything (lib/shutdown.ts). If the database refuses a batch, it stays queued and is retried; the queue is
// bounded, and what overflows is counted and reported rather than growing memory without end.

export interface RequestRecord {
  requestId: string;
  at: Date;
  auth: AuthContext;
  method: string;
  endpoint: string;
  path: string;
  statusCode: number;
  errorType: string | null;
  latencyMs: number;
  computeMs: number;
  requestBytes: number;
  responseBytes: number;
  ip: string | null;
  userAgent: string | null;
  requestHeaders: HeaderReader;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  userId?: string | null;
  /** The call's cost in the major unit (lib/billing/rate-request.ts), or null when it is not rated. */
  cost?: number | null;
  /** A product call: the product, the subscription that rates it and the provider credited. */
  product?: ProductCallRef | null;
}

export interface ProductCallRef {
  productId: string;
  subscriptionId: string | null;
  providerId: string;
  quantity?: number;
  /** Paid from prepaid credits: the event is the credit burn (lib/billing/credits.ts). */
  paidByCredits?: boolean;
  /** Units measured from the call's request or answer, by metric name (lib/gateway/answer-meter.ts). */
  quantities?: Record<string, number> | null;
}

// How long a record waits in the queue. Short, for the garbage collector's sake: under load V8 scavenges the young
// generation about 30 times a second, and a record still queued at two scavenges is promoted to the old generation
// (with its headers and bodies), where only a full collection frees it. bench:api at 32 connections, --trace-gc-nvp:
// every 100 ms, ~250 KB promoted a scavenge on the single read; every 20 ms, 86–140 KB and half the full collections.
// Each flush is small either way (the SQLite thread commits it); a heavy load fills BATCH sooner.
const EVENT_FLUSH_MS = Number(process.env.USAGE_FLUSH_MS ?? 20);
// Read once, as every setting here: a process.env read is a call into the C++ environment, and rows are many.
const REGION = process.env.REGION ?? null;
const JOURNAL = journalEnabled();
const ROLLUP_FLUSH_MS = Number(process.env.ROLLUP_FLUSH_MS ?? 5000);
const BATCH = 500;
// Rows per insert. On SQLite an insert blocks the event loop while it runs, so batches stay small; PostgreSQL
// works in its own process, and each statement's commit is its biggest cost, so there they are larger (not much
// larger: a log row may carry 32 KB of bodies, and a batch is held in memory about three times over while sent).
const WRITE_BATCH = databaseProvider() === "postgresql" ? 1000 : BATCH;
const MAX_QUEUE = 200_000;

interface RollupCell {
  projectId: string;
  environment: string;
  hour: Date;
  endpoint: string;
  method: string;
  statusCode: number;
  errorType: string | null;
  apiKey: string;
  principal: string;
  count: number;
  billableCount: number;
  latencySum: number;
  latencyHist: Histogram;
  requestBytes: number;
  responseBytes: number;
  computeMs: number;
  cost: number;
  productId: string | null;
}

// The columns each batch writes, with their types (prisma/schema.prisma); `cost` is the rated cost (billing).
// Exported for the test that reads bulk-inserted rows back through Prisma.
export const USAGE_COLUMNS: Columns = {
  id: "text",
  timestamp: "date",
  businessId: "text",
  projectId: "text",
  environment: "text",
  apiKey: "text",
  userId: "text",
  method: "text",
  endpoint: "text",
  path: "text",
  statusCode: "int",
  errorType: "text",
  latency: "float",
  requestSize: "int",
  responseSize: "int",
  computeTime: "float",
  cost: "float",
  billable: "bool",
  ip: "text",
  userAgent: "text",
  region: "text",
  productId: "text",
  subscriptionId: "text",
  providerId: "text",
  quantity: "int",
  identifier: "text",
  paidByCredits: "bool",
  quantities: "json",
};
export const LOG_COLUMNS: Columns = {
  id: "text",
  timestamp: "date",
  businessId: "text",
  projectId: "text",
  environment: "text",
  apiKey: "text",
  method: "text",
  endpoint: "text",
  path: "text",
  statusCode: "int",
  latency: "float",
  ip: "text",
  userAgent: "text",
  requestHeaders: "json",
  requestBody: "text",
  responseHeaders: "json",
  responseBody: "text",
  productId: "text",
};
export const ROLLUP_COLUMNS: Columns = {
  id: "text",
  projectId: "text",
  environment: "text",
  hour: "date",
  endpoint: "text",
  method: "text",
  statusCode: "int",
  errorType: "text",
  apiKey: "text",
  principal: "text",
  count: "int",
  billableCount: "int",
  latencySum: "float",
  latencyHist: "json",
  requestBytes: "int",
  responseBytes: "int",
  computeMs: "float",
  cost: "float",
  compacted: "bool",
  productId: "text",
};

type UsageRow = Prisma.UsageEventCreateManyInput;

// The journal's lines are usage rows: written by an encoder compiled for their columns (2.9 µs a row against
// JSON.stringify's 7.1, before every gateway call's answer).
setJournalLine(jsonLineEncoder(USAGE_COLUMNS) as (row: { id: string }) => string);
type LogRow = Prisma.RequestLogCreateManyInput;

/** A product call counted without a request of its own (a provider verifying a consumer's key): no log. */
export type UsageRecord = Omit<RequestRecord, "requestId" | "requestHeaders" | "requestBody" | "responseHeaders" | "responseBody">;

/** What a request leaves in the queue: the record as the request made it; its rows are built at the flush. */
interface Queued {
  usageId: string;
  record: RequestRecord | UsageRecord;
  /** Built at once for a journaled event (it had to be written down before its answer went out). */
  row: UsageRow | null;
}

/** Path and user agent redacted like the headers they come from (a client may send a key in its User-Agent). */
type RedactedBase = { path: string; userAgent: string | null };
function redactBase(r: RedactedBase): RedactedBase {
  return { path: redactText(r.path).slice(0, 2000), userAgent: r.userAgent ? redactText(r.userAgent).slice(0, 500) : null };
}

// Which credential acted: the key, or for an OAuth access token the client (oac_...); the user is then the one
// who authorized it. Rate limits still count per grant (auth.principal).
const actorOf = (r: UsageRecord) => r.auth.oauth?.clientId ?? r.auth.principal.id;
const userOf = (r: UsageRecord) => r.userId ?? r.auth.oauth?.userId ?? null;
// Test traffic is never billable; live traffic is when it succeeded.
const isBillable = (r: UsageRecord) => r.auth.environment === "production" && r.statusCode < 400;
const hasLog = (r: RequestRecord | UsageRecord): r is RequestRecord => "requestHeaders" in r;

/** A request's usage event id: its request id's time and randomness (one event per request, found by either). */
export const usageIdOf = (requestId: string) => `use_${requestId.slice(requestId.indexOf("_") + 1)}`;

/** `base`: the record's path and user agent redacted, when the caller has them already (its log row shares them). */
function usageRow(usageId: string, r: UsageRecord, base: RedactedBase = redactBase(r)): UsageRow {
  return {
    id: usageId,
    timestamp: r.at,
    businessId: r.auth.businessId,
    projectId: r.auth.projectId,
    environment: r.auth.environment,
    apiKey: actorOf(r),
    userId: userOf(r),
    method: r.method,
    endpoint: r.endpoint,
    path: base.path,
    userAgent: base.userAgent,
    statusCode: r.statusCode,
    errorType: r.errorType,
    latency: Math.round(r.latencyMs * 100) / 100,
    requestSize: r.requestBytes,
    responseSize: r.responseBytes,
    computeTime: Math.round(r.computeMs * 100) / 100,
    cost: r.cost ?? null,
    billable: isBillable(r),
    ip: r.ip,
    region: REGION,
    productId: r.product?.productId ?? null,
    subscriptionId: r.product?.subscriptionId ?? null,
    providerId: r.product?.providerId ?? null,
    quantity: r.product?.quantity ?? 1,
    identifier: null,
    paidByCredits: r.product?.paidByCredits ?? false,
    quantities: (r.product?.quantities ?? undefined) as UsageRow["quantities"],
  };
}

function logRow(r: RequestRecord, base: RedactedBase = redactBase(r)): LogRow {
  return {
    id: r.requestId,
    timestamp: r.at,
    businessId: r.auth.businessId,
    projectId: r.auth.projectId,
    environment: r.auth.environment,
    apiKey: actorOf(r),
    method: r.method,
    endpoint: r.endpoint,
    path: base.path,
    userAgent: base.userAgent,
    statusCode: r.statusCode,
    latency: Math.round(r.latencyMs * 100) / 100,
    ip: r.ip,
    requestHeaders: redactHeaders(r.requestHeaders),
    requestBody: redactBody(r.requestBody ?? null),
    responseHeaders: redactHeaders(r.responseHeaders),
    responseBody: redactBody(r.responseBody ?? null),
    productId: r.product?.productId ?? null,
  };
}

const S = processSingleton("usage-recorder", () => ({
  queue: [] as Queued[],
  /** Rows built, whose write failed: written first at the next flush. */
  usageRetry: [] as UsageRow[],
  logRetry: [] as LogRow[],
  rollups: new Map<string, RollupCell>(),
  /** The cell the last row was counted in: always one of `rollups` (null when they are taken for a write). */
  lastRollup: null as RollupCell | null,
  eventTimer: null as NodeJS.Timeout | null,
  rollupTimer: null as NodeJS.Timeout | null,
  chain: Promise.resolve() as Promise<void>,
  /** An event flush queued on the chain and not started yet: one is enough, it writes whatever is queued then. */
  pendingEvents: null as Promise<void> | null,
  stats: { recorded: 0, written: 0, dropped: 0, failedBatches: 0, replayed: 0 },
}));
export const recorderStats = S.stats;

/** Events and logs waiting to be written (the queue and the batches the database refused, kept for a retry). */
export function recorderQueueDepth(): number {
  return S.queue.length + S.usageRetry.length;
}

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

type RollupDimensions =
  "projectId" | "environment" | "hour" | "endpoint" | "method" | "statusCode" | "errorType" | "apiKey" | "principal" | "productId";

/** The dimensions a rollup row adds up over: cells with the same key merge (here, on a retry and in compaction). */
export const rollupKey = (c: Pick<RollupCell, RollupDimensions>) =>
  [
    c.projectId,
    c.environment,
    c.hour.getTime(),
    c.endpoint,
    c.method,
    c.statusCode,
    c.errorType ?? "",
    c.apiKey,
    c.principal,
    c.productId ?? "",
  ].join("|");

/**
 * Counts a usage row in its hour's rollup cell (the metrics' source); the user, when one acted, is the principal.
 * The rollup timer starts here, where a cell is added: an event's cell is added at its flush, which may be after the
 * timer its request started has fired, and a process's last calls would otherwise wait in memory for a later request
 * (CI, two data-plane workers: a product's last call missing from its metrics).
 */
function addRollup(row: UsageRow): void {
  scheduleRollups();
  const hourMs = Math.floor((row.timestamp as Date).getTime() / 3_600_000) * 3_600_000;
  const principal = row.userId ?? row.apiKey;
  const errorType = row.errorType ?? null;
  const productId = row.productId ?? null;
  // Rows in a row mostly fall in the same cell (one client calling one endpoint): compared with the last cell
  // field by field, without the key's text and the map's lookup (a tenth of the flush's time a gateway call).
  let cell = S.lastRollup;
  if (
    !cell ||
    cell.hour.getTime() !== hourMs ||
    cell.projectId !== row.projectId ||
    cell.environment !== row.environment ||
    cell.endpoint !== row.endpoint ||
    cell.method !== row.method ||
    cell.statusCode !== row.statusCode ||
    cell.errorType !== errorType ||
    cell.apiKey !== row.apiKey ||
    cell.principal !== principal ||
    cell.productId !== productId
  ) {
    const cellKey = {
      projectId: row.projectId,
      environment: row.environment,
      hour: new Date(hourMs),
      endpoint: row.endpoint,
      method: row.method,
      statusCode: row.statusCode,
      errorType,
      apiKey: row.apiKey,
      principal,
      productId,
    };
    const key = rollupKey(cellKey);
    let found = S.rollups.get(key);
    if (!found) {
      found = {
        ...cellKey,
        count: 0,
        billableCount: 0,
        latencySum: 0,
        latencyHist: {},
        requestBytes: 0,
        responseBytes: 0,
        computeMs: 0,
        cost: 0,
      };
      S.rollups.set(key, found);
    }
    S.lastRollup = cell = found;
  }
  cell.count++;
  if (row.billable) cell.billableCount++;
  cell.latencySum += row.latency;
  addTo(cell.latencyHist, row.latency);
  cell.requestBytes += row.requestSize ?? 0;
  cell.responseBytes += row.responseSize ?? 0;
  cell.computeMs += row.computeTime ?? 0;
  cell.cost += row.cost ?? 0;
}

function schedule(): void {
  if (!S.eventTimer) {
    S.eventTimer = setTimeout(() => {
      S.eventTimer = null;
      void flushEvents();
    }, EVENT_FLUSH_MS);
    S.eventTimer.unref?.();
  }
  // Also for what a failed write put back (writeBatches' retry): rollup cells requeued without addRollup.
  scheduleRollups();
}

function scheduleRollups(): void {
  if (!S.rollupTimer) {
    S.rollupTimer = setTimeout(() => {
      S.rollupTimer = null;
      void flushRollups();
    }, ROLLUP_FLUSH_MS);
    S.rollupTimer.unref?.();
  }
}

function enqueue(q: Queued): void {
  S.stats.recorded++;
  if (S.queue.length + S.usageRetry.length >= MAX_QUEUE) {
    S.stats.dropped++;
    return;
  }
  S.queue.push(q);
  if (S.queue.length >= BATCH) void flushEvents();
  else schedule();
}

/**
 * Queues a request's usage event, request log and rollup. Only what is cheap happens here: the rows (and their
 * redaction, regular expressions over headers, bodies, path and user agent) are built at the flush. A `durable`
 * record (a gateway call) is first written to the journal, unless journalRequest already did.
 */
export function recordRequest(r: RequestRecord, { durable = false }: { durable?: boolean } = {}): void {
  const usageId = usageIdOf(r.requestId);
  let row: UsageRow | null = null;
  if (durable && JOURNAL && !isJournaled(usageId)) {
    row = usageRow(usageId, r);
    appendToJournal(row);
  }
  enqueue({ usageId, record: r, row });
}

/**
 * Writes a call's usage event to the journal before its answer's first byte goes out (the gateway, when the
 * upstream has answered, waits for the promise: the calls answered in the same turn share one write): a kill -9
 * before the flush cannot lose it. The event recorded when the call ends
 * (recordRequest with the same request id) replaces it; a crash in between replays this one.
 */
export function journalRequest(r: UsageRecord & { requestId: string }): Promise<void> | void {
  if (JOURNAL) return appendToJournalSoon(usageRow(usageIdOf(r.requestId), r));
}

/**
 * The same, written now: for a call whose event is known only at its answer's end (a metered stream), where calls
 * rarely end in the same turn, so waiting for the turn's shared write would only hold the last chunk back.
 */
export function journalRequestNow(r: UsageRecord & { requestId: string }): void {
  if (JOURNAL) appendToJournal(usageRow(usageIdOf(r.requestId), r));
}

/** A product call counted without a request of its own in the consumer's project: a usage event and its rollup. */
export function recordProductUsage(r: UsageRecord): void {
  enqueue({ usageId: newId("usage"), record: r, row: null });
}

/** A meter event written at once (its identifier must be unique now, not at the next flush): its rollup only. */
export function recordMeterRollup(r: UsageRecord): void {
  addRollup(usageRow("", r));
}

/** Writes rows in batches; on the first failure puts the rest back for a later retry and answers false. */
async function writeBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>, requeue: (batch: T[]) => void): Promise<boolean> {
  for (let i = 0; i < rows.length; i += WRITE_BATCH) {
    const batch = rows.slice(i, i + WRITE_BATCH);
    try {
      await write(batch);
      S.stats.written += batch.length;
      databaseAnswered();
    } catch (e) {
      S.stats.failedBatches++;
      if (isDatabaseUnavailable(e, 0, true)) databaseFailed(e); // its errors all come from the database's driver
      console.error(`[usage] batch of ${batch.length} not written, will retry: ${(e as Error).message}`);
      requeue(rows.slice(i));
      schedule();
      return false;
    }
  }
  return true;
}

const hasQueued = () => S.queue.length > 0 || S.usageRetry.length > 0 || S.logRetry.length > 0;

/**
 * Writes what is queued. A round takes the queue as it is; what requests add while it is written waits for the
 * timer (or for a full BATCH), rather than being written at once in a round of its own: with the writes on the
 * SQLite thread a round takes real time, and rounds that followed each other back to back cut the batches down
 * to a few rows, each its own transaction. `drain` (flushUsage) goes on until nothing is left.
 */
export function flushEvents({ drain = false }: { drain?: boolean } = {}): Promise<void> {
  if (S.pendingEvents && !drain) return S.pendingEvents;
  const round = (S.chain = S.chain.then(async () => {
    if (S.pendingEvents === round) S.pendingEvents = null;
    do {
      const taken = S.queue;
      S.queue = [];
      const usage = S.usageRetry;
      const logs = S.logRetry;
      S.usageRetry = [];
      S.logRetry = [];
      for (const q of taken) {
        // The path and user agent redacted once for both rows (a row built for the journal has them already).
        const base = q.row ? { path: q.row.path, userAgent: q.row.userAgent ?? null } : redactBase(q.record);
        const row = q.row ?? usageRow(q.usageId, q.record, base);
        addRollup(row); // once, as the row is built (a retried row is not counted again)
        usage.push(row);
        if (hasLog(q.record)) logs.push(logRow(q.record, base));
      }
      // Both tables at once: on PostgreSQL that is two connections working side by side.
      const [usageOk, logsOk] = await Promise.all([
        writeBatches(
          usage,
          async (b) => {
            await bulkInsert("UsageEvent", USAGE_COLUMNS, b);
            journalCommitted(b);
          },
          (rest) => {
            S.usageRetry = [...rest, ...S.usageRetry];
          },
        ),
        writeBatches(
          logs,
          (b) => bulkInsert("RequestLog", LOG_COLUMNS, b),
          (rest) => {
            S.logRetry = [...rest, ...S.logRetry];
          },
        ),
      ]);
      if (!usageOk || !logsOk) return; // the database refused: the timer tries again later
    } while (drain ? hasQueued() : S.queue.length >= BATCH);
    if (hasQueued()) schedule();
  }));
  if (!drain) S.pendingEvents = round;
  return round;
}

export function flushRollups(): Promise<void> {
  S.chain = S.chain.then(async () => {
    if (!S.rollups.size) return;
    const cells = [...S.rollups.values()];
    S.rollups = new Map();
    S.lastRollup = null;
    const rows = cells.map((c) => ({ ...c, id: newId("rollup"), compacted: false }));
    await writeBatches(
      rows,
      (b) => bulkInsert("UsageRollup", ROLLUP_COLUMNS, b),
      (rest) => {
        for (const row of rest) {
          const { id: _id, compacted: _compacted, ...cell } = row;
          const key = rollupKey(cell);
          const existing = S.rollups.get(key);
          if (existing) {
            existing.count += cell.count;
            existing.billableCount += cell.billableCount;
            existing.latencySum += cell.latencySum;
            merge(existing.latencyHist, cell.latencyHist);
            existing.requestBytes += cell.requestBytes;
            existing.responseBytes += cell.responseBytes;
            existing.computeMs += cell.computeMs;
            existing.cost += cell.cost;
          } else S.rollups.set(key, cell);
        }
      },
    );
  });
  return S.chain;
}

/** Everything queued, written now (shutdown, tests, benchmarks). */
export async function flushUsage(): Promise<void> {
  await flushEvents({ drain: true });
  await flushRollups();
}

export function queuedCounts() {
  const logs = S.queue.reduce((n, q) => n + (hasLog(q.record) ? 1 : 0), S.logRetry.length);
  return { usage: S.queue.length + S.usageRetry.length, logs, rollupCells: S.rollups.size };
}

/**
 * Replays journaled events of processes that died (usage-journal.ts): inserted unless the database has them
 * (their ids are the request's, so a replay never doubles an event), and counted in the rollups.
 */
async function insertRecovered(raw: Record<string, unknown>[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < raw.length; i += BATCH) {
    const rows = raw.slice(i, i + BATCH).map((r) => ({ ...r, timestamp: new Date(r.timestamp as string) }) as UsageRow);
    const have = new Set(
      (await db.usageEvent.findMany({ where: { id: { in: rows.map((r) => r.id!) } }, select: { id: true } })).map((r) => r.id),
    );
    const missing = rows.filter((r) => !have.has(r.id!));
    await bulkInsert("UsageEvent", USAGE_COLUMNS, missing, { skipExisting: true });
    for (const row of missing) addRollup(row);
    inserted += missing.length;
  }
  if (inserted) {
    S.stats.replayed += inserted;
    console.log(`[usage] replayed ${inserted} usage events from the journal of a stopped process`);
    schedule();
  }
  return inserted;
}

const JOURNAL_SWEEP_MS = Number(process.env.USAGE_JOURNAL_SWEEP_MS ?? 10_000);

/** Started with the server: replays dead processes' journals now, then every JOURNAL_SWEEP_MS (another server
 * on the same database may be the one that died). */
export function startJournalRecovery(): void {
  if (!JOURNAL) return;
  processSingleton("usage-journal-sweep", () => {
    const sweep = () => recoverJournals(insertRecovered).catch((e) => console.error(`[usage] journal sweep: ${(e as Error).message}`));
    void sweep();
    setInterval(sweep, JOURNAL_SWEEP_MS).unref();
    return true;
  });
}

onShutdown(async () => {
  await flushUsage();
  closeJournal();
});
whileDraining(flushUsage);
