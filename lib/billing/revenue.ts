import { analyticsDb } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import type { AuthContext } from "@/lib/http/auth-context";
import { now } from "@/lib/clock";
import { minorToDecimal } from "./money";
import { invoiceLinesFor } from "./close-period";
import { invoiceTotal } from "./rate-events";

// A provider's revenue per product and month: the invoices its customers were sent for its products (by the
// month their period started), and the running periods rated so far (`upcoming`). The same invoices are the
// consumers' bills, so what consumers owe and what providers earn add up to the same minor units.

export interface RevenueRow {
  productId: string;
  productName: string;
  month: string;
  currency: string;
  invoiced: number;
  paid: number;
  upcoming: number;
  total: number;
  totalDecimal: string;
  customers: number;
}

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

export async function revenueByProductAndMonth(auth: AuthContext, opts: { months?: number } = {}) {
  const months = Math.min(Math.max(opts.months ?? 12, 1), 36);
  const t = now();
  const since = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - months + 1, 1));
  const scope = { providerId: auth.businessId, environment: auth.environment, NOT: { businessId: auth.businessId } };
  const [invoices, current] = await Promise.all([
    analyticsDb.invoice.findMany({ where: { ...scope, periodStart: { gte: since } } }),
    analyticsDb.subscription.findMany({ where: { ...scope, status: { in: CURRENT_SUBSCRIPTION_STATUSES } } }),
  ]);
  const rows = new Map<string, RevenueRow & { buyers: Set<string> }>();
  const row = (productId: string, month: string, currency: string) => {
    const key = `${productId}|${month}|${currency}`;
    let r = rows.get(key);
    if (!r) {
      r = {
        productId,
        productName: "",
        month,
        currency,
        invoiced: 0,
        paid: 0,
        upcoming: 0,
        total: 0,
        totalDecimal: "0",
        customers: 0,
        buyers: new Set(),
      };
      rows.set(key, r);
    }
    return r;
  };
  for (const i of invoices) {
    const r = row(i.productId, monthOf(i.periodStart), i.currency);
    r.invoiced += i.total;
    r.paid += i.amountPaid;
    r.buyers.add(i.businessId);
  }
  for (const s of current) {
    const end = new Date(Math.min(t.getTime(), s.currentPeriodEnd.getTime()));
    const rated = await invoiceLinesFor(s, s.currentPeriodStart, end, end, null);
    if (!rated) continue;
    const r = row(s.productId, monthOf(s.currentPeriodStart), rated.price.currency);
    r.upcoming += invoiceTotal(rated.lines);
    r.buyers.add(s.businessId);
  }
  const names = new Map(
    (
      await analyticsDb.product.findMany({
        where: { id: { in: [...new Set([...rows.values()].map((r) => r.productId))] } },
        select: { id: true, name: true },
      })
    ).map((p) => [p.id, p.name]),
  );
  const data = [...rows.values()]
    .map(({ buyers, ...r }) => {
      const total = r.invoiced + r.upcoming;
      return {
        ...r,
        productName: names.get(r.productId) ?? "",
        total,
        totalDecimal: minorToDecimal(BigInt(total), r.currency),
        customers: buyers.size,
      };
    })
    .sort((a, b) => b.month.localeCompare(a.month) || a.productName.localeCompare(b.productName));
  return { object: "revenue" as const, months, data };
}
