import { randomUUID } from "node:crypto";
import type { Prisma } from "@/generated/prisma-sqlite";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { NativeDate } from "@/lib/native-date";
import { emitEvent, onDeliveriesCreated, withEvents } from "@/lib/events/emit-event";
import { TEST_EVENT_TYPE } from "@/lib/events/event-types";
import { processSingleton } from "@/lib/process-state";
import { onShutdown } from "@/lib/shutdown";
import { signatureHeaders } from "./signing";
import { postWebhook, type AttemptResult } from "./send";
import { checkUrlTarget } from "./url-safety";
import {
  anyDue,
  claimBatch,
  readEndpoints,
  recordAttempts,
  type AttemptRecord,
  type ClaimedDelivery,
  type EndpointRow,
} from "./delivery-store";

// The delivery worker. It claims a batch of due deliveries with a lease: one UPDATE … RETURNING that only takes
// rows nobody holds (lockedUntil in the past; on PostgreSQL FOR UPDATE SKIP LOCKED), so several processes never
// send one delivery at once, and a crashed process's deliveries become due again when its lease ends. Results are
// recorded in batches, each row only while its lease token still holds (delivery-store.ts). Retries follow contract.md: after failed attempt
// n the next is due after 60, 300, 1500, 7200 s (a longer Retry-After from the receiver wins); after the 5th
// the delivery has failed. A 410 disables the endpoint; so do 5 days of nothing but failures. Each claimed delivery
// is sent as soon as a slot is free, without waiting for the others: a receiver that hangs holds one slot for the
// 10 s timeout, never the whole worker.

export const RETRY_DELAYS_S = [60, 300, 1500, 7200];
export const MAX_ATTEMPTS = 5;
// How long a claimed delivery is held before another worker may send it again (after a crash, or a database that
// went away before the attempt was recorded). WEBHOOK_LEASE_MS: tests shorten it.
const LEASE_MS = Number(process.env.WEBHOOK_LEASE_MS ?? 60_000);
const DISABLE_AFTER_MS = 5 * 86_400_000;
// A receiver's Retry-After may lengthen a wait up to a day; a larger value (or 10^20) must not push nextRetry
// beyond what a Date can hold, which would make the attempt impossible to record and repeat it forever.
const MAX_RETRY_AFTER_S = 86_400;
const BATCH = Number(process.env.WEBHOOK_BATCH ?? 50);
// Attempts in flight per process. Each costs a socket and little CPU while it waits; 32 rather than 16 halves how
// often a busy worker claims (it refills at half), ~9% less CPU per delivery in scripts/bench-webhooks.mjs terms.
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 32);
const POLL_MS = Number(process.env.WEBHOOK_POLL_MS ?? 1000);
const workerId = randomUUID();

/** Claims up to BATCH due deliveries for this worker: one statement (see delivery-store.ts). */
export function claimDue(at = now(), max = BATCH): Promise<ClaimedDelivery[]> {
  // Due in business time (the test clock's), leased in real time (every node's clock agrees on it).
  const real = NativeDate.now();
  return claimBatch(at, max, `${workerId}:${randomUUID()}`, new NativeDate(real + LEASE_MS), new NativeDate(real));
}

// Each attempt keeps what the receiver answered (headers, and the body up to 2 KB: the latest attempt's is kept
// whole, up to 16 KB, in the row's own response columns), so the attempt history shows why each one failed.
const ATTEMPT_BODY_MAX = 2048;

function attemptEntry(d: ClaimedDelivery, r: AttemptResult, at: Date) {
  return {
    attempt: d.attempts + 1,
    timestamp: at.toISOString(),
    status: r.status,
    durationMs: r.durationMs,
    error: r.error,
    responseHeaders: r.headers,
    responseBody: r.body.slice(0, ATTEMPT_BODY_MAX),
  };
}

export function nextDelay(attempts: number, retryAfterSeconds: number | null): number {
  const base = RETRY_DELAYS_S[Math.min(attempts, RETRY_DELAYS_S.length) - 1] ?? RETRY_DELAYS_S[RETRY_DELAYS_S.length - 1];
  return Math.max(base, Math.min(retryAfterSeconds ?? 0, MAX_RETRY_AFTER_S));
}

/** Disables the endpoint (when still active) and says so in a resource.updated event, inside `tx`. */
async function disableEndpoint(tx: Prisma.TransactionClient, webhookId: string, reason: string) {
  const w = await tx.webhook.findUnique({ where: { id: webhookId } });
  if (!w || !w.isActive) return;
  await tx.webhook.update({ where: { id: webhookId }, data: { isActive: false, disabledReason: reason, updatedAt: now() } });
  await emitEvent(
    {
      businessId: w.businessId,
      environment: w.environment,
      type: "resource.updated",
      data: { object: "webhook", id: w.id, url: w.url, isActive: false, disabledReason: reason },
      previousAttributes: { isActive: true },
    },
    tx,
  );
}

/** Why this attempt disables its endpoint: a 410, or failures only for 5 days; null when it does not. */
function disablingReason(webhook: WebhookRow, result: AttemptResult, at: Date): string | null {
  if (result.status === 410) return "The receiver answered 410 Gone.";
  if (!result.ok && webhook.failingSince && at.getTime() - webhook.failingSince.getTime() >= DISABLE_AFTER_MS)
    return "Every delivery failed for 5 days.";
  return null;
}

type WebhookRow = EndpointRow;

/** The endpoints of a claimed batch, in one query rather than one per delivery. */
function endpointsOf(claimed: ClaimedDelivery[]): Promise<Map<string, WebhookRow>> {
  return readEndpoints([...new Set(claimed.map((d) => d.webhookId))]);
}

// Finished attempts wait here up to FLUSH_MS (or until FLUSH_MAX of them) and are recorded with one statement.
// Until its record is written a delivery keeps its lease, so no worker sends it again meanwhile; a crash before
// the write sends it again once the lease ends (at least once, as with any crash between sending and recording).
const FLUSH_MS = Number(process.env.WEBHOOK_FLUSH_MS ?? 20);
const FLUSH_MAX = 64;
const R = processSingleton("webhook-recorder", () => ({
  queue: [] as { rec: AttemptRecord; resolve: (written: boolean) => void; reject: (e: unknown) => void }[],
  timer: null as NodeJS.Timeout | null,
  flushing: false,
}));

function queueRecord(rec: AttemptRecord): Promise<boolean> {
  return new Promise((resolve, reject) => {
    R.queue.push({ rec, resolve, reject });
    if (R.queue.length >= FLUSH_MAX) void flushRecords();
    else R.timer ??= setTimeout(() => void flushRecords(), FLUSH_MS);
  });
}

async function flushRecords(): Promise<void> {
  if (R.timer) {
    clearTimeout(R.timer);
    R.timer = null;
  }
  if (R.flushing || !R.queue.length) return;
  R.flushing = true;
  const batch = R.queue.splice(0, FLUSH_MAX);
  try {
    const written = await recordAttempts(batch.map((b) => b.rec));
    for (const b of batch) b.resolve(written.has(b.rec.id));
  } catch (e) {
    for (const b of batch) b.reject(e);
  } finally {
    R.flushing = false;
    if (R.queue.length) R.timer ??= setTimeout(() => void flushRecords(), R.queue.length >= FLUSH_MAX ? 0 : FLUSH_MS);
  }
}

/** One attempt of one claimed delivery, and its bookkeeping. `endpoint`: its webhook row, when already read. */
export async function deliver(d: ClaimedDelivery, endpoint?: WebhookRow | null): Promise<void> {
  const webhook = endpoint === undefined ? await db.webhook.findUnique({ where: { id: d.webhookId } }) : endpoint;
  const at = now();
  // A disabled endpoint (by its owner, a 410 or 5 days of failures) gets nothing more but the test events sent
  // to it on purpose; its due deliveries fail, and a manual retry after re-enabling sends them.
  const skipped = !webhook ? "endpoint deleted" : !webhook.isActive && d.eventType !== TEST_EVENT_TYPE ? "endpoint disabled" : null;
  if (!webhook || skipped) {
    // Rare: an updateMany with the lease token of its own (it leaves the last attempt's response as it was).
    await db.webhookDelivery.updateMany({
      where: { id: d.id, lockedBy: d.lockedBy },
      data: { status: "failed", lastError: skipped, lockedUntil: null, lockedBy: null, nextRetry: null, updatedAt: at },
    });
    return;
  }
  const secrets = [webhook.secret];
  if (webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > at)
    secrets.push(webhook.previousSecret);
  const headers: Record<string, string> = {
    ...((webhook.headers as Record<string, string> | null) ?? {}),
    "Content-Type": "application/json",
    "User-Agent": "DeveloperPlatform-Webhooks/1.0",
    "X-Webhook-ID": webhook.id,
    "X-Event-ID": d.eventId,
    "X-Event-Type": d.eventType,
    "X-Delivery-ID": d.id,
    ...signatureHeaders(secrets, d.id, at.getTime(), d.requestBody),
  };
  const unsafe = await checkUrlTarget(webhook.url);
  const result: AttemptResult = unsafe
    ? { ok: false, status: null, headers: {}, body: "", durationMs: 0, error: unsafe.message, retryAfterSeconds: null }
    : await postWebhook(webhook.url, headers, d.requestBody);
  const attempts = d.attempts + 1;
  const final = result.ok || result.status === 410 || attempts >= MAX_ATTEMPTS;
  const record: AttemptRecord = {
    id: d.id,
    lockedBy: d.lockedBy,
    attempts,
    lastAttempt: at,
    status: result.ok ? "success" : final ? "failed" : "retrying",
    nextRetry: final ? null : new Date(at.getTime() + nextDelay(attempts, result.retryAfterSeconds) * 1000),
    responseStatus: result.status,
    responseHeaders: result.headers,
    responseBody: result.body.slice(0, 16 * 1024),
    responseDuration: result.durationMs,
    lastError: result.error,
    attemptLog: [...(d.attemptLog ?? []), attemptEntry(d, result, at)],
    requestHeaders: redactSignature(headers),
    updatedAt: now(),
  };
  const disabling = disablingReason(webhook, result, at);
  if (disabling) {
    // The attempt that disables its endpoint is recorded in the transaction that disables it: whoever reads the
    // delivery failed then reads the endpoint disabled too (a batched record committed a moment before the
    // endpoint's update, and a reader between the two saw a failed delivery of a still active endpoint).
    await withEvents(async (tx) => {
      await recordAttempts([record], tx);
      await disableEndpoint(tx, webhook.id, disabling);
    });
    return;
  }
  await queueRecord(record);
  if (result.ok) {
    if (webhook.failingSince) await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: null } });
    return;
  }
  if (!webhook.failingSince) await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: at } });
}

/** Signatures are worth nothing to a reader of the delivery log; the header names stay. */
function redactSignature(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, /signature/i.test(k) ? `${v.slice(0, 16)}…` : v]));
}

const S = processSingleton("webhook-worker", () => ({
  claiming: false,
  again: false,
  inFlight: 0,
  timer: null as NodeJS.Timeout | null,
  stopping: false,
}));

/**
 * Claims due deliveries while slots are free and starts each at once. A finished delivery wakes this once half the
 * slots are free, so claims come in batches rather than one per delivery; new deliveries and the poll wake it always.
 */
async function fillSlots(): Promise<void> {
  if (S.inFlight >= CONCURRENCY || !(await anyDue(now()))) return;
  while (S.inFlight < CONCURRENCY) {
    const claimed = await claimDue(now(), Math.min(BATCH, CONCURRENCY - S.inFlight));
    if (!claimed.length) return;
    const endpoints = await endpointsOf(claimed);
    for (const d of claimed) {
      S.inFlight++;
      deliver(d, endpoints.get(d.webhookId) ?? null)
        .catch((e) => console.error(`[webhooks] delivery ${d.id} attempt failed to record`, e))
        .finally(() => {
          if (--S.inFlight <= CONCURRENCY / 2) wakeWorker();
        });
    }
  }
}

/** Looks for due deliveries now (or right after the current look). */
export function wakeWorker(): void {
  if (S.stopping) return;
  if (S.claiming) {
    S.again = true;
    return;
  }
  S.claiming = true;
  void fillSlots()
    .catch((e) => console.error("[webhooks] claiming deliveries failed", e))
    .finally(() => {
      S.claiming = false;
      if (S.again) {
        S.again = false;
        wakeWorker();
      }
    });
}

/**
 * On SIGTERM (lib/shutdown.ts): claim nothing more, let the attempts in flight finish (they answer within the
 * 10 s attempt timeout; the server waits at most 10 s in all, so 8 here) and write every queued record, so that a
 * graceful restart sends nothing twice. What is cut off is sent again after its lease, as after a crash.
 */
async function stopWorker(): Promise<void> {
  S.stopping = true;
  if (S.timer) {
    clearInterval(S.timer);
    S.timer = null;
  }
  const deadline = Date.now() + 8_000;
  while ((S.inFlight > 0 || R.queue.length || R.flushing) && Date.now() < deadline) {
    if (R.queue.length && !R.flushing) await flushRecords();
    else await new Promise((r) => setTimeout(r, 10));
  }
}
onShutdown(stopWorker);

export function startWorker(pollMs = POLL_MS): void {
  if (S.timer || process.env.WEBHOOK_WORKER === "false") return;
  onDeliveriesCreated(wakeWorker);
  S.timer = setInterval(wakeWorker, pollMs);
  S.timer.unref();
  wakeWorker();
}
