import type { ApiKey as ApiKeyRow } from "@/generated/prisma-sqlite";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { withEvents } from "@/lib/events/emit-event";
import { recordAudit } from "@/lib/audit/record-audit";
import { keyEvent } from "./key-events";
import { DAY_MS, DEFAULT_ROTATION_GRACE_DAYS, rotateKeyRow, rotationOf } from "./rotate-api-key";

// The scheduled side of key rotation (lib/jobs/scheduler.ts). A key is due on its expiry or, with
// rotation.maxAge, that many days after its creation, whichever comes first.
//  - Expiry notices: an `api_key.expiring` event when the due date is notificationDays away (default 7 and 1),
//    once per threshold and due date (a new expiry starts afresh). A run that finds several thresholds passed
//    at once sends one notice, for the nearest.
//  - Automatic strategy: gracePeriod days before the due date the job rotates the key; both keys work until
//    then, and the new value is sealed until POST /v1/api-keys/{id}/reveal shows it once.

export const DEFAULT_NOTIFICATION_DAYS = [7, 1];
const PAGE = 500;

interface Notices {
  dueAt: string;
  days: number[];
}

export function dueDate(row: Pick<ApiKeyRow, "expiresAt" | "createdAt" | "rotation">): { at: Date; reason: "expiresAt" | "maxAge" } | null {
  const maxAge = rotationOf(row).maxAge;
  const byAge = maxAge ? new Date(row.createdAt.getTime() + maxAge * DAY_MS) : null;
  if (row.expiresAt && (!byAge || row.expiresAt <= byAge)) return { at: row.expiresAt, reason: "expiresAt" };
  return byAge ? { at: byAge, reason: "maxAge" } : null;
}

/** The thresholds (days before the due date) passed at `at` and not yet noticed. */
export function noticesDue(row: Pick<ApiKeyRow, "expiresAt" | "createdAt" | "rotation" | "rotationNotices">, at: Date) {
  const due = dueDate(row);
  if (!due || due.at <= at) return null;
  const thresholds = rotationOf(row).notificationDays ?? DEFAULT_NOTIFICATION_DAYS;
  const passed = thresholds.filter((d) => at.getTime() >= due.at.getTime() - d * DAY_MS);
  const previous = row.rotationNotices as unknown as Notices | null;
  const sent = previous?.dueAt === due.at.toISOString() ? previous.days : [];
  const fresh = passed.filter((d) => !sent.includes(d));
  if (!fresh.length) return null;
  return {
    due,
    threshold: Math.min(...passed),
    record: { dueAt: due.at.toISOString(), days: [...new Set([...sent, ...passed])].sort((a, b) => b - a) },
  };
}

async function notify(row: ApiKeyRow, at: Date): Promise<boolean> {
  const due = noticesDue(row, at);
  if (!due) return false;
  return withEvents(async (tx) => {
    // Guarded by updatedAt: of two processes running the job at once, one sends the notice.
    const claimed = await tx.apiKey.updateMany({
      where: { id: row.id, updatedAt: row.updatedAt },
      data: { rotationNotices: due.record, updatedAt: at },
    });
    if (claimed.count === 0) return false;
    await keyEvent(tx, row, "api_key.expiring", {
      dueAt: due.due.at.toISOString(),
      dueBecause: due.due.reason,
      daysRemaining: Math.ceil((due.due.at.getTime() - at.getTime()) / DAY_MS),
      noticeDays: due.threshold,
      rotationStrategy: rotationOf(row).strategy ?? "manual",
    });
    return true;
  });
}

async function rotateIfDue(row: ApiKeyRow, at: Date): Promise<boolean> {
  const settings = rotationOf(row);
  const due = dueDate(row);
  if (settings.strategy !== "automatic" || !due || row.rotatedAt || due.at <= at) return false;
  const graceDays = settings.gracePeriod ?? DEFAULT_ROTATION_GRACE_DAYS;
  if (at.getTime() < due.at.getTime() - graceDays * DAY_MS) return false;
  // The old key keeps working until it was due (the grace period ends then, never later).
  const rotated = await rotateKeyRow(row, {
    graceDays: Math.max(0, (due.at.getTime() - at.getTime()) / DAY_MS),
    createdBy: null,
    automatic: true,
  });
  if (!rotated) return false;
  recordAudit({
    businessId: row.businessId,
    environment: row.environment,
    actorType: "system",
    actorId: null,
    action: "api_key.rotated",
    targetType: "api_key",
    targetId: row.id,
    details: { newKeyId: rotated.row.id, oldKeyExpiresAt: rotated.rotatedFrom.expiresAt, automatic: true },
  });
  return true;
}

/** One pass over the active keys that have a due date. Returns what it did. */
export async function processKeyRotations(at = now()): Promise<{ notices: number; rotated: number }> {
  let notices = 0,
    rotated = 0,
    cursor: string | undefined;
  for (;;) {
    const rows = await db.apiKey.findMany({
      where: { revokedAt: null, rotatedAt: null, OR: [{ expiresAt: { gt: at } }, { expiresAt: null }] },
      orderBy: { id: "asc" },
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    });
    for (const row of rows) {
      if (!dueDate(row)) continue;
      // Rotation first: a key rotated now needs no notice of its old due date.
      if (await rotateIfDue(row, at)) rotated++;
      else if (await notify(row, at)) notices++;
    }
    if (rows.length < PAGE) break;
    cursor = rows[rows.length - 1].id;
  }
  return { notices, rotated };
}
