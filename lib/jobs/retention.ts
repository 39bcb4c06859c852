import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";

const DAY_MS = 86_400_000;

/** Deletes request logs older than each project's retention (default 30 days). Returns how many went. */
export async function purgeExpiredLogs(): Promise<number> {
  const projects = await db.project.findMany({ select: { id: true, retentionDays: true } });
  let deleted = 0;
  for (const p of projects) {
    const cutoff = new Date(now().getTime() - p.retentionDays * DAY_MS);
    const r = await db.requestLog.deleteMany({ where: { projectId: p.id, timestamp: { lt: cutoff } } });
    deleted += r.count;
  }
  return deleted;
}

/** Idempotency keys are kept 24 hours. */
export async function purgeExpiredIdempotencyKeys(): Promise<number> {
  return (await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now() } } })).count;
}
