import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { now } from "@/lib/clock";
import { idTimeBound, newId } from "@/lib/ids";
import { withEvents } from "@/lib/events/emit-event";
import type { Prisma, Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { emitSubscriptionEvent } from "./subscription-events";
import { compilePrice } from "./price-plan";
import { ratePeriod, invoiceTotal, type InvoiceLine } from "./rate-events";
import { invoiceCreditEntry, invoiceCredits } from "./invoice-credits";
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

/** How long a closed period's invoice stays a draft, taking late usage (INVOICE_GRACE_HOURS, default 1). */
export const invoiceGraceMs = () => Math.max(0, Number(process.env.INVOICE_GRACE_HOURS ?? 1)) * 3_600_000;

export async function closePeriod(
  sub: SubscriptionRow,
  opts: { endAt?: Date; cancel?: boolean; answer?: (after: SubscriptionRow) => unknown } = {},
): Promise<{ invoiceId: string | null; subscription: SubscriptionRow } | null> {
  const start = sub.currentPeriodStart;
  const end = opts.endAt && opts.endAt < sub.currentPeriodEnd ? opts.endAt : sub.currentPeriodEnd;
  const invoiceId = newId("invoice");
  // A period that ends on its date is invoiced as a draft for the grace period (late usage still counts); one the
  // consumer ends now is finalised at once, as its cancellation asks.
  const graceMs = opts.cancel ? 0 : invoiceGraceMs();
  // Ids carry the real time they were made at (not the test clock): the events recorded before this moment.
  const usageCutoff = idTimeBound("usage", Date.now());
  const rated = await invoiceLinesFor(sub, start, end, sub.currentPeriodEnd, invoiceId, usageCutoff);
  const credits = rated && graceMs === 0 ? await invoiceCredits(sub, rated.price, rated.lines, start, end) : null;
  const ending = opts.cancel || sub.cancelAtPeriodEnd;
  const nextPriceId = sub.pendingPriceId ?? sub.priceId;
  let nextEnd = sub.currentPeriodEnd;
  if (!ending) {
    const next = await db.price.findUnique({ where: { id: nextPriceId } });
    nextEnd = addInterval(sub.currentPeriodEnd, next ? compilePrice(next).interval : "month", 1);
  }
  // The transaction's first statement is its conditional write (see createSubscription on SQLite's upgrades).
  return withEvents(
    async (tx) => {
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
        where: { id: sub.id, currentPeriodStart: start, status: { in: CURRENT_SUBSCRIPTION_STATUSES } },
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
            status: graceMs ? "draft" : "open",
            currency: rated.price.currency,
            periodStart: start,
            periodEnd: end,
            usageCutoff,
            lines: lines as unknown as Prisma.InputJsonValue,
            subtotal,
            total,
            amountPaid: 0,
            attemptCount: 0,
            nextPaymentAttempt: graceMs ? null : t,
            // A draft's is when it will be finalised.
            finalizedAt: graceMs ? new Date(end.getTime() + graceMs) : t,
            createdAt: t,
            updatedAt: t,
          },
        });
        written = invoiceId;
        if (credits?.ledgerNanos)
          await tx.creditEntry.create({
            data: invoiceCreditEntry(
              { ...sub, id: invoiceId, subscriptionId: sub.id, currency: rated.price.currency },
              credits.ledgerNanos,
              t,
            ),
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
      return { invoiceId: written, subscription: after };
    },
    { answer: (done) => (done && opts.answer ? opts.answer(done.subscription) : undefined) },
  );
}

/**
 * The job after the grace: each draft whose time has come is rated again with every event of its period (late ones
 * and corrections included), takes the credits, and becomes open (then charged). Conditional on still being a draft,
 * so two processes finalise it once.
 */
export async function finalizeDraftInvoices(): Promise<{ finalized: string[] }> {
  const due = await db.invoice.findMany({ where: { status: "draft", finalizedAt: { lte: now() } }, take: 200 });
  const finalized: string[] = [];
  for (const inv of due) {
    const usageCutoff = idTimeBound("usage", Date.now());
    const sub = { id: inv.subscriptionId, priceId: inv.priceId };
    const rated = await invoiceLinesFor(sub, inv.periodStart, inv.periodEnd, inv.periodEnd, inv.id, usageCutoff);
    if (!rated) continue;
    const credits = await invoiceCredits(sub, rated.price, rated.lines, inv.periodStart, inv.periodEnd);
    const lines: InvoiceLine[] = credits ? [...rated.lines, credits.line] : rated.lines;
    const t = now();
    const done = await withEvents(async (tx) => {
      const claimed = await tx.invoice.updateMany({
        where: { id: inv.id, status: "draft" },
        data: {
          status: "open",
          lines: lines as unknown as Prisma.InputJsonValue,
          subtotal: invoiceTotal(rated.lines),
          total: invoiceTotal(lines),
          usageCutoff,
          finalizedAt: t,
          nextPaymentAttempt: t,
          updatedAt: t,
        },
      });
      if (claimed.count !== 1) return false;
      if (credits?.ledgerNanos) await tx.creditEntry.create({ data: invoiceCreditEntry(inv, credits.ledgerNanos, t) });
      return true;
    });
    if (done) finalized.push(inv.id);
  }
  return { finalized };
}
