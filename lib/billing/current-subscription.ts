import { db } from "@/lib/db/client";
import type { AuthContext } from "@/lib/http/auth-context";
import { CURRENT, serializeSubscription } from "./subscriptions";

// A consumer's current subscription (active or past due) to one product in its project and environment: what a
// product's developer portal asks before it offers keys or try-it, and what its subscribe page shows instead of the
// form when the visitor has one already. At most one exists (the subscription's unique current slot).

export async function currentSubscriptionTo(auth: AuthContext, productId: string) {
  const row = await db.subscription.findFirst({
    where: { businessId: auth.businessId, projectId: auth.projectId, environment: auth.environment, productId, status: { in: CURRENT } },
  });
  if (!row) return null;
  const price = await db.price.findUnique({ where: { id: row.priceId }, select: { name: true } });
  return { ...serializeSubscription(row), priceName: price?.name ?? row.priceId };
}
