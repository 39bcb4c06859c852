import type { Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { newId } from "@/lib/ids";
import { minorExponent, nanosToDecimal, nanosToMinor } from "./money";
import { invoiceTotal, type InvoiceLine } from "./rate-events";
import { ledgerNetNanos, usageCostNanos } from "./credit-sums";

// Credits on an invoice (issue 39). A prepaid price's usage was paid call by call from credits: the invoice shows
// it and a line taking the burns off, so what is due is the rest (a fixed fee). A postpaid invoice takes what
// the subscription's credits hold first: a line "Credits applied", and a ledger entry for it written in the
// invoice's transaction (close-period.ts), so balances and invoices reconcile.

/** The ledger entry that records credits applied to an invoice (written in the invoice's transaction; one per
 * invoice by its dedupe key). */
export function invoiceCreditEntry(
  inv: {
    id: string;
    subscriptionId: string;
    businessId: string;
    providerId: string;
    projectId: string;
    environment: string;
    currency: string;
  },
  nanos: bigint,
  at: Date,
) {
  return {
    id: newId("creditEntry"),
    subscriptionId: inv.subscriptionId,
    businessId: inv.businessId,
    providerId: inv.providerId || inv.businessId,
    projectId: inv.projectId,
    environment: inv.environment,
    type: "invoice",
    amountNanos: nanos,
    currency: inv.currency,
    invoiceId: inv.id,
    note: "Credits applied to the invoice",
    dedupeKey: `invoice:${inv.id}`,
    createdAt: at,
  };
}

export interface InvoiceCredits {
  line: InvoiceLine;
  /** The ledger entry a postpaid invoice writes (negative nanos); null for prepaid (the burns are the entries). */
  ledgerNanos: bigint | null;
}

function creditLine(priceId: string, description: string, nanos: bigint, minor: number, start: Date, end: Date): InvoiceLine {
  return {
    id: "credits",
    type: "credits",
    description,
    priceId,
    metric: null,
    unit: null,
    unitSize: 1,
    quantity: 0,
    includedQuantity: 0,
    billableQuantity: 0,
    unitAmount: null,
    tiersMode: null,
    tiers: null,
    exactAmount: nanosToDecimal(-nanos),
    amount: -minor,
    period: { start: start.toISOString(), end: end.toISOString() },
  };
}

export async function invoiceCredits(
  sub: Pick<SubscriptionRow, "id" | "priceId">,
  price: { billing: string; currency: string },
  lines: InvoiceLine[],
  start: Date,
  end: Date,
): Promise<InvoiceCredits | null> {
  const due = invoiceTotal(lines);
  if (price.billing === "prepaid") {
    const burned = await usageCostNanos(sub.id, { credits: true, from: start, to: end, flush: false });
    if (burned <= 0n) return null;
    const minor = Math.min(Number(nanosToMinor(burned, price.currency)), due);
    return { line: creditLine(sub.priceId, "Paid from prepaid credits", burned, minor, start, end), ledgerNanos: null };
  }
  if (due <= 0) return null;
  const available = ((await ledgerNetNanos([sub.id])).get(sub.id) ?? 0n) - (await usageCostNanos(sub.id, { credits: true, flush: false }));
  const step = 10n ** BigInt(9 - minorExponent(price.currency));
  const minor = Math.min(Number(available / step), due);
  if (minor <= 0) return null;
  const nanos = BigInt(minor) * step;
  return { line: creditLine(sub.priceId, "Credits applied", nanos, minor, start, end), ledgerNanos: -nanos };
}
