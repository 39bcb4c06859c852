import { db } from "@/lib/db/client";
import type { Prisma } from "@/generated/prisma-sqlite";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { onShutdown, whileDraining } from "@/lib/shutdown";
import { processSingleton } from "@/lib/process-state";
import { redactText } from "@/lib/usage/redact";

// The audit log of key changes and refused credentials. Entries are queued and written in batches, off the
// request's path; a graceful stop flushes the queue. Refusals of unknown keys are capped per address and
// minute, so a flood of guesses cannot flood the table.

export interface AuditEntry {
  businessId?: string | null;
  environment?: string | null;
  actorType: "api_key" | "oauth_client" | "user" | "cli" | "system" | "anonymous";
  actorId?: string | null;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  ip?: string | null;
  userAgent?: string | null;
  method?: string | null;
  path?: string | null;
  details?: Record<string, unknown> | null;
}

const FLUSH_MS = 200;
const MAX_BATCH = 500;
const ANONYMOUS_PER_MINUTE = 30;
const S = processSingleton("audit-recorder", () => ({
  queue: [] as Prisma.AuditLogCreateManyInput[],
  timer: null as NodeJS.Timeout | null,
  flushing: Promise.resolve() as Promise<void>,
  anonymousCounts: new Map<string, { minute: number; count: number }>(),
}));

function schedule(): void {
  if (S.timer) return;
  S.timer = setTimeout(() => {
    S.timer = null;
    void flushAudit();
  }, FLUSH_MS);
  S.timer.unref?.();
}

export function flushAudit(): Promise<void> {
  S.flushing = S.flushing.then(async () => {
    while (S.queue.length) {
      const batch = S.queue.splice(0, MAX_BATCH);
      try {
        await db.auditLog.createMany({ data: batch });
      } catch (e) {
        console.error("audit log write failed", e);
      }
    }
  });
  return S.flushing;
}

onShutdown(flushAudit);
whileDraining(flushAudit);

export function recordAudit(entry: AuditEntry): void {
  const t = now();
  if (!entry.businessId) {
    const key = entry.ip ?? "unknown";
    const minute = Math.floor(t.getTime() / 60_000);
    const c = S.anonymousCounts.get(key);
    if (c && c.minute === minute) {
      if (++c.count > ANONYMOUS_PER_MINUTE) return;
    } else {
      if (S.anonymousCounts.size > 10_000) S.anonymousCounts.clear();
      S.anonymousCounts.set(key, { minute, count: 1 });
    }
  }
  S.queue.push({
    id: newId("audit"),
    businessId: entry.businessId ?? null,
    environment: entry.environment ?? null,
    actorType: entry.actorType,
    actorId: entry.actorId ?? null,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    // A client can put a credential anywhere, its User-Agent and path included: redacted as in the request log.
    ip: entry.ip ?? null,
    userAgent: entry.userAgent ? redactText(entry.userAgent).slice(0, 500) : null,
    method: entry.method ?? null,
    path: entry.path ? redactText(entry.path).slice(0, 500) : null,
    details: (entry.details ?? undefined) as Prisma.InputJsonValue | undefined,
    createdAt: t,
  });
  if (S.queue.length >= MAX_BATCH) void flushAudit();
  else schedule();
}
