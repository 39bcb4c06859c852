import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { Prisma } from "@/generated/prisma-sqlite";
import { emitEvent, onDeliveriesCreated } from "@/lib/events/emit-event";
import { signatureHeaders } from "./signing";
import { postWebhook, type AttemptResult } from "./send";
import { checkUrlTarget } from "./url-safety";
import { processSingleton } from "@/lib/process-state";

// The delivery worker. It claims due deliveries with a lease: one UPDATE that only succeeds on rows nobody
// holds (lockedUntil in the past), so several processes never send one delivery at once, and a crashed
// process's deliveries become due again when its lease ends. Retries follow contract.md: after failed attempt
// n the next is due after 60, 300, 1500, 7200 s (a longer Retry-After from the receiver wins); after the 5th
// the delivery has failed. A 410 disables the endpoint; so do 5 days of nothing but failures.

export const RETRY_DELAYS_S = [60, 300, 1500, 7200];
export const MAX_ATTEMPTS = 5;
const LEASE_MS = 60_000;
const DISABLE_AFTER_MS = 5 * 86_400_000;
const BATCH = Number(process.env.WEBHOOK_BATCH ?? 50);
const CONCURRENCY = Number(process.env.WEBHOOK_CONCURRENCY ?? 16);
const POLL_MS = Number(process.env.WEBHOOK_POLL_MS ?? 1000);
const workerId = randomUUID();

type Delivery = Awaited<ReturnType<typeof db.webhookDelivery.findMany>>[number];

/** Claims up to BATCH due deliveries for this worker. */
export async function claimDue(at = now()): Promise<Delivery[]> {
  const candidates = await db.webhookDelivery.findMany({
    where: { status: { in: ["pending", "retrying"] }, nextRetry: { lte: at }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: at } }] },
    orderBy: { nextRetry: "asc" }, take: BATCH, select: { id: true },
  });
  if (!candidates.length) return [];
  const token = `${workerId}:${randomUUID()}`;
  await db.webhookDelivery.updateMany({
    where: { id: { in: candidates.map((c) => c.id) }, status: { in: ["pending", "retrying"] }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: at } }] },
    data: { lockedBy: token, lockedUntil: new Date(at.getTime() + LEASE_MS) },
  });
  return db.webhookDelivery.findMany({ where: { lockedBy: token } });
}

function attemptEntry(d: Delivery, r: AttemptResult, at: Date) {
  return { attempt: d.attempts + 1, timestamp: at.toISOString(), status: r.status, durationMs: r.durationMs, error: r.error };
}

export function nextDelay(attempts: number, retryAfterSeconds: number | null): number {
  const base = RETRY_DELAYS_S[Math.min(attempts, RETRY_DELAYS_S.length) - 1] ?? RETRY_DELAYS_S[RETRY_DELAYS_S.length - 1];
  return Math.max(base, retryAfterSeconds ?? 0);
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

/** One attempt of one claimed delivery, and its bookkeeping. */
export async function deliver(d: Delivery): Promise<void> {
  const webhook = await db.webhook.findUnique({ where: { id: d.webhookId } });
  const at = now();
  if (!webhook) {
    await db.webhookDelivery.update({ where: { id: d.id }, data: { status: "failed", lastError: "endpoint deleted", lockedUntil: null, lockedBy: null, nextRetry: null } });
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
    await db.webhookDelivery.update({ where: { id: d.id }, data: { ...recorded, status: "success", nextRetry: null } });
    if (webhook.failingSince) await db.webhook.update({ where: { id: webhook.id }, data: { failingSince: null } });
    return;
  }
  const gone = result.status === 410;
  const final = gone || attempts >= MAX_ATTEMPTS;
  await db.webhookDelivery.update({
    where: { id: d.id },
    data: { ...recorded, status: final ? "failed" : "retrying", nextRetry: final ? null : new Date(at.getTime() + nextDelay(attempts, result.retryAfterSeconds) * 1000) },
  });
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

/** Claims and sends until nothing is due; returns how many attempts were made. */
export async function runDueDeliveries(): Promise<number> {
  let total = 0;
  for (;;) {
    const claimed = await claimDue();
    if (!claimed.length) return total;
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, async () => {
      while (next < claimed.length) {
        const d = claimed[next++];
        try {
          await deliver(d);
        } catch (e) {
          console.error(`[webhooks] delivery ${d.id} attempt failed to record`, e);
        }
      }
    }));
    total += claimed.length;
  }
}

const S = processSingleton("webhook-worker", () => ({ running: false, again: false, timer: null as NodeJS.Timeout | null }));

/** Starts a pass now (or right after the current one). */
export function wakeWorker(): void {
  if (S.running) { S.again = true; return; }
  S.running = true;
  void runDueDeliveries()
    .catch((e) => console.error("[webhooks] worker pass failed", e))
    .finally(() => {
      S.running = false;
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
