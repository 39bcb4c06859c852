import { db } from "@/lib/db/client";
import { NativeDate } from "@/lib/native-date";
import { nodeId } from "./node-identity";

// Leases for the periodic jobs (issue 61): on several nodes sharing one database, a job that closes periods or charges
// cards runs in one process at a time. A lease is a row (JobLease), taken by a conditional UPDATE that only succeeds
// when the row has lapsed or is already ours, so two nodes racing for it serialise on the row and one wins, on SQLite
// and PostgreSQL alike. A row rather than PostgreSQL's advisory locks: an advisory lock belongs to a session, and behind
// pgbouncer in transaction pooling a session is not ours to keep. The holder renews while it works; if it dies, the
// lease lapses and another node takes it within JOB_LEASE_MS. Times are the machines' real clocks (never the test
// clock, which moves business time): their skew must stay well under JOB_LEASE_MS, as NTP keeps it.

export const jobLeaseMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const ms = Number(env.JOB_LEASE_MS ?? 30_000);
  return Number.isFinite(ms) && ms >= 1000 ? ms : 30_000;
};

/** Who holds a lease: this node and process (a separate `npm run jobs` on the same node is another holder). */
export const leaseHolder = (): string => `${nodeId()}/${process.pid}`;

const runs = { next: 0 };

const isUniqueViolation = (e: unknown): boolean => (e as { code?: string } | null)?.code === "P2002";

/** Takes or renews the lease `name` for `ms`; true when this process holds it now. */
export async function acquireLease(name: string, ms = jobLeaseMs(), holder = leaseHolder()): Promise<boolean> {
  const now = NativeDate.now();
  const expiresAt = new NativeDate(now + ms);
  const taken = await db.jobLease.updateMany({
    where: { name, OR: [{ holder }, { expiresAt: { lt: new NativeDate(now) } }] },
    data: { holder, expiresAt },
  });
  if (taken.count === 1) return true;
  try {
    await db.jobLease.create({ data: { name, holder, expiresAt } });
    return true;
  } catch (e) {
    if (isUniqueViolation(e)) return false; // another holder's, and live
    throw e;
  }
}

/** Gives the lease back at once (another node need not wait for it to lapse). */
export async function releaseLease(name: string, holder = leaseHolder()): Promise<void> {
  await db.jobLease.updateMany({ where: { name, holder }, data: { expiresAt: new NativeDate(0) } });
}

/** Who holds `name` now, or null when nobody does. */
export async function leaseHolderOf(name: string): Promise<string | null> {
  const row = await db.jobLease.findUnique({ where: { name } });
  return row && row.expiresAt.getTime() > NativeDate.now() ? row.holder : null;
}

/**
 * Runs `work` under the lease `name`, renewing it every third of its length while the work runs. When another
 * process holds it: answers `{ ran: false }` at once, or with `waitMs`, waits up to that long for it (polling every
 * 100 ms), so that an explicit run (the test clock's, `npm run jobs`) runs after the other rather than not at all.
 */
export async function withLease<T>(
  name: string,
  work: () => Promise<T>,
  { ms = jobLeaseMs(), waitMs = 0 }: { ms?: number; waitMs?: number } = {},
): Promise<{ ran: true; result: T } | { ran: false }> {
  // A holder per run, not per process: two runs in one process (the scheduler's tick and the test clock's) take turns.
  const holder = `${leaseHolder()}/${(runs.next++).toString(36)}`;
  const deadline = NativeDate.now() + waitMs;
  while (!(await acquireLease(name, ms, holder))) {
    if (NativeDate.now() >= deadline) return { ran: false };
    await new Promise((r) => setTimeout(r, 100));
  }
  const renew = setInterval(() => {
    acquireLease(name, ms, holder).catch((e: Error) => console.warn(`[jobs] renewing the lease ${name} failed: ${e.message}`));
  }, ms / 3);
  renew.unref();
  try {
    return { ran: true, result: await work() };
  } finally {
    clearInterval(renew);
    await releaseLease(name, holder).catch(() => {});
  }
}
