import { processKeyRotations } from "@/lib/keys/rotation-job";
import { purgeExpiredOAuth } from "@/lib/oauth/purge-expired";
import { finalizeDrafts, finalizeInvoices, retryPayments } from "@/lib/billing/billing-jobs";
import { expireCredits } from "@/lib/billing/credits";
import { reconcileStripePayments } from "@/lib/billing/stripe/reconcile-stripe";
import { purgeBusMessages } from "@/lib/bus/cluster-bus";
import { acquireLease, jobLeaseMs, withLease } from "@/lib/cluster/job-lease";
import { makeDayPartitions, purgeExpiredIdempotencyKeys, purgeExpiredLogs } from "./retention";
import { compactRollups } from "./compact-rollups";

// The periodic jobs: in the server by default (instrumentation.ts), or alone with `npm run jobs`. On several nodes
// (docs/deploy.md) each job runs under a lease of its own (lib/cluster/job-lease.ts), so one process of one node runs
// it at a time: periods are closed and cards charged once however many nodes run the jobs at the same moment (a test
// clock moved on all of them, say), and the nodes' schedulers tick only on the node that holds the `scheduler` lease.

export const JOBS: Record<string, () => Promise<unknown>> = {
  // PostgreSQL: the request log's and usage events' day partitions, made ahead (before retention drops old days).
  partitions: makeDayPartitions,
  "purge-logs": purgeExpiredLogs,
  "purge-idempotency-keys": purgeExpiredIdempotencyKeys,
  "compact-rollups": compactRollups,
  "key-rotation": () => processKeyRotations(),
  "purge-oauth": purgeExpiredOAuth,
  // Billing: credits past their expiry lapse (before periods close, so no invoice applies them), then close ended periods into invoices (renew or cancel) and charge them, then retry due payments.
  "expire-credits": expireCredits,
  "finalize-invoices": finalizeInvoices,
  // Drafts past INVOICE_GRACE_HOURS: rated again with the late usage, finalised and charged.
  "finalize-drafts": finalizeDrafts,
  "retry-payments": retryPayments,
  // PAYMENT_PROVIDER=stripe: Stripe's recent PaymentIntents, so a payment whose answer and event were both lost is recorded.
  "reconcile-stripe": reconcileStripePayments,
  // The cross-node bus's table keeps a few minutes of changes.
  "purge-bus-messages": purgeBusMessages,
};

/** Runs every job once. `waitForLeases`: a job running in another process is waited for and then run here too (an
 * explicit run must see the state it asked for); without it, skipped (the scheduler's tick: the other run is this
 * interval's). */
export async function runJobsOnce(log = (msg: string) => console.log(msg), { waitForLeases = false } = {}): Promise<void> {
  for (const [name, job] of Object.entries(JOBS)) {
    const started = Date.now();
    try {
      const leased = await withLease(`job:${name}`, job, { waitMs: waitForLeases ? 5 * 60_000 : 0 });
      if (!leased.ran) log(`[jobs] ${name}: running in another process (its lease is held)`);
      else log(`[jobs] ${name}: ${JSON.stringify(leased.result)} in ${Date.now() - started} ms`);
    } catch (e) {
      console.error(`[jobs] ${name} failed`, e);
    }
  }
}

let timer: NodeJS.Timeout | null = null;
/** Whether this process holds the `scheduler` lease (its ticks run the jobs). */
let leading = false;

export function startScheduler(intervalMs = Number(process.env.JOBS_INTERVAL_MS ?? 10 * 60_000)): void {
  if (timer || process.env.JOBS_IN_SERVER === "false") return;
  // One node's scheduler leads: it renews the lease every third of JOB_LEASE_MS, and when it dies another node's
  // takes the lease once it lapses. The jobs' own leases would keep a second leader harmless; this keeps N nodes from
  // each running every job every interval.
  const leaseMs = jobLeaseMs();
  const lead = () => {
    acquireLease("scheduler", leaseMs)
      .then((held) => (leading = held))
      .catch(() => (leading = false));
  };
  lead();
  setInterval(lead, leaseMs / 3).unref();
  const tick = () => {
    if (leading) void runJobsOnce(() => {});
  };
  setTimeout(tick, 30_000).unref();
  timer = setInterval(tick, intervalMs);
  timer.unref();
}
