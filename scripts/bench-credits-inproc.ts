// What prepaid credits add to a gateway call's own work, in process, without the network's noise: the spend hold,
// the rating and the settle, 200,000 calls each, postpaid (no hold: a null check) and prepaid (two atomic counter
// steps of the memory store), alternated. bench:gateway measures the same through the real server.
// Run: KEY_HASH_SECRET=x DATABASE_URL=file:./data/bench-inproc.db node_modules/.bin/tsx --conditions=react-server scripts/bench-credits-inproc.ts
import { compilePrice } from "@/lib/billing/price-plan";
import { newRatingState } from "@/lib/billing/rate-events";
import { holdSpend, settleSpend } from "@/lib/billing/spend-guard";
import { rateProductCall, type SubscriptionEntry } from "@/lib/billing/rate-request";
import { limiterStore } from "@/lib/limits/limiter";
import { creditsKeyOf } from "@/lib/billing/credit-keys";
const plan = compilePrice({
  id: "p",
  type: "usage",
  currency: "USD",
  amount: 0.001,
  includedQuantity: null,
  minVolume: null,
  tiers: null,
  baseSubscription: null,
  overageRate: null,
  metrics: null,
});
const sub: SubscriptionEntry = {
  subscriptionId: "sub_mb",
  businessId: "b",
  projectId: "p",
  environment: "test",
  productId: "x",
  providerId: "y",
  priceId: "p",
  status: "active",
  unpaidInvoice: null,
  cancelAtPeriodEnd: false,
  plan,
  rateLimit: null,
  monthlyQuota: null,
  billFailedCalls: false,
  limiterOutage: "open",
  prepaid: true,
  maxCostPerCallNanos: null,
  creditNetNanos: 10n ** 15n,
  spendCap: null,
  autoRecharge: null,
  periodStart: Date.now() - 1000,
  periodEnd: Date.now() + 86400000 * 30,
  state: newRatingState(plan),
  calls: 0,
};
// The counter is seeded here once, as a server's first call seeds it from the recorded burns.
await limiterStore().incrementCounter(creditsKeyOf(sub.subscriptionId), 0, async () => 0, 1e9);
const N = 200_000;
for (const withCredits of [false, true, false, true]) {
  sub.prepaid = withCredits;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const h = holdSpend(sub) as any;
    const r = rateProductCall(sub, { at: new Date(), statusCode: 200, bytes: 0, computeMs: 0 }) as any;
    settleSpend(h, r?.nanos ?? null);
  }
  console.log(
    withCredits ? "prepaid " : "postpaid",
    (((performance.now() - t0) * 1000) / N).toFixed(2),
    "µs a call (hold + rate + settle)",
  );
}
process.exit(0);
