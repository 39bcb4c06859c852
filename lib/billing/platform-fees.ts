import { db } from "@/lib/db/client";
import { minorToDecimal } from "./money";
import { feeAfterRefund } from "./payment-parties";

// The platform's own income (issue 60): the application fees it kept on the destination charges of a month, per
// currency and per seller, with what refunds gave back. A report for the deployment's administrator
// (GET /api/admin/platform-fees, lib/server/platform-fees-endpoint.ts), from the same payments as the sellers'
// earnings, so the two add up: each seller's fee here is the sum of the platformFee of its earnings.

interface FeeTotals {
  payments: number;
  gross: number;
  refunded: number;
  fees: number;
  feesRefunded: number;
  feesKept: number;
}

const zero = (): FeeTotals => ({ payments: 0, gross: 0, refunded: 0, fees: 0, feesRefunded: 0, feesKept: 0 });

export async function platformFeeReport(month: string) {
  const [y, m] = month.split("-").map(Number);
  const from = new Date(Date.UTC(y, m - 1, 1));
  const to = new Date(Date.UTC(y, m, 1));
  const payments = await db.payment.findMany({
    where: { status: "succeeded", applicationFee: { not: null }, createdAt: { gte: from, lt: to } },
    select: { invoiceId: true, currency: true, amount: true, amountRefunded: true, applicationFee: true },
  });
  const invoices = await db.invoice.findMany({
    where: { id: { in: [...new Set(payments.map((p) => p.invoiceId))] } },
    select: { id: true, providerId: true },
  });
  const sellerOf = new Map(invoices.map((i) => [i.id, i.providerId ?? ""]));
  const byCurrency = new Map<string, FeeTotals>();
  const bySeller = new Map<string, FeeTotals & { sellerId: string; currency: string }>();
  for (const p of payments) {
    const fee = p.applicationFee ?? 0;
    const kept = feeAfterRefund(fee, p.amount, p.amountRefunded);
    const sellerId = sellerOf.get(p.invoiceId) ?? "";
    const key = `${sellerId}|${p.currency}`;
    if (!byCurrency.has(p.currency)) byCurrency.set(p.currency, zero());
    if (!bySeller.has(key)) bySeller.set(key, { ...zero(), sellerId, currency: p.currency });
    for (const t of [byCurrency.get(p.currency)!, bySeller.get(key)!]) {
      t.payments++;
      t.gross += p.amount;
      t.refunded += p.amountRefunded;
      t.fees += fee;
      t.feesRefunded += fee - kept;
      t.feesKept += kept;
    }
  }
  const names = new Map(
    (
      await db.business.findMany({ where: { id: { in: [...bySeller.values()].map((s) => s.sellerId) } }, select: { id: true, name: true } })
    ).map((b) => [b.id, b.name]),
  );
  const money = (minor: number, currency: string) => minorToDecimal(BigInt(minor), currency);
  return {
    object: "platform_fee_report",
    month,
    totals: [...byCurrency.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, t]) => ({ currency, ...t, feesKeptDecimal: money(t.feesKept, currency) })),
    sellers: [...bySeller.values()]
      .sort((a, b) => b.feesKept - a.feesKept || a.sellerId.localeCompare(b.sellerId))
      .map((s) => ({ ...s, sellerName: names.get(s.sellerId) ?? "", feesKeptDecimal: money(s.feesKept, s.currency) })),
  };
}
