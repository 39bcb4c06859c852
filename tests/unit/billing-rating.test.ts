// Money and rating: exact amounts, every pricing shape of the spec, graduated against volume tiers, and the
// property invoices rest on: the costs of a period's events add up to its invoice lines exactly.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  hasAtMostNineDecimals,
  minorToDecimal,
  nanosToDecimal,
  nanosToMinor,
  toNanos,
  nanosToNumber,
  numberToNanos,
} from "@/lib/billing/money";
import { compilePrice, cumulativeCost, metricMeasure, type PriceLike } from "@/lib/billing/price-plan";
import {
  newRatingState,
  rateEvent,
  rateEventParts,
  ratePeriod,
  invoiceTotal,
  zeroQuantities,
  type Quantities,
} from "@/lib/billing/rate-events";

const price = (p: Partial<PriceLike>): PriceLike => ({
  id: "price_x",
  type: "usage",
  currency: "USD",
  amount: null,
  includedQuantity: null,
  minVolume: null,
  tiers: null,
  baseSubscription: null,
  overageRate: null,
  metrics: null,
  ...p,
});
const period = { start: new Date("2026-01-01T00:00:00Z"), end: new Date("2026-02-01T00:00:00Z") };
const q = (over: Partial<Quantities>): Quantities => ({ ...zeroQuantities(), ...over });
const E = { bytes: 1000, computeMs: 1.5 };

test("amounts become exact nanos from the decimal they were written as", () => {
  assert.equal(toNanos(0.1), 100_000_000n);
  assert.equal(toNanos(0.001), 1_000_000n);
  assert.equal(toNanos(0.000000001), 1n);
  assert.equal(toNanos(1e-7), 100n);
  assert.equal(toNanos(49.99), 49_990_000_000n);
  // 0.1 + 0.2 in floats is 0.30000000000000004; in nanos it is 0.3.
  assert.equal(nanosToDecimal(toNanos(0.1) + toNanos(0.2)), "0.3");
  assert.equal(nanosToDecimal(1_500_000n), "0.0015");
  assert.equal(nanosToDecimal(12_000_000_000n), "12");
  assert.equal(hasAtMostNineDecimals(0.123456789), true);
  assert.equal(hasAtMostNineDecimals(0.1234567891), false);
  assert.equal(numberToNanos(nanosToNumber(123_456_789_012n)), 123_456_789_012n);
});

test("rounding to minor units is half up, per currency exponent", () => {
  assert.equal(nanosToMinor(5_000_000n, "USD"), 1n, "half a cent rounds up");
  assert.equal(nanosToMinor(4_999_999n, "USD"), 0n);
  assert.equal(nanosToMinor(12_345_000_000n, "EUR"), 1235n);
  assert.equal(nanosToMinor(499_999_999n, "JPY"), 0n, "yen has no minor unit");
  assert.equal(nanosToMinor(500_000_000n, "JPY"), 1n);
  assert.equal(minorToDecimal(1234n, "USD"), "12.34");
  assert.equal(minorToDecimal(5n, "USD"), "0.05");
  assert.equal(minorToDecimal(1234n, "JPY"), "1234");
});

test("pay per call: amount per request after the included quantity", () => {
  const plan = compilePrice(price({ amount: 0.001, includedQuantity: 1000 }));
  const state = newRatingState(plan);
  const costs = Array.from({ length: 1500 }, () => rateEvent(state, E));
  assert.ok(
    costs.slice(0, 1000).every((c) => c === 0n),
    "the first 1000 are free",
  );
  assert.ok(
    costs.slice(1000).every((c) => c === 1_000_000n),
    "then 0.001 each",
  );
  const [line] = ratePeriod(plan, q({ requests: 1500 }), period);
  assert.equal(line.quantity, 1500);
  assert.equal(line.includedQuantity, 1000);
  assert.equal(line.billableQuantity, 500);
  assert.equal(line.unitAmount, "0.001");
  assert.equal(line.exactAmount, "0.5");
  assert.equal(line.amount, 50);
});

test("minVolume is a commitment: a quieter period is topped up to it at the unit price", () => {
  const plan = compilePrice(price({ amount: 0.01, minVolume: 1000 }));
  const lines = ratePeriod(plan, q({ requests: 400 }), period);
  assert.equal(lines.length, 2);
  assert.equal(lines[1].type, "minimum");
  assert.equal(lines[1].quantity, 600);
  assert.equal(invoiceTotal(lines), 1000, "1000 calls at 1 cent");
  assert.equal(ratePeriod(plan, q({ requests: 1200 }), period).length, 1, "no top-up above the minimum");
});

const TIERS = [
  { upTo: 1000, amount: 0.01 },
  { upTo: 5000, amount: 0.005 },
  { upTo: null, amount: 0.001 },
];

test("graduated tiers (the default): each request at the rate of the tier it falls in", () => {
  const plan = compilePrice(price({ tiers: TIERS }));
  assert.equal(plan.usage[0].tiersMode, "graduated");
  // 1000 × 0.01 + 4000 × 0.005 + 1000 × 0.001 = 10 + 20 + 1 = 31
  const [line] = ratePeriod(plan, q({ requests: 6000 }), period);
  assert.equal(line.exactAmount, "31");
  assert.equal(line.amount, 3100);
  assert.deepEqual(
    line.tiers!.map((t) => [t.upTo, t.quantity, t.amount]),
    [
      [1000, 1000, "10"],
      [5000, 4000, "20"],
      [null, 1000, "1"],
    ],
  );
  assert.equal(line.unitAmount, null);
  assert.equal(line.tiersMode, "graduated");
});

test("volume tiers: every request at the rate of the tier the period's total falls in", () => {
  const plan = compilePrice(price({ tiers: TIERS, tiersMode: "volume" }));
  const at = (n: number) => ratePeriod(plan, q({ requests: n }), period)[0];
  assert.equal(at(1000).exactAmount, "10", "1000 × 0.01");
  assert.equal(at(1001).exactAmount, "5.005", "1001 × 0.005: crossing a tier makes the whole period cheaper");
  assert.equal(at(6000).exactAmount, "6", "6000 × 0.001");
  assert.deepEqual(
    at(6000).tiers!.map((t) => t.quantity),
    [0, 0, 6000],
  );
  // The event that crosses into the cheaper tier has a negative cost; the sum stays exact.
  const state = newRatingState(plan);
  let sum = 0n;
  const costs: bigint[] = [];
  for (let i = 0; i < 1001; i++) {
    const c = rateEvent(state, E);
    costs.push(c);
    sum += c;
  }
  assert.ok(costs[1000] < 0n);
  assert.equal(nanosToDecimal(sum), "5.005");
});

test("graduated and volume agree inside the first tier and differ past it", () => {
  const g = compilePrice(price({ tiers: TIERS }));
  const v = compilePrice(price({ tiers: TIERS, tiersMode: "volume" }));
  for (const n of [0, 1, 500, 1000]) assert.equal(cumulativeCost(g.usage[0], n), cumulativeCost(v.usage[0], n));
  assert.notEqual(cumulativeCost(g.usage[0], 2000), cumulativeCost(v.usage[0], 2000));
});

test("subscription plus overage: a base fee and the requests beyond the included quota", () => {
  const plan = compilePrice(
    price({ type: "subscription", baseSubscription: { amount: 49, interval: "month", includedQuota: 10_000 }, overageRate: 0.002 }),
  );
  const lines = ratePeriod(plan, q({ requests: 12_500 }), period);
  assert.deepEqual(
    lines.map((l) => [l.type, l.quantity, l.amount]),
    [
      ["subscription", 1, 4900],
      ["usage", 12_500, 500],
    ],
  );
  assert.equal(invoiceTotal(lines), 5400);
  const prorated = ratePeriod(plan, q({ requests: 0 }), { ...period, proration: [1n, 3n] });
  assert.equal(prorated[0].exactAmount, "16.333333333");
  assert.equal(prorated[0].amount, 1633);
  assert.equal(
    compilePrice(price({ type: "subscription", baseSubscription: { amount: 490, interval: "year", includedQuota: 0 } })).interval,
    "year",
  );
});

test("metered resources: requests, data transfer in bytes and tokens, each with its allowance", () => {
  const plan = compilePrice(
    price({
      type: "metered",
      metrics: [
        { name: "requests", amount: 0.001, unit: "request", includedQuantity: 1000 },
        { name: "data transfer", amount: 0.09, unit: "GB" },
        { name: "tokens", amount: 0.002, unit: "1K tokens", includedQuantity: 1 },
      ],
    }),
  );
  assert.deepEqual(
    plan.usage.map((c) => [c.measure, c.unitSize, c.included]),
    [
      ["requests", 1, 1000],
      ["bytes", 1e9, 0],
      ["tokens", 4000, 4000],
    ],
  );
  const lines = ratePeriod(plan, q({ requests: 3000, bytes: 2e9, tokens: 2e9 }), period);
  assert.deepEqual(
    lines.map((l) => l.exactAmount),
    ["2", "0.18", "999.998"],
  );
  assert.deepEqual(
    lines.map((l) => l.amount),
    [200, 18, 99_999 + 1],
  );
});

test("metric units are read as bytes, tokens, compute or requests", () => {
  assert.deepEqual(metricMeasure("bandwidth", "MB"), { measure: "bytes", unitSize: 1e6 });
  assert.deepEqual(metricMeasure("egress", "1 GiB"), { measure: "bytes", unitSize: 1024 ** 3 });
  assert.deepEqual(metricMeasure("llm", "1M tokens"), { measure: "tokens", unitSize: 4e6 });
  assert.deepEqual(metricMeasure("cpu", "second"), { measure: "compute", unitSize: 100_000 });
  assert.deepEqual(metricMeasure("api calls", "1000 calls"), { measure: "requests", unitSize: 1000 });
  assert.deepEqual(metricMeasure("seats", "seat"), { measure: "none", unitSize: 1 });
});

test("for every shape, the costs of a period's events add up to its lines exactly", () => {
  const shapes: PriceLike[] = [
    price({ amount: 0.0007, includedQuantity: 37 }),
    price({ tiers: TIERS }),
    price({ tiers: TIERS, tiersMode: "volume", includedQuantity: 10 }),
    price({ type: "subscription", baseSubscription: { amount: 10, interval: "month", includedQuota: 100 }, overageRate: 0.0033 }),
    price({
      type: "metered",
      metrics: [
        { name: "requests", amount: 0.001, unit: "request", includedQuantity: 5 },
        { name: "transfer", amount: 0.09, unit: "GB" },
        { name: "tokens", amount: 0.5, unit: "1M tokens" },
        { name: "compute", amount: 0.00001, unit: "ms" },
      ],
    }),
  ];
  for (const shape of shapes) {
    const plan = compilePrice(shape);
    const state = newRatingState(plan);
    const sums = plan.usage.map(() => 0n);
    const totals = zeroQuantities();
    let seed = 7;
    for (let i = 0; i < 7000; i++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const e = { bytes: seed % 50_000, computeMs: (seed % 997) / 100 };
      rateEventParts(state, e).forEach((c, j) => {
        sums[j] += c;
      });
      totals.requests += 1;
      totals.bytes += e.bytes;
      totals.tokens += e.bytes;
      totals.compute += Math.round(e.computeMs * 100);
    }
    const lines = ratePeriod(plan, totals, period);
    const usageLines = lines.filter((l) => l.type === "usage");
    usageLines.forEach((l, j) => assert.equal(nanosToDecimal(sums[j]), l.exactAmount, `${shape.type} line ${l.id}`));
    const fixed = plan.fixed.reduce((s, f) => s + f.amountNanos, 0n);
    assert.equal(
      invoiceTotal(lines),
      Number(nanosToMinor(sums.reduce((s, x) => s + x, 0n) + fixed, "USD")),
      `${shape.type}: the total is the events' sum to the minor unit`,
    );
  }
});

test("a rating state started from the period so far continues where it stopped", () => {
  const plan = compilePrice(price({ tiers: TIERS }));
  const fresh = newRatingState(plan);
  for (let i = 0; i < 1000; i++) rateEvent(fresh, E);
  const resumed = newRatingState(plan, q({ requests: 1000 }));
  assert.equal(rateEvent(fresh, E), rateEvent(resumed, E));
  assert.equal(rateEvent(resumed, E), 5_000_000n);
});

test("lines are rounded so that they add up to the exact total rounded half up", async () => {
  const { allocateMinor } = await import("@/lib/billing/money");
  // 0.004 + 0.004 + 0.004 = 0.012 → 1 cent in all, not 0 + 0 + 0.
  assert.deepEqual(allocateMinor([4_000_000n, 4_000_000n, 4_000_000n], "USD"), [1n, 0n, 0n]);
  assert.deepEqual(allocateMinor([1_006_000_000n, 2_007_000_000n], "USD"), [100n, 201n], "301.3 cents: the larger remainder gets the cent");
  assert.deepEqual(allocateMinor([12_345_000_000n], "USD"), [1235n], "one line: half up");
  const plan = compilePrice(
    price({
      type: "metered",
      metrics: [
        { name: "a requests", amount: 0.004, unit: "request" },
        { name: "b requests", amount: 0.004, unit: "request" },
        { name: "c requests", amount: 0.004, unit: "request" },
      ],
    }),
  );
  const lines = ratePeriod(plan, q({ requests: 1 }), period);
  assert.deepEqual(
    lines.map((l) => l.amount),
    [1, 0, 0],
  );
  assert.equal(invoiceTotal(lines), 1);
});
