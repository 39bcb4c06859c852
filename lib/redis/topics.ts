// The event bus's topics (lib/redis/bus.ts), named once: a writer in one domain and a cache in another meet here,
// below both, instead of each spelling the string.

/** A subscription or a price changed: lib/billing's rating and entitlement cache reads it again. The message is
 * `{projectId}|{environment}`, or `*` for every project (a plan's price or limits changed). */
export const BILLING_CHANGED = "billing-changed";
