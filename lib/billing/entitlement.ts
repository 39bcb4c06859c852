import { grants } from "@/lib/auth/scopes";
import { NativeDate } from "@/lib/native-date";
import {
  currentSubscriptions,
  primeSubscription,
  quotaRemaining,
  subscriptionsReadSince,
  type ProjectEntry,
  type SubscriptionEntry,
} from "./rate-request";

// Whether a key may call a product, and under which subscription, price, limits and remaining quota: the one
// question the gateway, key verification and meter events ask. Answered from the per-process subscription cache
// (lib/billing/rate-request.ts), so after a project's first call it is a map lookup, not a query. A refusal is
// confirmed by a read begun after the call arrived, so what another node granted a moment ago (a subscription, a
// paid invoice) is served at once there too; what it took away reaches this node through the bus, within its bound.

export type EntitlementCode = "VALID" | "PRODUCT_NOT_SUBSCRIBED" | "SUBSCRIPTION_INACTIVE" | "SUBSCRIPTION_UNPAID" | "QUOTA_EXCEEDED";

export interface Entitlement {
  allowed: boolean;
  code: EntitlementCode;
  /** The HTTP status a refusal answers with (200 when allowed). */
  status: number;
  message: string;
  subscription: SubscriptionEntry | null;
  /** Units left in the period under the plan's quota; null when the plan has none. */
  quotaRemaining: number | null;
  /** SUBSCRIPTION_UNPAID: the invoice to pay and the portal page that pays it (a path on this deployment). */
  unpaid?: { invoice: string; amountDue: number; currency: string; payUrl: string };
}

/** Where the consumer pays an unpaid subscription's invoice: its subscription's page in the portal. */
export const payPath = (subscriptionId: string) => `/portal/subscriptions/${subscriptionId}`;

export interface CallerKey {
  projectId: string;
  environment: string;
  scopes: readonly string[];
}

/** The scope a key needs to call a product: `call:<product id>`, or `call:*` / `*` for every product. */
export const callScope = (productId: string) => `call:${productId}`;

const refuse = (code: EntitlementCode, status: number, message: string, subscription: SubscriptionEntry | null = null): Entitlement => ({
  allowed: false,
  code,
  status,
  message,
  subscription,
  quotaRemaining: null,
});

function decide(productId: string, byProduct: Map<string, SubscriptionEntry>, at: number): Entitlement | SubscriptionEntry {
  const sub = byProduct.get(productId);
  if (!sub) return refuse("PRODUCT_NOT_SUBSCRIBED", 403, "The key's project does not subscribe to this product.");
  // past_due: a payment failed and is being retried; the calls are served meanwhile, as Stripe's subscriptions are.
  if (sub.status === "unpaid") return unpaidRefusal(sub);
  if (sub.status !== "active" && sub.status !== "past_due")
    return refuse("SUBSCRIPTION_INACTIVE", 403, "The subscription is canceled.", sub);
  if (sub.cancelAtPeriodEnd && at >= sub.periodEnd) return refuse("SUBSCRIPTION_INACTIVE", 403, "The subscription has ended.", sub);
  return sub;
}

function unpaidRefusal(sub: SubscriptionEntry): Entitlement {
  const inv = sub.unpaidInvoice;
  const which = inv ? `invoice ${inv.number} (${inv.id})` : "its last invoice";
  return {
    ...refuse(
      "SUBSCRIPTION_UNPAID",
      402,
      `The subscription is unpaid: every charge of ${which} failed. Pay it to call the product again.`,
      sub,
    ),
    unpaid: inv ? { invoice: inv.id, amountDue: inv.amountDue, currency: inv.currency, payUrl: payPath(sub.subscriptionId) } : undefined,
  };
}

function withQuota(sub: SubscriptionEntry, at: number): Entitlement {
  const remaining = quotaRemaining(sub, at);
  if (remaining === 0) return { ...refuse("QUOTA_EXCEEDED", 429, "The plan's quota for this period is used up.", sub), quotaRemaining: 0 };
  return {
    allowed: true,
    code: "VALID",
    status: 200,
    message: "The key may call this product.",
    subscription: sub,
    quotaRemaining: remaining,
  };
}

/** The entitlement of `key` to call `productId` at `at` (ms); a plain value once the project is cached. */
export function entitlementFor(key: CallerKey, productId: string, at: number): Entitlement | Promise<Entitlement> {
  if (!grants(key.scopes, callScope(productId)))
    return refuse("PRODUCT_NOT_SUBSCRIBED", 403, "This key is limited to other products (its scopes do not include call:<product>).");
  const arrived = NativeDate.now();
  const finish = (entry: ProjectEntry): Entitlement | Promise<Entitlement> => {
    const d = decide(productId, entry.byProduct, at);
    if (!("subscriptionId" in d)) {
      if (entry.readAt >= arrived) return d;
      const confirmed = subscriptionsReadSince(key.projectId, key.environment, arrived);
      const again = (e: ProjectEntry) => (e.readAt >= arrived ? finish(e) : d);
      return confirmed instanceof Promise ? confirmed.then(again) : again(confirmed);
    }
    // The quota needs the period's count, read once per process and subscription.
    if (d.monthlyQuota !== null && d.state === null) return primeSubscription(d).then(() => withQuota(d, at));
    return withQuota(d, at);
  };
  const cached = currentSubscriptions(key.projectId, key.environment);
  return cached instanceof Promise ? cached.then(finish) : finish(cached);
}
