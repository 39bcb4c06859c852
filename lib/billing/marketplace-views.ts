import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { getCatalogProduct } from "@/lib/products/catalog";
import { isIdOf } from "@/lib/ids";
import { isCurrentSubscription } from "@/lib/schemas/billing";
import { SUBSCRIPTION_COLLECTION, getSubscriptionOrThrow, listSubscriptions, serializeSubscription } from "./subscriptions";
import { upcomingInvoice } from "./invoices";

// What the portal's marketplace pages read beyond the API's own resources: the names that go with the ids of a
// consumer's subscriptions (the product, its plan, the seller) and the running period's amount. A consumer may
// know the name of what it subscribes to and who sells it; nothing else of the provider is read here.

export interface Names {
  products: Map<string, string>;
  prices: Map<string, string>;
  businesses: Map<string, string>;
  slugs: Map<string, string | null>;
}

/**
 * Names of products, prices and businesses by id, in one round of queries. With `viewerBusinessId`, only the
 * viewer's own and public products are named (a key's scope may name any id; it must not reveal a private name).
 */
export async function namesOf(
  ids: { products?: string[]; prices?: string[]; businesses?: string[] },
  viewerBusinessId?: string,
): Promise<Names> {
  const uniq = (list: string[] = []) => [...new Set(list.filter(Boolean))];
  const [products, prices, businesses] = await Promise.all([
    uniq(ids.products).length
      ? db.product.findMany({
          where: {
            id: { in: uniq(ids.products) },
            ...(viewerBusinessId ? { OR: [{ businessId: viewerBusinessId }, { visibility: "public" }] } : {}),
          },
          select: { id: true, name: true, slug: true },
        })
      : [],
    uniq(ids.prices).length ? db.price.findMany({ where: { id: { in: uniq(ids.prices) } }, select: { id: true, name: true } }) : [],
    uniq(ids.businesses).length
      ? db.business.findMany({ where: { id: { in: uniq(ids.businesses) } }, select: { id: true, name: true } })
      : [],
  ]);
  return {
    products: new Map(products.map((p) => [p.id, p.name])),
    slugs: new Map(products.map((p) => [p.id, p.slug])),
    prices: new Map(prices.map((p) => [p.id, p.name])),
    businesses: new Map(businesses.map((b) => [b.id, b.name])),
  };
}

type Subscription = ReturnType<typeof serializeSubscription>;

export interface ConsumerSubscription extends Subscription {
  productName: string;
  productSlug: string | null;
  priceName: string;
  sellerName: string;
  /** The running period rated so far (minor units), null when the subscription is not current. */
  periodAmount: number | null;
  periodAmountDecimal: string | null;
  currency: string | null;
}

async function withDetails(auth: AuthContext, subs: Subscription[]): Promise<ConsumerSubscription[]> {
  const names = await namesOf({
    products: subs.map((s) => s.productId),
    prices: subs.map((s) => s.priceId),
    businesses: subs.map((s) => s.providerId),
  });
  return Promise.all(
    subs.map(async (s) => {
      const current = isCurrentSubscription(s.status);
      const upcoming = current
        ? await upcomingInvoice(auth, s.projectId, s.id).catch((e) => {
            if (e instanceof ApiError && e.status === 404) return null;
            throw e;
          })
        : null;
      return {
        ...s,
        productName: names.products.get(s.productId) ?? s.productId,
        productSlug: names.slugs.get(s.productId) ?? null,
        priceName: names.prices.get(s.priceId) ?? s.priceId,
        sellerName: names.businesses.get(s.providerId) ?? "",
        periodAmount: upcoming?.total ?? null,
        periodAmountDecimal: upcoming?.totalDecimal ?? null,
        currency: upcoming?.currency ?? null,
      };
    }),
  );
}

/**
 * The project's subscriptions in the caller's environment, newest first, with names and the period so far; `query`
 * narrows them (a product's portal asks for its products' only).
 */
export async function consumerSubscriptions(
  auth: AuthContext,
  query = parseCollectionQuery(
    new URLSearchParams({ limit: "100", projectId: auth.projectId, sort: "-createdAt" }),
    SUBSCRIPTION_COLLECTION,
  ),
): Promise<ConsumerSubscription[]> {
  const page = await listSubscriptions(auth, query);
  return withDetails(auth, page.data as Subscription[]);
}

/** One of the caller's subscriptions with names and the period so far (404 for anyone else's). */
export async function consumerSubscription(auth: AuthContext, id: string): Promise<ConsumerSubscription> {
  const row = await getSubscriptionOrThrow(auth, id);
  return (await withDetails(auth, [serializeSubscription(row)]))[0];
}

/** The catalogue product a price belongs to, as the viewer may see it, and the price among its active ones. */
export async function catalogProductOfPrice(priceId: string, viewerBusinessId: string | null) {
  const row = isIdOf("price", priceId) ? await db.price.findUnique({ where: { id: priceId }, select: { productId: true } }) : null;
  if (!row) return null;
  const product = await getCatalogProduct(row.productId, viewerBusinessId ? { businessId: viewerBusinessId } : null).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  });
  const price = product?.prices.find((p) => p.id === priceId);
  return product && price ? { product, price } : null;
}

/** The products the project subscribes to (current or past), for views that split by product: name and gateway slug. */
export async function subscribedProducts(auth: AuthContext): Promise<{ id: string; name: string; slug: string | null }[]> {
  const subs = await db.subscription.findMany({
    where: { businessId: auth.businessId, projectId: auth.projectId, environment: auth.environment },
    select: { productId: true },
    distinct: ["productId"],
  });
  if (!subs.length) return [];
  return db.product.findMany({
    where: { id: { in: subs.map((s) => s.productId) } },
    select: { id: true, name: true, slug: true },
    orderBy: { name: "asc" },
  });
}

/** The project's product calls of the last `days` days per product: calls, units and what they cost (major unit). */
export async function costsByProduct(auth: AuthContext, days = 30) {
  const since = new Date(now().getTime() - days * 86_400_000);
  const rows = await db.usageEvent.groupBy({
    by: ["productId"],
    where: { projectId: auth.projectId, environment: auth.environment, productId: { not: null }, timestamp: { gte: since } },
    _count: { _all: true },
    _sum: { quantity: true, cost: true },
  });
  const names = await db.product.findMany({ where: { id: { in: rows.map((r) => r.productId!) } }, select: { id: true, name: true } });
  const nameOf = new Map(names.map((p) => [p.id, p.name]));
  return rows
    .map((r) => ({
      productId: r.productId!,
      name: nameOf.get(r.productId!) ?? r.productId!,
      calls: r._count._all,
      units: r._sum.quantity ?? 0,
      cost: Math.round((r._sum.cost ?? 0) * 1e9) / 1e9,
    }))
    .sort((a, b) => b.cost - a.cost || a.name.localeCompare(b.name));
}
