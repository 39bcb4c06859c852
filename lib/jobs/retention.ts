import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { dropDayPartitionsBefore, ensureDayPartitions } from "@/lib/db/partitions";

const DAY_MS = 86_400_000;

/**
 * Request logs older than each project's retention (default 30 days) go. On PostgreSQL the log is partitioned by day:
 * every day older than the longest retention any project keeps is dropped whole, and a DELETE is left only for what
 * remains past a project's cutoff (the day the cutoff falls in, the default partition's rows, and projects that keep
 * less than the longest). With every project on the default retention, that is a DROP and one day's rows.
 */
export async function purgeExpiredLogs(): Promise<{ deleted: number; droppedPartitions: string[] }> {
  const projects = await db.project.findMany({ select: { id: true, retentionDays: true } });
  const t = now().getTime();
  const longest = projects.length ? Math.max(...projects.map((p) => p.retentionDays)) : 30;
  const droppedPartitions = await dropDayPartitionsBefore("RequestLog", new Date(t - longest * DAY_MS)); // none on SQLite
  // One DELETE per retention in use, not per project.
  const byDays = new Map<number, string[]>();
  for (const p of projects) byDays.set(p.retentionDays, [...(byDays.get(p.retentionDays) ?? []), p.id]);
  let deleted = 0;
  for (const [days, ids] of byDays) {
    const cutoff = new Date(t - days * DAY_MS);
    for (let i = 0; i < ids.length; i += 500) {
      const r = await db.requestLog.deleteMany({ where: { projectId: { in: ids.slice(i, i + 500) }, timestamp: { lt: cutoff } } });
      deleted += r.count;
    }
  }
  return { deleted, droppedPartitions };
}

/** The day partitions of the request log and usage events, made ahead of the clock (lib/db/partitions.ts). Usage
 * events are never dropped: they are what invoices, balances and the ledger are computed from. */
export async function makeDayPartitions(): Promise<{ made: string[] }> {
  return { made: await ensureDayPartitions() };
}

/** Idempotency keys are kept 24 hours. */
export async function purgeExpiredIdempotencyKeys(): Promise<number> {
  return (await db.idempotencyRecord.deleteMany({ where: { expiresAt: { lte: now() } } })).count;
}
