// The limiter-store counters money is checked against (lib/billing/spend-guard.ts), shared with the views that read
// what calls in flight have reserved.

const prefix = () => process.env.REDIS_PREFIX ?? "platform:";

/** What prepaid calls of the subscription have burned or reserved, all time, in nanos. */
export const creditsKeyOf = (subscriptionId: string) => `${prefix()}credit-used:${subscriptionId}`;

/** What the period's calls have cost or reserved, in nanos (the spend cap's count). */
export const spendKeyOf = (subscriptionId: string, periodStart: number) => `${prefix()}spend:${subscriptionId}:${periodStart}`;
