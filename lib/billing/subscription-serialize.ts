import type { Subscription as SubscriptionRow } from "@/generated/prisma-sqlite";
import { SUBSCRIPTION_STATUSES } from "@/lib/schemas/billing";
import type { StoredPaymentMethod } from "./payment-provider";

/** As stored on the subscription: amounts as exact decimal strings in the major unit. */
export interface StoredSpendCap {
  amount: string;
  action: "block" | "notify";
  thresholds: number[];
}
export interface StoredAutoRecharge {
  below: string;
  amount: string;
  monthlyLimit: string;
}

// A subscription row as the API shows it: the payment method by brand and last four digits only.
export function serializeSubscription(s: SubscriptionRow) {
  const pm = s.paymentMethod as StoredPaymentMethod | null;
  return {
    id: s.id,
    projectId: s.projectId,
    productId: s.productId,
    providerId: s.providerId || s.businessId,
    priceId: s.priceId,
    status: s.status as (typeof SUBSCRIPTION_STATUSES)[number],
    currentPeriodStart: s.currentPeriodStart.toISOString(),
    currentPeriodEnd: s.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt?.toISOString() ?? null,
    endedAt: s.endedAt?.toISOString() ?? null,
    pendingPriceId: s.pendingPriceId,
    paymentMethod: pm ? { type: pm.type, brand: pm.brand, last4: pm.last4 } : null,
    metadata: (s.metadata as Record<string, string> | null) ?? {},
    spendCap: (s.spendCap as StoredSpendCap | null) ?? null,
    autoRecharge: (s.autoRecharge as StoredAutoRecharge | null) ?? null,
    environment: s.environment,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
