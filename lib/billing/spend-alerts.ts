import { newId } from "@/lib/ids";
import { NativeDate } from "@/lib/native-date";
import { withEvents, emitEvent } from "@/lib/events/emit-event";
import { limiterStore } from "@/lib/limits/limiter";
import { nanosToDecimal } from "./money";
import type { SubscriptionEntry } from "./rate-request";
import { autoRecharge } from "./credits";

// What a settled call's new totals set off, off the call's path: a spend threshold crossed (billing.spend_threshold
// to both sides, once per subscription, period and threshold) and an auto top-up when prepaid credits fall below
// the consumer's mark. Both are decided by the call that crosses the line, so with several processes exactly one
// call crosses it (the counters are shared); the store's set-once flag and a unique row keep it to one.

export const DEFAULT_THRESHOLDS = [50, 80, 100];

/** The thresholds (percent) a call moving the period's spend from `before` to `after` crosses. */
export function crossedThresholds(thresholds: number[], capNanos: bigint, before: bigint, after: bigint): number[] {
  if (capNanos <= 0n) return [];
  return thresholds.filter((t) => before * 100n < BigInt(t) * capNanos && BigInt(t) * capNanos <= after * 100n);
}

export function afterSpend(
  sub: SubscriptionEntry,
  totals: { creditsUsed: bigint | null; capWindow: { before: bigint; after: bigint } | null },
) {
  const cap = sub.spendCap;
  const w = totals.capWindow;
  if (cap && w) {
    for (const t of crossedThresholds(cap.thresholds, cap.amountNanos, w.before, w.after))
      void spendThresholdReached(sub, t, w.after).catch((e) => console.error("[billing] spend alert failed", e));
  }
  const recharge = sub.autoRecharge;
  if (sub.prepaid && recharge && totals.creditsUsed !== null && sub.creditNetNanos - totals.creditsUsed < recharge.belowNanos)
    void startAutoRecharge(sub).catch((e) => console.error("[billing] auto top-up failed", e));
}

async function spendThresholdReached(sub: SubscriptionEntry, threshold: number, spent: bigint) {
  const prefix = process.env.REDIS_PREFIX ?? "platform:";
  const first = await limiterStore().setOnce(`${prefix}spend-alert:${sub.subscriptionId}:${sub.periodStart}:${threshold}`, 40 * 86_400_000);
  if (!first) return;
  const cap = sub.spendCap!;
  const data = {
    object: "spend_threshold",
    subscriptionId: sub.subscriptionId,
    productId: sub.productId,
    projectId: sub.projectId,
    threshold,
    cap: nanosToDecimal(cap.amountNanos),
    spent: nanosToDecimal(spent),
    currency: sub.plan.currency,
    action: cap.action,
    blocked: cap.action === "block" && threshold >= 100,
    periodStart: new NativeDate(sub.periodStart).toISOString(),
    periodEnd: new NativeDate(sub.periodEnd).toISOString(),
  };
  await withEvents(async (tx) => {
    // The unique row is the durable guard (a restarted process's memory store forgets its flags).
    const created = await tx.spendAlert
      .create({
        data: {
          id: newId("spendAlert"),
          subscriptionId: sub.subscriptionId,
          periodStart: new NativeDate(sub.periodStart),
          threshold,
          createdAt: new NativeDate(),
        },
      })
      .then(() => true)
      .catch((e: { code?: string }) => {
        if (e.code === "P2002") return false;
        throw e;
      });
    if (!created) return;
    const event = { businessId: sub.businessId, environment: sub.environment, type: "billing.spend_threshold", data };
    await emitEvent(event, tx);
    if (sub.providerId && sub.providerId !== sub.businessId) await emitEvent({ ...event, businessId: sub.providerId }, tx);
  });
}

async function startAutoRecharge(sub: SubscriptionEntry) {
  const prefix = process.env.REDIS_PREFIX ?? "platform:";
  // One top-up at a time per subscription; the next call below the mark after it tries again.
  if (!(await limiterStore().setOnce(`${prefix}recharging:${sub.subscriptionId}`, 30_000))) return;
  await autoRecharge(sub.subscriptionId);
}
