import type { Prisma, PrismaClient } from "@/generated/prisma-sqlite";
import { now } from "@/lib/clock";
import { emitSubscriptionEvent } from "./subscription-events";

// Dunning, as Stripe's subscriptions do it: a failed charge makes the subscription past_due (its calls still served
// while the payment is retried) and is retried PAYMENT_RETRY_DAYS apart (default 1,3,5: one, three and five days
// after the attempt before, four attempts in all). After the last failure the invoice stays open, no retry is
// planned, and the subscription is unpaid: its product calls are refused with 402 SUBSCRIPTION_UNPAID until the
// invoice is paid (a new card charges it at once), which makes it active again.

type Tx = Prisma.TransactionClient | PrismaClient;

const DAY = 86_400_000;
const DEFAULT_RETRY_DAYS = [1, 3, 5];

/** PAYMENT_RETRY_DAYS as days between attempts; `npm start` refuses a malformed value (scripts/lib/payment-settings.mjs). */
export function retryDays(value = process.env.PAYMENT_RETRY_DAYS): number[] {
  if (value === undefined || value.trim() === "") return DEFAULT_RETRY_DAYS;
  const days = value.split(",").map((d) => Number(d.trim()));
  return days.every((d) => Number.isFinite(d) && d > 0) ? days : DEFAULT_RETRY_DAYS;
}

/** How long after failed attempt `attempt` (1-based) the next is made; null after the last. */
export function nextRetryDelayMs(attempt: number, days = retryDays()): number | null {
  return attempt <= days.length ? days[attempt - 1] * DAY : null;
}

export const maxAttempts = (days = retryDays()) => days.length + 1;

interface SubscriptionRow {
  id: string;
  status: string;
}

/** A charge of the subscription's invoice failed: past_due while retries remain, unpaid after the last. */
export async function subscriptionAfterFailure(tx: Tx, sub: SubscriptionRow | null, lastAttempt: boolean) {
  if (!sub || sub.status === "canceled") return;
  const status = lastAttempt ? "unpaid" : sub.status === "unpaid" ? "unpaid" : "past_due";
  if (status === sub.status) return;
  const after = await tx.subscription.update({ where: { id: sub.id }, data: { status, updatedAt: now() } });
  await emitSubscriptionEvent(after, "subscription.updated", tx, { status: sub.status });
}

/** An invoice of the subscription was paid: active again unless another invoice has exhausted its retries. */
export async function subscriptionAfterPayment(tx: Tx, sub: SubscriptionRow | null, paidInvoiceId: string) {
  if (!sub || (sub.status !== "past_due" && sub.status !== "unpaid")) return;
  const stillOwed = await tx.invoice.count({
    where: { subscriptionId: sub.id, status: "open", id: { not: paidInvoiceId }, attemptCount: { gte: maxAttempts() } },
  });
  if (stillOwed > 0) return;
  const after = await tx.subscription.update({ where: { id: sub.id }, data: { status: "active", updatedAt: now() } });
  await emitSubscriptionEvent(after, "subscription.updated", tx, { status: sub.status });
}
