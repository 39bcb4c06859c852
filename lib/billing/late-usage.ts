import { db } from "@/lib/db/client";
import { compilePrice } from "./price-plan";
import { newRatingState, rateEvent } from "./rate-events";
import { measuredMetrics, periodQuantities } from "./period-usage";
import { costOf, type RequestCost } from "./rate-request";

// Late usage (issue 40): a period that has closed stays open to its usage while its invoice is a draft (the grace,
// INVOICE_GRACE_HOURS): a meter event dated in it, or a correction of one, is accepted and rated against that
// period's totals; the draft is rated again from every event when it is finalised.

/** The subscription's draft invoice whose period holds `at` (still in its grace), or null. */
export function draftCovering(subscriptionId: string, at: Date) {
  return db.invoice.findFirst({ where: { subscriptionId, status: "draft", periodStart: { lte: at }, periodEnd: { gt: at } } });
}

/** What `quantity` units add to the draft's period at its totals so far (exact; negative for a correction down). */
export async function rateLate(invoice: { subscriptionId: string; priceId: string; periodStart: Date; periodEnd: Date }, quantity: number) {
  const price = await db.price.findUnique({ where: { id: invoice.priceId } });
  if (!price) return null;
  const plan = compilePrice(price);
  const q = await periodQuantities(
    { subscriptionId: invoice.subscriptionId, start: invoice.periodStart, end: invoice.periodEnd },
    { metrics: measuredMetrics(plan) },
  );
  const nanos = rateEvent(newRatingState(plan, q), { bytes: 0, computeMs: 0, quantity });
  return costOf(nanos, plan.currency) as RequestCost;
}
