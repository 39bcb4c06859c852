// The event types one can subscribe to (the spec's Events section), and the patterns an endpoint may use.

export const EVENT_TYPES = [
  "product.created",
  "product.updated",
  "product.deleted",
  "subscription.created",
  "subscription.updated",
  "subscription.canceled",
  "subscription.renewed",
  "usage.threshold_reached",
  "resource.created",
  "resource.updated",
  "resource.deleted",
  "api_key.expiring",
  "api_key.rotated",
  "payment.succeeded",
  "payment.failed",
  "payment.action_required",
  "payment.refunded",
  "payment.disputed",
  "payout_account.updated",
  "api.quota_exceeded",
  "usage.amended",
  "billing.spend_threshold",
  "billing.credits_added",
  "billing.auto_recharge_failed",
  "api.rate_limited",
  "enrichment.completed",
  "app.created",
  "app.updated",
  "app.deleted",
] as const;

/** Sent only to the endpoint it tests, whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";

export function isValidPattern(pattern: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) {
    const prefix = pattern.slice(0, -1);
    return EVENT_TYPES.some((t) => t.startsWith(prefix));
  }
  return (EVENT_TYPES as readonly string[]).includes(pattern);
}

export function matches(type: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => p === "*" || p === type || (p.endsWith(".*") && type.startsWith(p.slice(0, -1))));
}
