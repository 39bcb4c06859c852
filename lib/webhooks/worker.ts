import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { Prisma } from "@/generated/prisma-sqlite";
import { emitEvent, onDeliveriesCreated } from "@/lib/events/emit-event";
import { TEST_EVENT_TYPE } from "@/lib/events/event-types";
import { signatureHeaders } from "./signing";
import { postWebhook, type AttemptResult } from "./send";
import { checkUrlTarget } from "./url-safety";
import { processSingleton } from "@/lib/process-state";

// The delivery worker. It claims due deliveries with a lease: one UPDATE that only succeeds on rows nobody
// holds (lockedUntil in the past), so several processes never send one delivery at once, and a crashed
// process's deliveries become due again when its lease ends. Retries follow contract.md: after failed attempt
// n the next is due after 60, 300, 1500, 7200 s (a longer Retry-After from the receiver wins); after the 5th
// the delivery has failed. A 410 disables the endpoint; so do 5 days of nothing but failures. Each claimed delivery
// is sent as soon as a slot is free, without waiting for the others: a receiver that hangs holds one slot for the
// 10 s timeout, never the whole worker.

export const RETRY_DELAYS_S = [60, 300, 1500, 7200];
export const MAX_ATTEMPTS = 5;
const LEASE_MS = 60_000;
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

type Delivery = Awaited<ReturnType<typeof db.webhookDelivery.findMany>>[number];

/** Claims up to BATCH due deliveries for this worker. */
export async function claimDue(at = now(), max = BATCH): Promise<Delivery[]> {
  // One query per status: with `status IN (...)` SQLite sorts every due row to find the first few (a temporary
  // B-tree over the whole backlog on every claim); per status the (status, nextRetry) index yields them in order.
  const due = (status: string) => db.webhookDelivery.findMany({
    where: { status, nextRetry: { lte: at }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: at } }] },
    orderBy: { nextRetry: "asc" }, take: max, select: { id: true, nextRetry: true },
  });
  const candidates = [...await due("pending"), ...await due("retrying")]
    .sort((a, b) => a.nextRetry!.getTime() - b.nextRetry!.getTime()).slice(0, max);
  if (!candidates.length) return [];
  const token = `${workerId}:${randomUUID()}`;
  const ids = candidates.map((c) => c.id);
  await db.webhookDelivery.updateMany({
    where: { id: { in: ids }, status: { in: ["pending", "retrying"] }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: at } }] },
    data: { lockedBy: token, lockedUntil: new Date(at.getTime() + LEASE_MS) },
  });
  // By id (the primary key) and token: lockedBy alone has no index, and scanning the whole outbox on every claim
  // made delivery slower the more deliveries the table held.
  return db.webhookDelivery.findMany({ where: { id: { in: ids }, lockedBy: token } });
}

function attemptEntry(d: Delivery, r: AttemptResult, at: Date) {
  return { attempt: d.attempts + 1, timestamp: at.toISOString(), status: r.status, durationMs: r.durationMs, error: r.error };
}

export function nextDelay(attempts: number, retryAfterSeconds: number | null): number {
  const base = RETRY_DELAYS_S[Math.min(attempts, RETRY_DELAYS_S.length) - 1] ?? RETRY_DELAYS_S[RETRY_DELAYS_S.length - 1];
  return Math.max(base, Math.min(retryAfterSeconds ?? 0, MAX_RETRY_AFTER_S));
}

async function disableEndpoint(webhookId: string, reason: string) {
  await db.$transaction(async (tx) => {
    const w = await tx.webhook.findUnique({ where: { id: webhookId } });
    if (!w || !w.isActive) return;
    await tx.webhook.update({ where: { id: webhookId }, data: { isActive: false, disabledReason: reason, updatedAt: now() } });
    await emitEvent({
      businessId: w.businessId, environment: w.environment, type: "resource.updated",
      data: { object: "webhook", id: w.id, url: w.url, isActive: false, disabledReason: reason }, previousAttributes: { isActive: true },
    }, tx);
  });
}

type WebhookRow = NonNullable<Awaited<ReturnType<typeof db.webhook.findUnique>>>;

/** The endpoints of a claimed batch, in one query rather than one per delivery. */
async function endpointsOf(claimed: Delivery[]): Promise<Map<string, WebhookRow>> {
  const rows = await db.webhook.findMany({ where: { id: { in: [...new Set(claimed.map((d) => d.webhookId))] } } });
  return new Map(rows.map((w) => [w.id, w]));
}

/**
 * Records on a delivery only while this worker's lease on it holds: updateMany with the lease token, so an attempt
 * whose lease ran out (and that another worker may have taken) or whose endpoint was deleted meanwhile changes
 * nothing instead of throwing; it also skips reading the row back.
 */
function record(d: Delivery, data: Prisma.WebhookDeliveryUpdateManyMutationInput) {
  return db.webhookDelivery.updateMany({ where: { id: d.id, lockedBy: d.lockedBy }, data });
}

/** One attempt of one claimed delivery, and its bookkeeping. `endpoint`: its webhook row, when already read. */
export async function deliver(d: Delivery, endpoint?: WebhookRow | null): Promise<void> {
  const webhook = endpoint === undefined ? await db.webhook.findUnique({ where: { id: d.webhookId } }) : endpoint;
  const at = now();
  // A disabled endpoint (by its owner, a 410 or 5 days of failures) gets nothing more but the test events sent
  // to it on purpose; its due deliveries fail, and a manual retry after re-enabling sends them.
  const skipped = !webhook ? "endpoint deleted" : !webhook.isActive && d.eventType !== TEST_EVENT_TYPE ? "endpoint disabled" : null;
  if (!webhook || skipped) {
    await record(d, { status: "failed", lastError: skipped, lockedUntil: null, lockedBy: null, nextRetry: null, updatedAt: at });
    return;
  }
  const secrets = [webhook.secret];
  if (webhook.previousSecret && webhook.previousSecretExpiresAt && webhook.previousSecretExpiresAt > at) secrets.push(webhook.previousSecret);
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
  const log = [...((d.attemptLog as unknown[] | null) ?? []), attemptEntry(d, result, at)];
  const recorded = {
    attempts, lastAttempt: at, responseStatus: result.status, responseHeaders: result.headers as Prisma.InputJsonValue,
    responseBody: result.body.slice(0, 16 * 1024), responseDuration: result.durationMs, lastError: result.error,
    attemptLog: log as Prisma.InputJsonValue, requestHeaders: redactSignature(headers), lockedUntil: null, lockedBy: null, updatedAt: now(),
  };
  if (result.ok) {
    await record(d, { ...recorded, status: "success", nextRetry: null });
    if (webhook.failingSince) await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: null } });
    return;
  }
  const gone = result.status === 410;
  const final = gone || attempts >= MAX_ATTEMPTS;
  await record(d, { ...recorded, status: final ? "failed" : "retrying", nextRetry: final ? null : new Date(at.getTime() + nextDelay(attempts, result.retryAfterSeconds) * 1000) });
  if (gone) return disableEndpoint(webhook.id, "The receiver answered 410 Gone.");
  if (!webhook.failingSince) await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: at } });
  else if (at.getTime() - webhook.failingSince.getTime() >= DISABLE_AFTER_MS) {
    await disableEndpoint(webhook.id, "Every delivery failed for 5 days.");
  }
}

/** Signatures are worth nothing to a reader of the delivery log; the header names stay. */
function redactSignature(headers: Record<string, string>): Prisma.InputJsonValue {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, /signature/i.test(k) ? `${v.slice(0, 16)}…` : v]));
}

const S = processSingleton("webhook-worker", () => ({ claiming: false, again: false, inFlight: 0, timer: null as NodeJS.Timeout | null }));

/**
 * Claims due deliveries while slots are free and starts each at once. A finished delivery wakes this once half the
 * slots are free, so claims come in batches rather than one per delivery; new deliveries and the poll wake it always.
 */
async function fillSlots(): Promise<void> {
  while (S.inFlight < CONCURRENCY) {
    const claimed = await claimDue(now(), Math.min(BATCH, CONCURRENCY - S.inFlight));
    if (!claimed.length) return;
    const endpoints = await endpointsOf(claimed);
    for (const d of claimed) {
      S.inFlight++;
      deliver(d, endpoints.get(d.webhookId) ?? null)
        .catch((e) => console.error(`[webhooks] delivery ${d.id} attempt failed to record`, e))
        .finally(() => { if (--S.inFlight <= CONCURRENCY / 2) wakeWorker(); });
    }
  }
}

/** Looks for due deliveries now (or right after the current look). */
export function wakeWorker(): void {
  if (S.claiming) { S.again = true; return; }
  S.claiming = true;
  void fillSlots()
    .catch((e) => console.error("[webhooks] claiming deliveries failed", e))
    .finally(() => {
      S.claiming = false;
      if (S.again) { S.again = false; wakeWorker(); }
    });
}

export function startWorker(pollMs = POLL_MS): void {
  if (S.timer || process.env.WEBHOOK_WORKER === "false") return;
  onDeliveriesCreated(wakeWorker);
  S.timer = setInterval(wakeWorker, pollMs);
  S.timer.unref();
  wakeWorker();
}
