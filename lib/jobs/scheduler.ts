import { processKeyRotations } from "@/lib/keys/rotation-job";
import { purgeExpiredOAuth } from "@/lib/oauth/purge-expired";
import { finalizeDrafts, finalizeInvoices, retryPayments } from "@/lib/billing/billing-jobs";
import { expireCredits } from "@/lib/billing/credits";
import { reconcileStripePayments } from "@/lib/billing/stripe/reconcile-stripe";
import { purgeExpiredIdempotencyKeys, purgeExpiredLogs } from "./retention";
import { compactRollups } from "./compact-rollups";

// The periodic jobs: in the server by default (instrumentation.ts), or alone with `npm run jobs`.
// Each job is safe to run in several processes at once (deletes and merges of closed hours only).

export const JOBS: Record<string, () => Promise<unknown>> = {
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
};

export async function runJobsOnce(log = (msg: string) => console.log(msg)): Promise<void> {
  for (const [name, job] of Object.entries(JOBS)) {
    const started = Date.now();
    try {
      const result = await job();
      log(`[jobs] ${name}: ${JSON.stringify(result)} in ${Date.now() - started} ms`);
    } catch (e) {
      console.error(`[jobs] ${name} failed`, e);
    }
  }
}

let timer: NodeJS.Timeout | null = null;

export function startScheduler(intervalMs = Number(process.env.JOBS_INTERVAL_MS ?? 10 * 60_000)): void {
  if (timer || process.env.JOBS_IN_SERVER === "false") return;
  const tick = () => {
    void runJobsOnce(() => {});
  };
  setTimeout(tick, 30_000).unref();
  timer = setInterval(tick, intervalMs);
  timer.unref();
}
