import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { idTimeBound, newId } from "@/lib/ids";
import { withEvents } from "@/lib/events/emit-event";
import type { Prisma, Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { emitSubscriptionEvent } from "./subscription-events";
import { compilePrice } from "./price-plan";
import { ratePeriod, invoiceTotal, type InvoiceLine } from "./rate-events";
import { invoiceCredits } from "./invoice-credits";
import { addInterval } from "./periods";
import { measuredMetrics, periodQuantities } from "./period-usage";

// Closing a period: the invoice of [currentPeriodStart, end) is written, and the subscription moves on (renewed
// for the next period, or canceled) in the same transaction, with its event. The update is conditional on the
// period it closes, so two processes closing one period at once write one invoice.

export interface StoredLine extends InvoiceLine {
  usage: { csv: string | null; events: string } | null;
}

export function linksFor(lines: InvoiceLine[], invoiceId: string | null, start: Date, end: Date, subscriptionId: string): StoredLine[] {
  const events = `/v1/usage?subscriptionId=${subscriptionId}&timestamp[gte]=${start.toISOString()}&timestamp[lt]=${end.toISOString()}&statusCode[lt]=400`;
  return lines.map((l) => ({
    ...l,
    usage: l.type === "usage" ? { csv: invoiceId ? `/v1/invoices/${invoiceId}/lines/${l.id}/usage` : null, events } : null,
  }));
}

export async function invoiceLinesFor(
  sub: Pick<SubscriptionRow, "id" | "priceId">,
  start: Date,
  end: Date,
  fullEnd: Date,
  invoiceId: string | null,
  idBefore: string | null = null,
) {
  const price = await db.price.findUnique({ where: { id: sub.priceId } });
  if (!price) return null; // the price was deleted: nothing can be rated any more
  const plan = compilePrice(price);
  const q = await periodQuantities({ subscriptionId: sub.id, start, end, idBefore }, { metrics: measuredMetrics(plan) });
  const cut = end.getTime() < fullEnd.getTime();
  const lines = ratePeriod(plan, q, {
    start,
    end,
    proration: cut ? [BigInt(end.getTime() - start.getTime()), BigInt(fullEnd.getTime() - start.getTime())] : undefined,
  });
  return { price, lines: linksFor(lines, invoiceId, start, end, sub.id) };
}

export async function closePeriod(
  sub: SubscriptionRow,
  opts: { endAt?: Date; cancel?: boolean } = {},
): Promise<{ invoiceId: string | null } | null> {
  const start = sub.currentPeriodStart;
  const end = opts.endAt && opts.endAt < sub.currentPeriodEnd ? opts.endAt : sub.currentPeriodEnd;
  const invoiceId = newId("invoice");
  // Ids carry the real time they were made at (not the test clock): the events recorded before this moment.
  const usageCutoff = idTimeBound("usage", Date.now());
  const rated = await invoiceLinesFor(sub, start, end, sub.currentPeriodEnd, invoiceId, usageCutoff);
  const credits = rated ? await invoiceCredits(sub, rated.price, rated.lines, start, end) : null;
  const ending = opts.cancel || sub.cancelAtPeriodEnd;
  const nextPriceId = sub.pendingPriceId ?? sub.priceId;
  let nextEnd = sub.currentPeriodEnd;
  if (!ending) {
    const next = await db.price.findUnique({ where: { id: nextPriceId } });
    nextEnd = addInterval(sub.currentPeriodEnd, next ? compilePrice(next).interval : "month", 1);
  }
  // The transaction's first statement is its conditional write (see createSubscription on SQLite's upgrades).
  return withEvents(async (tx) => {
    const data: Prisma.SubscriptionUpdateManyMutationInput = ending
      ? {
          status: "canceled",
          currentSlot: null,
          canceledAt: opts.cancel ? end : (sub.canceledAt ?? end),
          endedAt: end,
          cancelAtPeriodEnd: false,
          updatedAt: now(),
        }
      : {
          currentPeriodStart: sub.currentPeriodEnd,
          currentPeriodEnd: nextEnd,
          priceId: nextPriceId,
          pendingPriceId: null,
          updatedAt: now(),
        };
    const claimed = await tx.subscription.updateMany({
      where: { id: sub.id, currentPeriodStart: start, status: { in: ["active", "past_due"] } },
      data,
    });
    if (claimed.count !== 1) return null;

    let written: string | null = null;
    if (rated) {
      const t = now();
      const subtotal = invoiceTotal(rated.lines);
      const lines: InvoiceLine[] = credits ? [...rated.lines, credits.line] : rated.lines;
      const total = invoiceTotal(lines);
      const count = await tx.invoice.count({ where: { businessId: sub.businessId, environment: sub.environment } });
      await tx.invoice.create({
        data: {
          id: invoiceId,
          businessId: sub.businessId,
          projectId: sub.projectId,
          environment: sub.environment,
          subscriptionId: sub.id,
          priceId: sub.priceId,
          providerId: sub.providerId,
          productId: sub.productId,
          number: `${sub.environment === "test" ? "TEST-" : ""}${sub.businessId.slice(-6)}-${String(count + 1).padStart(4, "0")}`,
          status: "open",
          currency: rated.price.currency,
          periodStart: start,
          periodEnd: end,
          usageCutoff,
          lines: lines as unknown as Prisma.InputJsonValue,
          subtotal,
          total,
          amountPaid: 0,
          attemptCount: 0,
          nextPaymentAttempt: t,
          finalizedAt: t,
          createdAt: t,
          updatedAt: t,
        },
      });
      written = invoiceId;
      if (credits?.ledgerNanos)
        await tx.creditEntry.create({
          data: {
            id: newId("creditEntry"),
            subscriptionId: sub.id,
            businessId: sub.businessId,
            providerId: sub.providerId || sub.businessId,
            projectId: sub.projectId,
            environment: sub.environment,
            type: "invoice",
            amountNanos: credits.ledgerNanos,
            currency: rated.price.currency,
            invoiceId,
            note: "Credits applied to the invoice",
            dedupeKey: `invoice:${invoiceId}`,
            createdAt: t,
          },
        });
    }
    const after = await tx.subscription.findUniqueOrThrow({ where: { id: sub.id } });
    await emitSubscriptionEvent(
      after,
      ending ? "subscription.canceled" : "subscription.renewed",
      tx,
      undefined,
      written ? { latestInvoiceId: written } : {},
    );
    return { invoiceId: written };
  });
}
