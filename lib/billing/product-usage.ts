import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { grants } from "@/lib/auth/scopes";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { usageOverview } from "@/lib/usage/usage-overview";
import type { Period } from "@/lib/usage/metrics";
import { consumerSubscriptions, type ConsumerSubscription } from "./marketplace-views";
import { periodQuantities } from "./period-usage";
import { CURRENT, SUBSCRIPTION_COLLECTION } from "./subscriptions";
import { callScope } from "./entitlement";

// A consumer's subscriptions to some products (a product's developer portal shows its own only), each with what
// its plan buys (rate limit, calls per period) and what the running period used and cost so far; and the usage
// charts of those products' calls against that plan's quota.

export interface ProductSubscription extends ConsumerSubscription {
  rateLimit: { limit: number; windowSeconds: number } | null;
  monthlyQuota: number | null;
  /** Units the running period counted against the quota (0 for a subscription that is not current). */
  periodUsed: number;
  current: boolean;
}

/** The caller's subscriptions (this project and environment) to these products: current ones first, then newest. */
export async function productSubscriptions(auth: AuthContext, productIds: string[]): Promise<ProductSubscription[]> {
  if (!productIds.length) return [];
  const subs = await consumerSubscriptions(
    auth,
    parseCollectionQuery(
      new URLSearchParams({ limit: "100", projectId: auth.projectId, productId: productIds.join(","), sort: "-createdAt" }),
      SUBSCRIPTION_COLLECTION,
    ),
  );
  const prices = await db.price.findMany({
    where: { id: { in: [...new Set(subs.map((s) => s.priceId))] } },
    select: { id: true, rateLimit: true, monthlyQuota: true },
  });
  const priceOf = new Map(prices.map((p) => [p.id, p]));
  const withPlans = await Promise.all(
    subs.map(async (s) => {
      const current = CURRENT.includes(s.status);
      const used = current
        ? await periodQuantities({ subscriptionId: s.id, start: new Date(s.currentPeriodStart), end: new Date(s.currentPeriodEnd) })
        : null;
      const price = priceOf.get(s.priceId);
      return {
        ...s,
        rateLimit: (price?.rateLimit as ProductSubscription["rateLimit"]) ?? null,
        monthlyQuota: price?.monthlyQuota ?? null,
        periodUsed: used?.requests ?? 0,
        current,
      };
    }),
  );
  return withPlans.sort((a, b) => Number(b.current) - Number(a.current));
}

/** The Usage charts of these products' calls, against the quota of the caller's current subscription to them. */
export async function productUsageOverview(auth: AuthContext, period: Period, productIds: string[]) {
  const sub = (await productSubscriptions(auth, productIds)).find((s) => s.current);
  if (!sub)
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field: "productId",
      message: "You have no current subscription to this product in this environment.",
      suggestion: "Subscribe to one of its plans first.",
    });
  return usageOverview(auth, period, {
    productIds,
    quota: {
      limit: sub.monthlyQuota,
      used: sub.periodUsed,
      notifyAt: [],
      start: new Date(sub.currentPeriodStart),
      end: new Date(sub.currentPeriodEnd),
    },
  });
}

/** How many of the caller's live keys (this project and environment, not revoked or expired) may call the products. */
export async function keysThatMayCall(auth: AuthContext, productIds: string[]): Promise<number> {
  const keys = await db.apiKey.findMany({
    where: {
      projectId: auth.projectId,
      environment: auth.environment,
      revokedAt: null,
      OR: [{ expiresAt: null }, { expiresAt: { gt: now() } }],
    },
    select: { scopes: true },
    take: 1000,
  });
  return keys.filter((k) => productIds.some((id) => grants(k.scopes as string[], callScope(id)))).length;
}
