import { emitEvent } from "@/lib/events/emit-event";
import type { Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { serializeSubscription } from "./subscription-serialize";

// subscription.* events go to both sides of a subscription: the consumer that pays and, when another business
// sells the product, the provider, about its customer (Stripe Connect's platforms see their accounts' events).

const eventOf = (s: SubscriptionRow, type: string, previousAttributes?: Record<string, unknown>, businessId = s.businessId) => ({
  businessId,
  environment: s.environment,
  type,
  data: { object: "subscription", ...serializeSubscription(s) },
  previousAttributes,
});

/**
 * A subscription event, to the consumer and, when another business sells the product, the same event to the
 * provider about its customer (in the subscription's environment).
 */
export async function emitSubscriptionEvent(
  s: SubscriptionRow,
  type: string,
  tx: Parameters<typeof emitEvent>[1],
  previousAttributes?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  const event = eventOf(s, type, previousAttributes);
  event.data = { ...event.data, ...extra };
  await emitEvent(event, tx);
  if (s.providerId && s.providerId !== s.businessId) await emitEvent({ ...event, businessId: s.providerId }, tx);
}
