import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";

import { ApiError, invalidParameter, notFound } from "@/lib/http/errors";

import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Invoice as InvoiceRow, Payment as PaymentRow, Refund as RefundRow } from "@/generated/prisma-sqlite";
import { INVOICE_STATUSES } from "@/lib/schemas/billing";
import { compilePrice, eventQuantity } from "./price-plan";
import { newRatingState, rateEventParts, invoiceTotal } from "./rate-events";
import { minorToDecimal, nanosToDecimal } from "./money";
import { invoiceLinesFor, type StoredLine } from "./close-period";
import { periodEvents } from "./period-usage";
import { CURRENT } from "./subscriptions";
import { serializeRefund } from "./refunds";

// Invoices: the finalised ones (stored), the upcoming one (the running period, rated on demand and not stored),
// and the CSV of the usage events behind a line.

export const INVOICE_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    status: { type: "enum", values: INVOICE_STATUSES },
    subscriptionId: { type: "string" },
    projectId: { type: "string" },
    total: { type: "integer" },
    periodStart: { type: "date" },
    createdAt: { type: "date" },
  },
  sortable: ["createdAt", "periodStart", "total", "id"],
  fields: [
    "number",
    "subscriptionId",
    "projectId",
    "priceId",
    "status",
    "currency",
    "periodStart",
    "periodEnd",
    "lines",
    "subtotal",
    "total",
    "amountPaid",
    "amountDue",
    "totalDecimal",
    "attemptCount",
    "nextPaymentAttempt",
    "paidAt",
    "finalizedAt",
    "finalizesAt",
    "payments",
    "amountRefunded",
    "disputed",
    "refunds",
    "environment",
    "createdAt",
  ],
};

type WithPayments = InvoiceRow & { payments?: PaymentRow[]; refunds?: RefundRow[]; sellerName?: string };

export function serializeInvoice(i: WithPayments) {
  return {
    id: i.id,
    number: i.number,
    subscriptionId: i.subscriptionId,
    projectId: i.projectId,
    priceId: i.priceId,
    productId: i.productId,
    seller: { id: i.providerId || i.businessId, name: i.sellerName ?? "" },
    status: i.status as (typeof INVOICE_STATUSES)[number],
    currency: i.currency,
    periodStart: i.periodStart.toISOString(),
    periodEnd: i.periodEnd.toISOString(),
    lines: i.lines as unknown as StoredLine[],
    subtotal: i.subtotal,
    total: i.total,
    amountPaid: i.amountPaid,
    amountDue: Math.max(0, i.total - i.amountPaid),
    totalDecimal: minorToDecimal(BigInt(i.total), i.currency),
    attemptCount: i.attemptCount,
    nextPaymentAttempt: i.nextPaymentAttempt?.toISOString() ?? null,
    paidAt: i.paidAt?.toISOString() ?? null,
    // The stored column holds a draft's due time until it is finalised (close-period.ts): on the wire a draft's
    // finalizedAt is null, as Stripe's status_transitions.finalized_at is, and the due time is finalizesAt.
    finalizedAt: i.status === "draft" ? null : i.finalizedAt.toISOString(),
    finalizesAt: i.status === "draft" ? i.finalizedAt.toISOString() : null,
    payments: (i.payments ?? []).map((p) => ({
      id: p.id,
      status: p.status,
      amount: p.amount,
      attempt: p.attempt,
      failureCode: p.failureCode,
      failureMessage: p.failureMessage,
      stripePaymentIntent: p.provider === "stripe" ? p.providerRef : null,
      amountRefunded: p.amountRefunded,
      createdAt: p.createdAt.toISOString(),
    })),
    amountRefunded: (i.payments ?? []).reduce((n, p) => n + p.amountRefunded, 0),
    disputed: (i.payments ?? []).some((p) => p.disputed),
    refunds: (i.refunds ?? []).map(serializeRefund),
    environment: i.environment,
    createdAt: i.createdAt.toISOString(),
  };
}

const invoices = tenantResource<InvoiceRow>({
  model: () => db.invoice,
  idKind: "invoice",
  label: "invoice",
  collection: INVOICE_COLLECTION,
  serialize: serializeInvoice,
});

export const listInvoices = (auth: AuthContext, query: CollectionQuery) => invoices.list(auth, query);

export const getInvoiceOrThrow = (auth: AuthContext, id: string) => invoices.getOrThrow(auth, id);

export async function getInvoice(auth: AuthContext, id: string) {
  const row = await getInvoiceOrThrow(auth, id);
  return withPaymentsAndRefunds(row);
}

/** The invoice with its payments and refunds, as its retrieval shows it (to the customer and to the seller). */
export async function withPaymentsAndRefunds(row: InvoiceRow) {
  const [payments, refunds] = await Promise.all([
    db.payment.findMany({ where: { invoiceId: row.id }, orderBy: { createdAt: "asc" } }),
    db.refund.findMany({ where: { invoiceId: row.id }, orderBy: { createdAt: "asc" } }),
  ]);
  return serializeInvoice({ ...row, payments, refunds, sellerName: await businessName(row.providerId || row.businessId) });
}

const businessName = async (id: string) => (await db.business.findUnique({ where: { id }, select: { name: true } }))?.name ?? "";

/** The running period of one of the project's current subscriptions, rated up to now. */
export async function upcomingInvoice(auth: AuthContext, projectId = auth.projectId, subscriptionId?: string) {
  const current = await db.subscription.findMany({
    where: {
      businessId: auth.businessId,
      projectId,
      environment: auth.environment,
      status: { in: CURRENT },
      ...(subscriptionId ? { id: subscriptionId } : {}),
    },
    take: 2,
  });
  if (current.length > 1)
    throw invalidParameter(
      "subscriptionId",
      "The project holds several subscriptions: name one.",
      "Add ?subscriptionId=sub_… (GET /v1/subscriptions lists them).",
    );
  const sub = current[0];
  if (!sub) {
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field: "projectId",
      message: subscriptionId
        ? "No such current subscription in the project."
        : "The project has no current subscription, so no upcoming invoice.",
    });
  }
  const t = now();
  const end = t < sub.currentPeriodEnd ? t : sub.currentPeriodEnd;
  const rated = await invoiceLinesFor(sub, sub.currentPeriodStart, end, end, null);
  if (!rated) throw notFound("price", sub.priceId);
  const total = invoiceTotal(rated.lines);
  return {
    id: null,
    number: null,
    subscriptionId: sub.id,
    projectId: sub.projectId,
    priceId: sub.priceId,
    productId: sub.productId,
    seller: { id: sub.providerId || sub.businessId, name: await businessName(sub.providerId || sub.businessId) },
    status: "upcoming" as const,
    currency: rated.price.currency,
    periodStart: sub.currentPeriodStart.toISOString(),
    periodEnd: sub.currentPeriodEnd.toISOString(),
    lines: rated.lines,
    subtotal: total,
    total,
    amountPaid: 0,
    amountDue: total,
    totalDecimal: minorToDecimal(BigInt(total), rated.price.currency),
    attemptCount: 0,
    nextPaymentAttempt: sub.currentPeriodEnd.toISOString(),
    paidAt: null,
    finalizedAt: null,
    finalizesAt: null,
    payments: [],
    amountRefunded: 0,
    disputed: false,
    refunds: [],
    environment: sub.environment,
    createdAt: null,
  };
}

const csvCell = (v: string | number) => (/[",\n\r]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));

/**
 * The usage events behind one line, as CSV: the period's events re-rated in (timestamp, id) order, one row per
 * event the line metered, with its quantity and exact cost. The last row totals them: its cost equals the line's
 * exactAmount, and rounded to the minor unit its amount.
 */
export async function invoiceLineCsv(auth: AuthContext, invoiceId: string, lineId: string): Promise<string> {
  const invoice = await getInvoiceOrThrow(auth, invoiceId);
  const lines = invoice.lines as unknown as StoredLine[];
  const line = lines.find((l) => l.id === lineId);
  if (!line || line.type !== "usage") throw notFound("invoice line", lineId);
  const price = await db.price.findUnique({ where: { id: invoice.priceId } });
  if (!price) throw notFound("price", invoice.priceId);
  const plan = compilePrice(price);
  const index = plan.usage.findIndex((c) => c.key === lineId);
  if (index < 0) throw notFound("invoice line", lineId);
  const state = newRatingState(plan);
  const out = ["event_id,timestamp,method,endpoint,status_code,api_key,quantity,cost,currency"];
  let quantity = 0;
  let total = 0n;
  for await (const e of periodEvents({
    subscriptionId: invoice.subscriptionId,
    start: invoice.periodStart,
    end: invoice.periodEnd,
    idBefore: invoice.usageCutoff,
  })) {
    const usage = {
      bytes: e.requestSize + e.responseSize,
      computeMs: e.computeTime ?? 0,
      quantity: e.quantity,
      quantities: e.quantities as Record<string, number> | null,
    };
    const cost = rateEventParts(state, usage)[index];
    const q = eventQuantity(plan.usage[index], usage);
    if (q === 0) continue;
    quantity += q;
    total += cost;
    out.push(
      [
        e.id,
        e.timestamp.toISOString(),
        e.method,
        csvCell(e.endpoint),
        e.statusCode,
        e.apiKey,
        q,
        nanosToDecimal(cost),
        invoice.currency,
      ].join(","),
    );
  }
  out.push(["total", "", "", "", "", "", quantity, nanosToDecimal(total), invoice.currency].join(","));
  // What the line charges: the total in minor units (rounded half up; on an invoice of several lines, rounded so the
  // lines add up to the invoice's total, see InvoiceLine.amount).
  out.push(["amount", "", "", "", "", "", "", minorToDecimal(BigInt(line.amount), invoice.currency), invoice.currency].join(","));
  return out.join("\n") + "\n";
}
