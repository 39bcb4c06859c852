import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { onShutdown } from "@/lib/shutdown";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/auth/auth-context";
import { addTo, merge, type Histogram } from "./histogram";
import { redactBody, redactHeaders, redactText } from "./redact";
import { processSingleton } from "@/lib/process-state";

// Usage events, request logs and hourly rollups, recorded off the request's path: a request only appends to
// in-memory queues; a timer writes them with createMany in batches. A graceful stop flushes everything
// (lib/shutdown.ts). If the database refuses a batch, it stays queued and is retried; the queue is bounded,
// and what overflows is counted and reported rather than growing memory without end.

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
  requestHeaders: Headers;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  userId?: string | null;
  /** The request's cost in the major unit (lib/billing/rate-request.ts), or null when it is not rated. */
  cost?: number | null;
}

const EVENT_FLUSH_MS = Number(process.env.USAGE_FLUSH_MS ?? 500);
const ROLLUP_FLUSH_MS = Number(process.env.ROLLUP_FLUSH_MS ?? 5000);
const BATCH = 500;
const MAX_QUEUE = 200_000;

interface RollupCell {
  projectId: string; environment: string; hour: Date; endpoint: string; method: string; statusCode: number;
  errorType: string | null; apiKey: string; principal: string;
  count: number; billableCount: number; latencySum: number; latencyHist: Histogram;
  requestBytes: number; responseBytes: number; computeMs: number; cost: number;
}

const S = processSingleton("usage-recorder", () => ({
  usageQueue: [] as Prisma.UsageEventCreateManyInput[],
  logQueue: [] as Prisma.RequestLogCreateManyInput[],
  rollups: new Map<string, RollupCell>(),
  eventTimer: null as NodeJS.Timeout | null,
  rollupTimer: null as NodeJS.Timeout | null,
  chain: Promise.resolve() as Promise<void>,
  stats: { recorded: 0, written: 0, dropped: 0, failedBatches: 0 },
}));
export const recorderStats = S.stats;

export function hourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
}

function addRollup(r: RequestRecord, billable: boolean): void {
  const hour = hourOf(r.at);
  const principal = r.userId ?? r.auth.keyId;
  const key = [r.auth.projectId, r.auth.environment, hour.getTime(), r.endpoint, r.method, r.statusCode, r.errorType ?? "", r.auth.keyId, principal].join("|");
  let cell = S.rollups.get(key);
  if (!cell) {
    cell = {
      projectId: r.auth.projectId, environment: r.auth.environment, hour, endpoint: r.endpoint, method: r.method,
      statusCode: r.statusCode, errorType: r.errorType, apiKey: r.auth.keyId, principal,
      count: 0, billableCount: 0, latencySum: 0, latencyHist: {}, requestBytes: 0, responseBytes: 0, computeMs: 0, cost: 0,
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
    S.eventTimer = setTimeout(() => { S.eventTimer = null; void flushEvents(); }, EVENT_FLUSH_MS);
    S.eventTimer.unref?.();
  }
  if (!S.rollupTimer) {
    S.rollupTimer = setTimeout(() => { S.rollupTimer = null; void flushRollups(); }, ROLLUP_FLUSH_MS);
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
  const base = {
    timestamp: r.at, businessId: r.auth.businessId, projectId: r.auth.projectId, environment: r.auth.environment,
    apiKey: r.auth.keyId, method: r.method, endpoint: r.endpoint, path: redactText(r.path).slice(0, 2000),
    statusCode: r.statusCode, latency: Math.round(r.latencyMs * 100) / 100, ip: r.ip, userAgent: r.userAgent?.slice(0, 500) ?? null,
  };
  S.usageQueue.push({
    ...base, id: newId("usage"), userId: r.userId ?? null, errorType: r.errorType, requestSize: r.requestBytes, responseSize: r.responseBytes,
    computeTime: Math.round(r.computeMs * 100) / 100, cost: r.cost ?? null, billable, region: process.env.REGION ?? null,
  });
  S.logQueue.push({
    ...base, id: r.requestId, requestHeaders: redactHeaders(r.requestHeaders), requestBody: redactBody(r.requestBody),
    responseHeaders: redactHeaders(Object.entries(r.responseHeaders)), responseBody: redactBody(r.responseBody),
  });
  addRollup(r, billable);
  if (S.usageQueue.length >= BATCH) void flushEvents();
  else schedule();
}

/** Writes rows in batches; on the first failure puts the rest back for a later retry and answers false. */
async function writeBatches<T>(rows: T[], write: (batch: T[]) => Promise<unknown>, requeue: (batch: T[]) => void): Promise<boolean> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = rows.slice(i, i + BATCH);
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
  S.chain = S.chain.then(async () => {
    while (S.usageQueue.length || S.logQueue.length) {
      const usage = S.usageQueue; S.usageQueue = [];
      const logs = S.logQueue; S.logQueue = [];
      const usageOk = await writeBatches(usage, (b) => db.usageEvent.createMany({ data: b }), (rest) => { S.usageQueue = rest.concat(S.usageQueue); });
      const logsOk = await writeBatches(logs, (b) => db.requestLog.createMany({ data: b }), (rest) => { S.logQueue = rest.concat(S.logQueue); });
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
    const rows = cells.map((c) => ({ ...c, id: newId("rollup"), latencyHist: c.latencyHist as Prisma.InputJsonValue }));
    await writeBatches(rows, (b) => db.usageRollup.createMany({ data: b }), (rest) => {
      for (const row of rest) {
        const { id: _id, ...cell } = row;
        const key = [cell.projectId, cell.environment, cell.hour.getTime(), cell.endpoint, cell.method, cell.statusCode, cell.errorType ?? "", cell.apiKey, cell.principal].join("|");
        const existing = S.rollups.get(key);
        if (existing) {
          existing.count += cell.count; existing.billableCount += cell.billableCount; existing.latencySum += cell.latencySum;
          merge(existing.latencyHist, cell.latencyHist as Histogram); existing.requestBytes += cell.requestBytes;
          existing.responseBytes += cell.responseBytes; existing.computeMs += cell.computeMs; existing.cost += cell.cost;
        } else S.rollups.set(key, { ...cell, latencyHist: cell.latencyHist as Histogram });
      }
    });
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
