import "server-only";
import { db } from "@/lib/db/client";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { serializeInvoice } from "@/lib/billing/invoices";

// The invoices of one subscription as its consumer's page lists them (issue 60): newest first, each with its
// payments (attempt, outcome, failure code) and refunds, as GET /v1/invoices/{id} shows them, read in three
// queries rather than one retrieval per invoice. Callers pass a subscription the viewer holds (consumerSubscription).

export type SubscriptionInvoice = ReturnType<typeof serializeInvoice>;

export async function subscriptionInvoices(
  auth: AuthContext,
  subscriptionId: string,
  limit = 24,
): Promise<{ invoices: SubscriptionInvoice[]; hasMore: boolean }> {
  const rows = await db.invoice.findMany({
    where: { ...tenantWhere(auth), subscriptionId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
  });
  const shown = rows.slice(0, limit);
  const ids = shown.map((r) => r.id);
  const [payments, refunds] = ids.length
    ? await Promise.all([
        db.payment.findMany({ where: { invoiceId: { in: ids } }, orderBy: { createdAt: "asc" } }),
        db.refund.findMany({ where: { invoiceId: { in: ids } }, orderBy: { createdAt: "asc" } }),
      ])
    : [[], []];
  return {
    invoices: shown.map((r) =>
      serializeInvoice({
        ...r,
        payments: payments.filter((p) => p.invoiceId === r.id),
        refunds: refunds.filter((f) => f.invoiceId === r.id),
      }),
    ),
    hasMore: rows.length > limit,
  };
}
