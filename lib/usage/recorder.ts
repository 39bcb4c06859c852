import type { HeaderReader } from "@/lib/http/header-reader";
import { bulkInsert, type Columns } from "@/lib/db/bulk-insert";
import { databaseProvider } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { onShutdown } from "@/lib/shutdown";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";
import { processSingleton } from "@/lib/process-state";
import { addTo, merge, type Histogram } from "./histogram";
import { redactBody, redactHeaders, redactText } from "./redact";

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
}

const EVENT_FLUSH_MS = Number(process.env.USAGE_FLUSH_MS ?? 500);
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

/** The dimensions a rollup row adds up over: cells with the same key merge (here, on a retry and in compaction). */
export function rollupKey(c: {
  projectId: string;
  environment: string;
  hour: Date;
  endpoint: string;
  method: string;
  statusCode: number;
  errorType: string | null;
  apiKey: string;
  principal: string;
  productId: string | null;
}): string {
  return [
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
type LogRow = Prisma.RequestLogCreateManyInput;
/** A queued row before redaction: the request's own values, as recorded. */
type RawUsage = Omit<UsageRow, "path" | "userAgent"> & { raw: true; path: string; userAgent: string | null };
type RawLog = Omit<LogRow, "path" | "userAgent" | "requestHeaders" | "responseHeaders"> & {
  raw: true;
  path: string;
  userAgent: string | null;
  requestHeaders: HeaderReader;
  responseHeaders: Record<string, string>;
};

/** Path and user agent redacted like the headers they come from (a client may send a key in its User-Agent). */
function redactBase<T extends { path: string; userAgent: string | null }>(r: T) {
  return { path: redactText(r.path).slice(0, 2000), userAgent: r.userAgent ? redactText(r.userAgent).slice(0, 500) : null };
}

function toUsageRow(e: RawUsage | UsageRow): UsageRow {
  if (!("raw" in e)) return e;
  const { raw: _raw, ...row } = e;
  return { ...row, ...redactBase(e) };
}

function toLogRow(e: RawLog | LogRow): LogRow {
  if (!("raw" in e)) return e;
  const { raw: _raw, ...row } = e;
  return {
    ...row,
    ...redactBase(e),
    requestHeaders: redactHeaders(e.requestHeaders),
    requestBody: redactBody(e.requestBody ?? null),
    responseHeaders: redactHeaders(Object.entries(e.responseHeaders)),
    responseBody: redactBody(e.responseBody ?? null),
  };
}

const S = processSingleton("usage-recorder", () => ({
  usageQueue: [] as (RawUsage | UsageRow)[],
  logQueue: [] as (RawLog | LogRow)[],
  rollups: new Map<string, RollupCell>(),
  eventTimer: null as NodeJS.Timeout | null,
  rollupTimer: null as NodeJS.Timeout | null,
  chain: Promise.resolve() as Promise<void>,
  /** An event flush queued on the chain and not started yet: one is enough, it writes whatever is queued then. */
  pendingEvents: null as Promise<void> | null,
  stats: { recorded: 0, written: 0, dropped: 0, failedBatches: 0 },
}));
export const recorderStats = S.stats;

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

// Which credential acted: the key, or for an OAuth access token the client (oac_...); the user is then the one
// who authorized it. Rate limits still count per grant (auth.principal).
const actorOf = (r: RequestRecord) => r.auth.oauth?.clientId ?? r.auth.principal.id;
const userOf = (r: RequestRecord) => r.userId ?? r.auth.oauth?.userId ?? null;

function addRollup(r: RequestRecord, billable: boolean): void {
  const hour = hourOf(r.at);
  const principal = userOf(r) ?? r.auth.principal.id;
  const productId = r.product?.productId ?? null;
  const key = rollupKey({
    projectId: r.auth.projectId,
    environment: r.auth.environment,
    hour,
    endpoint: r.endpoint,
    method: r.method,
    statusCode: r.statusCode,
    errorType: r.errorType,
    apiKey: actorOf(r),
    principal,
    productId,
  });
  let cell = S.rollups.get(key);
  if (!cell) {
    cell = {
      productId,
      projectId: r.auth.projectId,
      environment: r.auth.environment,
      hour,
      endpoint: r.endpoint,
      method: r.method,
      statusCode: r.statusCode,
      errorType: r.errorType,
      apiKey: actorOf(r),
      principal,
      count: 0,
      billableCount: 0,
      latencySum: 0,
      latencyHist: {},
      requestBytes: 0,
      responseBytes: 0,
      computeMs: 0,
      cost: 0,
    };
    S.rollups.set(key, cell);
  }
  cell.count++;
  if (billable) cell.billableCount++;
  cell.latencySum += r.latencyMs;
  addTo(cell.latencyHist, r.latencyMs);
  cell.requestBytes += r.requestBytes;
  cell.responseBytes += r.responseBytes;
  cell.computeMs += r.computeMs;
  cell.cost += r.cost ?? 0;
}

function schedule(): void {
  if (!S.eventTimer) {
    S.eventTimer = setTimeout(() => {
      S.eventTimer = null;
      void flushEvents();
    }, EVENT_FLUSH_MS);
    S.eventTimer.unref?.();
  }
  if (!S.rollupTimer) {
    S.rollupTimer = setTimeout(() => {
      S.rollupTimer = null;
      void flushRollups();
    }, ROLLUP_FLUSH_MS);
    S.rollupTimer.unref?.();
  }
}

export function recordRequest(r: RequestRecord): void {
  S.stats.recorded++;
  // Test traffic is never billable; live traffic is when it succeeded.
  const billable = r.auth.environment === "production" && r.statusCode < 400;
  if (S.usageQueue.length >= MAX_QUEUE) {
    S.stats.dropped++;
    return;
  }
  // Only what is cheap happens here; redaction (regular expressions over headers, bodies, path and user agent)
  // waits for the flush, off the request's path (toUsageRow, toLogRow).
  const base = {
    timestamp: r.at,
    businessId: r.auth.businessId,
    projectId: r.auth.projectId,
    environment: r.auth.environment,
    apiKey: actorOf(r),
    method: r.method,
    endpoint: r.endpoint,
    path: r.path,
    statusCode: r.statusCode,
    latency: Math.round(r.latencyMs * 100) / 100,
    ip: r.ip,
    userAgent: r.userAgent,
  };
  S.usageQueue.push({
    raw: true,
    ...base,
    id: newId("usage"),
    userId: userOf(r),
    errorType: r.errorType,
    requestSize: r.requestBytes,
    responseSize: r.responseBytes,
    computeTime: Math.round(r.computeMs * 100) / 100,
    cost: r.cost ?? null,
    billable,
    region: process.env.REGION ?? null,
    productId: r.product?.productId ?? null,
    subscriptionId: r.product?.subscriptionId ?? null,
    providerId: r.product?.providerId ?? null,
    quantity: r.product?.quantity ?? 1,
    identifier: null,
  });
  S.logQueue.push({
    raw: true,
    ...base,
    id: r.requestId,
    requestHeaders: r.requestHeaders,
    requestBody: r.requestBody,
    responseHeaders: r.responseHeaders,
    responseBody: r.responseBody,
    productId: r.product?.productId ?? null,
  });
  addRollup(r, billable);
  if (S.usageQueue.length >= BATCH) void flushEvents();
  else schedule();
}

/**
 * A product call counted without a request of its own in the consumer's project (a provider verifying the
 * consumer's key): a usage event and its rollup, no request log (the consumer sent no request here).
 */
export function recordProductUsage(
  r: Omit<RequestRecord, "requestHeaders" | "requestBody" | "responseHeaders" | "responseBody" | "requestId">,
): void {
  S.stats.recorded++;
  const billable = r.auth.environment === "production" && r.statusCode < 400;
  if (S.usageQueue.length >= MAX_QUEUE) {
    S.stats.dropped++;
    return;
  }
  S.usageQueue.push({
    raw: true,
    id: newId("usage"),
    timestamp: r.at,
    businessId: r.auth.businessId,
    projectId: r.auth.projectId,
    environment: r.auth.environment,
    apiKey: r.auth.principal.id,
    userId: null,
    method: r.method,
    endpoint: r.endpoint,
    path: r.path,
    statusCode: r.statusCode,
    errorType: r.errorType,
    latency: Math.round(r.latencyMs * 100) / 100,
    requestSize: r.requestBytes,
    responseSize: r.responseBytes,
    computeTime: Math.round(r.computeMs * 100) / 100,
    cost: r.cost ?? null,
    billable,
    ip: r.ip,
    userAgent: r.userAgent,
    region: process.env.REGION ?? null,
    productId: r.product?.productId ?? null,
    subscriptionId: r.product?.subscriptionId ?? null,
    providerId: r.product?.providerId ?? null,
    quantity: r.product?.quantity ?? 1,
    identifier: null,
  });
  addRollup({ ...r, requestId: "", requestHeaders: EMPTY_HEADERS, requestBody: null, responseHeaders: {}, responseBody: null }, billable);
  if (S.usageQueue.length >= BATCH) void flushEvents();
  else schedule();
}

/** A meter event written at once (its identifier must be unique now, not at the next flush): its rollup only. */
export function recordMeterRollup(r: Parameters<typeof recordProductUsage>[0]): void {
  addRollup(
    { ...r, requestId: "", requestHeaders: EMPTY_HEADERS, requestBody: null, responseHeaders: {}, responseBody: null },
    r.auth.environment === "production" && r.statusCode < 400,
  );
  schedule();
}

const EMPTY_HEADERS: HeaderReader = new Headers();

/** Writes rows in batches; on the first failure puts the rest back for a later retry and answers false. */
async function writeBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>, requeue: (batch: T[]) => void): Promise<boolean> {
  for (let i = 0; i < rows.length; i += WRITE_BATCH) {
    const batch = rows.slice(i, i + WRITE_BATCH);
    try {
      await write(batch);
      S.stats.written += batch.length;
    } catch (e) {
      S.stats.failedBatches++;
      console.error(`[usage] batch of ${batch.length} not written, will retry: ${(e as Error).message}`);
      requeue(rows.slice(i));
      schedule();
      return false;
    }
  }
  return true;
}

export function flushEvents(): Promise<void> {
  if (S.pendingEvents) return S.pendingEvents;
  S.pendingEvents = S.chain = S.chain.then(async () => {
    S.pendingEvents = null;
    while (S.usageQueue.length || S.logQueue.length) {
      const usage = S.usageQueue.map(toUsageRow);
      S.usageQueue = [];
      const logs = S.logQueue.map(toLogRow);
      S.logQueue = [];
      // Both tables at once: on PostgreSQL that is two connections working side by side.
      const [usageOk, logsOk] = await Promise.all([
        writeBatches(
          usage,
          (b) => bulkInsert("UsageEvent", USAGE_COLUMNS, b),
          (rest) => {
            S.usageQueue = [...rest, ...S.usageQueue];
          },
        ),
        writeBatches(
          logs,
          (b) => bulkInsert("RequestLog", LOG_COLUMNS, b),
          (rest) => {
            S.logQueue = [...rest, ...S.logQueue];
          },
        ),
      ]);
      if (!usageOk || !logsOk) break; // the database refused: the timer tries again later
    }
  });
  return S.chain;
}

export function flushRollups(): Promise<void> {
  S.chain = S.chain.then(async () => {
    if (!S.rollups.size) return;
    const cells = [...S.rollups.values()];
    S.rollups = new Map();
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
  await flushEvents();
  await flushRollups();
}

export function queuedCounts() {
  return { usage: S.usageQueue.length, logs: S.logQueue.length, rollupCells: S.rollups.size };
}

onShutdown(flushUsage);
