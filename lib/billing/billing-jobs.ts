import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { now } from "@/lib/clock";
import { flushUsageEverywhere } from "@/lib/usage/flush-everywhere";
import { closePeriod, finalizeDraftInvoices } from "./close-period";
import { collectInvoice } from "./collect-payment";
import { invalidateBillingCache } from "./rate-request";
import { expireCredits } from "./credits";

// The scheduled billing work (lib/jobs/scheduler.ts): close every period that has ended (invoice, then renew or
// cancel) and charge it, then retry the payments that are due. Time comes from the injectable clock, so a test
// moves the clock and runs these instead of waiting a month.

export async function finalizeInvoices(): Promise<{ closed: number; invoices: number }> {
  await flushUsageEverywhere();
  let closed = 0,
    invoices = 0;
  const skipped: string[] = []; // failed or taken by another process: not tried again in this run
  // A subscription idle for several periods closes one period per pass of the loop.
  for (let pass = 0; pass < 100; pass++) {
    const due = await db.subscription.findMany({
      where: {
        status: { in: CURRENT_SUBSCRIPTION_STATUSES },
        currentPeriodEnd: { lte: now() },
        ...(skipped.length ? { id: { notIn: skipped } } : {}),
      },
      orderBy: { currentPeriodEnd: "asc" },
      take: 200,
    });
    if (!due.length) break;
    for (const sub of due) {
      const result = await closePeriod(sub).catch((e) => {
        console.error(`[billing] closing ${sub.id} failed`, e);
        return null;
      });
      if (!result) {
        skipped.push(sub.id);
        continue;
      }
      closed++;
      invalidateBillingCache(sub.projectId, sub.environment);
      if (result.invoiceId) {
        invoices++;
        await collectInvoice(result.invoiceId);
      }
    }
  }
  return { closed, invoices };
}

/** Drafts past their grace: rated again with late usage, finalised and charged. */
export async function finalizeDrafts(): Promise<{ finalizedDrafts: number }> {
  await flushUsageEverywhere();
  const { finalized } = await finalizeDraftInvoices();
  for (const id of finalized) await collectInvoice(id);
  return { finalizedDrafts: finalized.length };
}

export async function retryPayments(): Promise<{ attempted: number }> {
  const due = await db.invoice.findMany({
    where: { status: "open", nextPaymentAttempt: { lte: now() } },
    take: 500,
    orderBy: { nextPaymentAttempt: "asc" },
  });
  for (const inv of due) await collectInvoice(inv.id).catch((e) => console.error(`[billing] charging ${inv.id} failed`, e));
  return { attempted: due.length };
}

/** Every job, in order: what the scheduler and the test clock run. Credits lapse before periods close, so an
 * invoice never applies credits that had expired by its end. */
export async function runBillingJobs() {
  return { ...(await expireCredits()), ...(await finalizeInvoices()), ...(await finalizeDrafts()), ...(await retryPayments()) };
}
