// Rates 1,000,000 usage events into an invoice, for each pricing shape, the way the platform does: each event's
// cost from the running totals of its period (lib/billing/rate-request.ts does this per request), then the
// invoice's lines from the period's totals (what the scheduled job writes). Prints events/s (goal: 100,000/s)
// and checks, per shape, that the invoice total equals the sum of the per-event costs to the minor unit.
// A second part rates 1M product calls of 1,000 consumers of 10 providers' products and checks that what the
// consumers are invoiced equals what the providers are credited, to the nano.
// Usage: npm run bench:billing [-- --events 1000000]
import { parseArgs } from "node:util";
import { compilePrice, type PriceLike } from "@/lib/billing/price-plan";
import { newRatingState, rateEvent, ratePeriod, invoiceTotal, zeroQuantities } from "@/lib/billing/rate-events";
import { nanosToDecimal, nanosToMinor, minorToDecimal } from "@/lib/billing/money";
import { rateProductCall, type SubscriptionEntry } from "@/lib/billing/rate-request";

const { values } = parseArgs({ options: { events: { type: "string", default: "1000000" } } });
const N = Number(values.events);
const GOAL = 100_000;

const base = {
  id: "price_bench",
  currency: "USD",
  amount: null,
  includedQuantity: null,
  minVolume: null,
  tiers: null,
  baseSubscription: null,
  overageRate: null,
  metrics: null,
};
const SHAPES: [string, PriceLike][] = [
  ["pay per call (0.0004/request, 10,000 included)", { ...base, type: "usage", amount: 0.0004, includedQuantity: 10_000 }],
  [
    "graduated tiers",
    {
      ...base,
      type: "usage",
      tiers: [
        { upTo: 100_000, amount: 0.001 },
        { upTo: 500_000, amount: 0.0007 },
        { upTo: null, amount: 0.00033 },
      ],
    },
  ],
  [
    "volume tiers",
    {
      ...base,
      type: "usage",
      tiersMode: "volume",
      tiers: [
        { upTo: 100_000, amount: 0.001 },
        { upTo: 500_000, amount: 0.0007 },
        { upTo: null, amount: 0.00033 },
      ],
    },
  ],
  [
    "subscription + overage",
    { ...base, type: "subscription", baseSubscription: { amount: 49, interval: "month", includedQuota: 250_000 }, overageRate: 0.00021 },
  ],
  [
    "metered (requests, GB, 1K tokens, ms)",
    {
      ...base,
      type: "metered",
      metrics: [
        { name: "requests", amount: 0.0001, unit: "request", includedQuantity: 1000 },
        { name: "data transfer", amount: 0.09, unit: "GB" },
        { name: "tokens", amount: 0.002, unit: "1K tokens", includedQuantity: 100 },
        { name: "compute", amount: 0.0000021, unit: "ms" },
      ],
    },
  ],
];

// One stream of events for every shape: sizes and compute times from a fixed pseudo-random sequence.
const bytes = new Int32Array(N);
const compute = new Float64Array(N);
let seed = 42;
for (let i = 0; i < N; i++) {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  bytes[i] = 200 + (seed % 20_000);
  compute[i] = Math.round((seed % 5000) / 10) / 100;
}

console.log(`bench:billing: ${N.toLocaleString("en")} usage events per shape, goal ${GOAL.toLocaleString("en")} events/s\n`);
let failed = false;
for (const [label, price] of SHAPES) {
  const plan = compilePrice(price);
  const state = newRatingState(plan);
  const totals = zeroQuantities();
  const started = process.hrtime.bigint();
  let eventSum = 0n;
  for (let i = 0; i < N; i++) {
    const e = { bytes: bytes[i], computeMs: compute[i] };
    eventSum += rateEvent(state, e);
    totals.requests++;
    totals.bytes += e.bytes;
    totals.tokens += e.bytes;
    totals.compute += Math.round(e.computeMs * 100);
  }
  const lines = ratePeriod(plan, totals, { start: new Date("2026-01-01T00:00:00Z"), end: new Date("2026-02-01T00:00:00Z") });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const perSecond = Math.round(N / seconds);
  // The invoice charges the usage lines plus fixed fees; the events carry the usage part.
  const fixed = lines.filter((l) => l.type === "subscription").reduce((s, l) => s + l.amount, 0);
  const usageLines = lines.filter((l) => l.type === "usage");
  const usageTotal = invoiceTotal(usageLines);
  // The lines' exact amounts add up to the events' costs; the charged total is that sum to the minor unit.
  const lineNanos = usageLines.reduce((sum, l) => {
    const [w, f = ""] = l.exactAmount.split(".");
    return sum + BigInt(w) * 1_000_000_000n + BigInt((f + "000000000").slice(0, 9));
  }, 0n);
  const eventsMinor = Number(nanosToMinor(eventSum, "USD"));
  const ok = eventSum === lineNanos && eventsMinor === usageTotal;
  failed ||= !ok;
  console.log(`${label}`);
  console.log(`  ${perSecond.toLocaleString("en")} events/s (${seconds.toFixed(2)} s)  ${perSecond >= GOAL ? "meets" : "BELOW"} the goal`);
  console.log(
    `  invoice total ${minorToDecimal(BigInt(usageTotal + fixed), "USD")} USD = usage ${minorToDecimal(BigInt(usageTotal), "USD")} + fixed ${minorToDecimal(BigInt(fixed), "USD")}; ` +
      `sum of per-event costs ${nanosToDecimal(eventSum)} → ${minorToDecimal(BigInt(eventsMinor), "USD")}  ${ok ? "equal" : "DIFFERENT"}`,
  );
}
// Cross-account: 1,000 consumers subscribed to 10 providers' products (the shapes above, two products each),
// 1M product calls spread over them, each rated by its consumer's subscription through the same function the
// gateway and key verification use (rateProductCall), and credited to the product's provider as it is rated.
// Then every subscription's invoice is made from its period totals (what the job writes). The sum of the consumer
// invoices' exact amounts must equal the providers' credited revenue to the nano, and to the minor unit.
const CONSUMERS = 1000;
const PRODUCTS = 10;
const periodStart = Date.parse("2026-01-01T00:00:00Z");
const periodEnd = Date.parse("2026-02-01T00:00:00Z");
const products = Array.from({ length: PRODUCTS }, (_, i) => ({
  productId: `prod_bench${i}`,
  providerId: `biz_provider${i}`,
  plan: compilePrice({ ...SHAPES[i % SHAPES.length][1], id: `price_bench${i}` }),
}));
const subs: SubscriptionEntry[] = Array.from({ length: CONSUMERS }, (_, c) => {
  const p = products[c % PRODUCTS];
  return {
    subscriptionId: `sub_bench${c}`,
    businessId: `biz_consumer${c}`,
    projectId: `proj_consumer${c}`,
    environment: "production",
    productId: p.productId,
    providerId: p.providerId,
    priceId: p.plan.priceId,
    status: "active",
    unpaidInvoice: null,
    cancelAtPeriodEnd: false,
    plan: p.plan,
    rateLimit: null,
    monthlyQuota: null,
    billFailedCalls: false,
    limiterOutage: "open",
    prepaid: false,
    maxCostPerCallNanos: null,
    creditNetNanos: 0n,
    spendCap: null,
    autoRecharge: null,
    periodStart,
    periodEnd,
    state: newRatingState(p.plan),
    calls: 0,
  };
});
const totalsBySub = subs.map(() => zeroQuantities());
const credited = new Map<string, bigint>();
const at = new Date(periodStart + 86_400_000);
const startedX = process.hrtime.bigint();
for (let i = 0; i < N; i++) {
  // Consumers call at different rates: a skewed pick, so some cross their allowance and tiers and most do not.
  const c = (i * 7919 + ((i * i) % 997)) % CONSUMERS;
  const sub = subs[c];
  const e = { at, statusCode: 200, bytes: bytes[i], computeMs: compute[i] };
  const rated = rateProductCall(sub, e);
  const cost = rated instanceof Promise ? await rated : rated;
  if (cost) credited.set(sub.providerId, (credited.get(sub.providerId) ?? 0n) + cost.nanos);
  const t = totalsBySub[c];
  t.requests++;
  t.bytes += e.bytes;
  t.tokens += e.bytes;
  t.compute += Math.round(e.computeMs * 100);
}
let consumerNanos = 0n;
let consumerMinor = 0;
let fixedNanos = 0n;
for (let c = 0; c < CONSUMERS; c++) {
  const lines = ratePeriod(subs[c].plan, totalsBySub[c], { start: new Date(periodStart), end: new Date(periodEnd) });
  consumerMinor += invoiceTotal(lines);
  for (const l of lines) {
    const [w, f = ""] = l.exactAmount.split(".");
    const n = BigInt(w) * 1_000_000_000n + BigInt((f + "000000000").slice(0, 9));
    consumerNanos += n;
    // Fixed fees are credited when the invoice is made, not per call.
    if (l.type !== "usage") {
      fixedNanos += n;
      credited.set(subs[c].providerId, (credited.get(subs[c].providerId) ?? 0n) + n);
    }
  }
}
const secondsX = Number(process.hrtime.bigint() - startedX) / 1e9;
const perSecondX = Math.round(N / secondsX);
const providerNanos = [...credited.values()].reduce((a, b) => a + b, 0n);
const okX = consumerNanos === providerNanos;
failed ||= !okX;
console.log(`cross-account: ${N.toLocaleString("en")} calls from ${CONSUMERS.toLocaleString("en")} consumers of ${PRODUCTS} products`);
console.log(
  `  ${perSecondX.toLocaleString("en")} events/s rated and invoiced (${secondsX.toFixed(2)} s)  ${perSecondX >= GOAL ? "meets" : "BELOW"} the goal`,
);
console.log(
  `  consumer invoices ${nanosToDecimal(consumerNanos)} USD (charged ${minorToDecimal(BigInt(consumerMinor), "USD")}, fixed fees ${nanosToDecimal(fixedNanos)}); ` +
    `provider revenue ${nanosToDecimal(providerNanos)} USD  ${okX ? "equal to the nano" : "DIFFERENT"}`,
);
process.exit(failed ? 1 : 0);
