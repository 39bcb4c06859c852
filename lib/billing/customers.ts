import { db } from "@/lib/db/client";
import { CURRENT_SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import { now } from "@/lib/clock";
import { notFound } from "@/lib/http/errors";
import { listInMemory } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { Pagination } from "@/lib/http/envelope";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { invoiceLinesFor } from "./close-period";
import { invoiceTotal } from "./rate-events";
import { periodQuantities } from "./period-usage";
import { minorToDecimal } from "./money";
import { serializeInvoice } from "./invoices";
import type { StoredPaymentMethod } from "./payment-provider";

// A provider's customers: the other businesses subscribed to its products, in the caller's environment. What a
// provider may see of them is bounded here: the business's name, its subscriptions to this provider's products,
// their usage and invoices, and a card's brand and last four. Never the customer's keys, its other products or
// subscriptions, logs of its other calls or any other payment detail.

const CURRENT = CURRENT_SUBSCRIPTION_STATUSES;

async function runningPeriod(sub: SubscriptionRow) {
  if (!CURRENT.includes(sub.status)) return { calls: 0, amount: 0, currency: null as string | null };
  const end = new Date(Math.min(now().getTime(), sub.currentPeriodEnd.getTime()));
  const [q, rated] = await Promise.all([
    periodQuantities({ subscriptionId: sub.id, start: sub.currentPeriodStart, end }),
    invoiceLinesFor(sub, sub.currentPeriodStart, end, end, null),
  ]);
  return { calls: q.requests, amount: rated ? invoiceTotal(rated.lines) : 0, currency: rated?.price.currency ?? null };
}

async function customerSubscription(sub: SubscriptionRow) {
  const pm = sub.paymentMethod as StoredPaymentMethod | null;
  const period = await runningPeriod(sub);
  return {
    id: sub.id,
    productId: sub.productId,
    priceId: sub.priceId,
    status: sub.status,
    currentPeriodStart: sub.currentPeriodStart.toISOString(),
    currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
    paymentMethod: pm ? { brand: pm.brand, last4: pm.last4 } : null,
    periodCalls: period.calls,
    periodAmount: period.amount,
    periodAmountDecimal: period.currency ? minorToDecimal(BigInt(period.amount), period.currency) : "0",
    currency: period.currency,
    createdAt: sub.createdAt.toISOString(),
  };
}

const providerScope = (auth: AuthContext) => ({
  providerId: auth.businessId,
  environment: auth.environment,
  NOT: { businessId: auth.businessId },
});

async function customerView(businessId: string, subs: SubscriptionRow[]) {
  const business = await db.business.findUnique({ where: { id: businessId }, select: { id: true, name: true } });
  const subscriptions = await Promise.all(subs.map(customerSubscription));
  return {
    id: businessId,
    object: "customer" as const,
    name: business?.name ?? "",
    subscriptions,
    periodCalls: subscriptions.reduce((n, s) => n + s.periodCalls, 0),
    since: subs.reduce((min, s) => (s.createdAt < min ? s.createdAt : min), subs[0].createdAt).toISOString(),
  };
}

/** Businesses subscribed to the caller's products, newest first, `limit` and `offset` paged. */
export const CUSTOMER_COLLECTION: CollectionSpec = { filters: {}, sortable: ["createdAt"], fields: [] };

/** GET /v1/customers: the businesses subscribed to the caller's products, the one with the newest subscription first. */
export async function listCustomers(
  auth: AuthContext,
  query: CollectionQuery,
): Promise<{ data: Awaited<ReturnType<typeof customerView>>[]; pagination: Pagination }> {
  const subs = await db.subscription.findMany({ where: providerScope(auth), orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const byBusiness = new Map<string, SubscriptionRow[]>();
  for (const s of subs) byBusiness.set(s.businessId, [...(byBusiness.get(s.businessId) ?? []), s]);
  // A customer is a group of subscriptions: the page is cut from the groups, each placed by its newest subscription.
  const page = listInMemory([...byBusiness.keys()], query, (id) => ({ id, createdAt: byBusiness.get(id)![0].createdAt.toISOString() }));
  return { data: await Promise.all(page.data.map((id) => customerView(id, byBusiness.get(id)!))), pagination: page.pagination };
}

async function customerSubscriptions(auth: AuthContext, businessId: string) {
  const subs = /^biz_[0-9A-Za-z]{10,40}$/.test(businessId)
    ? await db.subscription.findMany({ where: { ...providerScope(auth), businessId }, orderBy: { createdAt: "desc" } })
    : [];
  // A business that subscribes to none of this provider's products is nobody's business here.
  if (!subs.length) throw notFound("customer", businessId);
  return subs;
}

/** One customer with its subscriptions to the caller's products and their invoices. */
export async function getCustomer(auth: AuthContext, businessId: string) {
  const subs = await customerSubscriptions(auth, businessId);
  const invoices = await db.invoice.findMany({
    where: { businessId, providerId: auth.businessId, environment: auth.environment },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 24,
  });
  return { ...(await customerView(businessId, subs)), invoices: invoices.map((i) => serializeInvoice(i)) };
}

/** A customer's calls of the caller's products between `from` and `to` (default: the last 30 days), per product. */
export async function customerUsage(auth: AuthContext, businessId: string, range: { from?: string; to?: string }) {
  await customerSubscriptions(auth, businessId);
  const to = range.to ? new Date(range.to) : now();
  const from = range.from ? new Date(range.from) : new Date(to.getTime() - 30 * 86_400_000);
  const rows = await db.usageEvent.groupBy({
    by: ["productId", "statusCode"],
    where: { businessId, providerId: auth.businessId, environment: auth.environment, timestamp: { gte: from, lt: to } },
    _sum: { quantity: true, cost: true },
    _count: { _all: true },
  });
  const byProduct = new Map<string, { productId: string; calls: number; units: number; errors: number; cost: number }>();
  for (const r of rows) {
    const p = byProduct.get(r.productId!) ?? { productId: r.productId!, calls: 0, units: 0, errors: 0, cost: 0 };
    p.calls += r._count._all;
    if (r.statusCode >= 400) p.errors += r._count._all;
    else p.units += r._sum.quantity ?? 0;
    p.cost += r._sum.cost ?? 0;
    byProduct.set(p.productId, p);
  }
  return {
    customer: businessId,
    from: from.toISOString(),
    to: to.toISOString(),
    products: [...byProduct.values()].map((p) => ({ ...p, cost: Math.round(p.cost * 1e9) / 1e9 })),
  };
}
