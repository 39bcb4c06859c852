import { toNanos } from "./money";

// A price (any shape of the spec) compiled into the components an invoice is made of. Each usage component
// meters one measure of a usage event and has a cumulative cost function C(q): the exact cost, in nanos, of the
// first q base units of the period. The cost of one event is C(after) - C(before), so the costs of a period's
// events always add up to C(total), the line's amount, exactly, whatever the price's shape.

export type Measure = "requests" | "bytes" | "tokens" | "compute" | "measured" | "none";
export type TiersMode = "graduated" | "volume";
export const DEFAULT_TIERS_MODE: TiersMode = "graduated";

export interface PriceLike {
  id: string;
  type: string;
  currency: string;
  amount: number | null;
  includedQuantity: number | null;
  minVolume: number | null;
  tiers: unknown;
  tiersMode?: string | null;
  baseSubscription: unknown;
  overageRate: number | null;
  metrics: unknown;
  name?: string;
}

export interface Tier {
  upTo: number | null;
  unitNanos: bigint;
}

export interface UsageComponent {
  key: string;
  kind: "usage";
  description: string;
  measure: Measure;
  /** Unit label as the price states it ("request", "GB", "1K tokens"). */
  unit: string;
  /** Base units of the measure in one priced unit (1 GB = 10^9 bytes; a token is 4 bytes, see metricMeasure). */
  unitSize: number;
  /** Free base units per period. */
  included: number;
  unitNanos: bigint;
  tiers: Tier[] | null;
  tiersMode: TiersMode;
  /** A measured metric's name: the key of its quantity in a usage event's `quantities` (measure "measured"). */
  metricKey?: string;
  /** Where a measured metric's quantity is read from a gateway call (lib/gateway/answer-meter.ts). */
  from?: MetricSourceSpec;
}

export type MetricSourceSpec =
  | { source: "response.json"; path: string }
  | { source: "response.sse"; path: string; aggregate?: "last" | "sum" }
  | { source: "response.header"; name: string }
  | { source: "request.json"; path: string };

export interface FixedComponent {
  key: string;
  kind: "fixed";
  description: string;
  amountNanos: bigint;
  interval: "month" | "year";
}

export interface PricePlan {
  priceId: string;
  currency: string;
  interval: "month" | "year";
  fixed: FixedComponent[];
  usage: UsageComponent[];
  /** A usage price's minimum volume: a period with fewer billable calls is billed for this many. */
  minVolume: number | null;
}

/** Cumulative cost in nanos of the first q base units (q already an integer ≥ 0). */
export function cumulativeCost(c: UsageComponent, q: number): bigint {
  const billable = q - c.included;
  if (billable <= 0) return 0n;
  if (!c.tiers) return (BigInt(billable) * c.unitNanos) / BigInt(c.unitSize);
  if (c.tiersMode === "volume") {
    // Volume: every unit at the rate of the tier the whole quantity falls in (Stripe's tiers_mode=volume).
    const tier = c.tiers.find((t) => t.upTo === null || billable <= t.upTo) ?? c.tiers[c.tiers.length - 1];
    return BigInt(billable) * tier.unitNanos;
  }
  // Graduated: each unit at the rate of the tier it falls in (Stripe's tiers_mode=graduated).
  let total = 0n;
  let from = 0;
  for (const t of c.tiers) {
    const to = t.upTo === null ? billable : Math.min(billable, t.upTo);
    if (to > from) total += BigInt(to - from) * t.unitNanos;
    if (t.upTo === null || billable <= t.upTo) break;
    from = t.upTo;
  }
  return total;
}

/** Per tier: the units billed in it and their cost (the tier breakdown of an invoice line). */
export function tierBreakdown(c: UsageComponent, q: number) {
  if (!c.tiers) return null;
  const billable = Math.max(0, q - c.included);
  let from = 0;
  const volumeTier = c.tiers.find((t) => t.upTo === null || billable <= t.upTo) ?? c.tiers[c.tiers.length - 1];
  return c.tiers.map((t) => {
    let quantity: number;
    if (c.tiersMode === "volume") quantity = t === volumeTier ? billable : 0;
    else quantity = Math.max(0, (t.upTo === null ? billable : Math.min(billable, t.upTo)) - from);
    from = t.upTo ?? from;
    return { upTo: t.upTo, quantity, unitNanos: t.unitNanos, amountNanos: BigInt(quantity) * t.unitNanos };
  });
}

const BYTE_UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};
const TIME_UNITS: Record<string, number> = {
  ms: 100,
  millisecond: 100,
  milliseconds: 100,
  s: 100_000,
  sec: 100_000,
  second: 100_000,
  seconds: 100_000,
  minute: 6_000_000,
  minutes: 6_000_000,
  hour: 360_000_000,
  hours: 360_000_000,
};
const MULTIPLIERS: Record<string, number> = { "": 1, k: 1e3, m: 1e6, b: 1e9 };

/**
 * Which measure of a usage event a metric meters, and how many base units one priced unit holds.
 * Base units: requests; bytes (request + response body); tokens, counted as 4 bytes each (the usual estimate
 * for text; the platform does not see model tokens) so that they stay additive; compute in 0.01 ms (the
 * precision usage events keep). A metric the platform cannot meter is "none" and bills nothing.
 */
export function metricMeasure(name: string, unit: string): { measure: Measure; unitSize: number } {
  const n = name.trim().toLowerCase();
  const parsed = /^(\d+(?:\.\d+)?)?\s*(.*)$/.exec(unit.trim().toLowerCase())!;
  let count = parsed[1] ? Number(parsed[1]) : 1;
  let word = parsed[2].trim();
  if (BYTE_UNITS[word] !== undefined) return { measure: "bytes", unitSize: Math.max(1, Math.round(count * BYTE_UNITS[word])) };
  if (TIME_UNITS[word] !== undefined) return { measure: "compute", unitSize: Math.max(1, Math.round(count * TIME_UNITS[word])) };
  // "1K tokens", "1M requests": a multiplier before the counted thing.
  const multiplied = /^([kmb])\s*(.*)$/.exec(word);
  if (multiplied && /^(tokens?|requests?|calls?)$/.test(multiplied[2])) {
    count *= MULTIPLIERS[multiplied[1]];
    word = multiplied[2];
  }
  if (/token/.test(word) || /token/.test(n)) return { measure: "tokens", unitSize: Math.max(1, Math.round(count * 4)) };
  if (/request|call/.test(word) || /request|call/.test(n)) return { measure: "requests", unitSize: Math.max(1, Math.round(count)) };
  if (/compute|cpu|duration/.test(n)) return { measure: "compute", unitSize: Math.max(1, Math.round(count * 100)) };
  if (/transfer|bandwidth|byte|egress/.test(n)) return { measure: "bytes", unitSize: Math.max(1, Math.round(count)) };
  return { measure: "none", unitSize: 1 };
}

interface StoredTier {
  upTo: number | null;
  amount: number;
}
interface StoredBase {
  amount: number;
  interval: "month" | "year";
  includedQuota: number;
}
interface StoredMetric {
  name: string;
  amount: number;
  unit: string;
  includedQuantity?: number;
  from?: MetricSourceSpec;
}

/** How many measured units one priced unit holds: "1M tokens" → 1,000,000; "1000 rows" → 1,000; "token" → 1. */
export function measuredUnitSize(unit: string): number {
  const parsed = /^(\d+(?:\.\d+)?)?\s*([kmb](?![a-z]))?/i.exec(unit.trim())!;
  const count = parsed[1] ? Number(parsed[1]) : 1;
  const multiplier = parsed[2] ? MULTIPLIERS[parsed[2].toLowerCase()] : 1;
  return Math.max(1, Math.round(count * multiplier));
}

export function compilePrice(p: PriceLike): PricePlan {
  const base = (p.baseSubscription as StoredBase | null) ?? null;
  const interval = base?.interval ?? "month";
  const plan: PricePlan = { priceId: p.id, currency: p.currency, interval, fixed: [], usage: [], minVolume: null };
  if (base)
    plan.fixed.push({
      key: "base",
      kind: "fixed",
      description: `${p.name ?? "Subscription"} (per ${interval})`,
      amountNanos: toNanos(base.amount),
      interval,
    });
  const usage = (c: Omit<UsageComponent, "kind" | "tiersMode" | "tiers"> & Partial<UsageComponent>) =>
    plan.usage.push({ kind: "usage", tiers: null, tiersMode: DEFAULT_TIERS_MODE, ...c });

  if (p.type === "usage") {
    const tiers = (p.tiers as StoredTier[] | null) ?? null;
    usage({
      key: "requests",
      description: tiers ? "API requests (tiered)" : "API requests",
      measure: "requests",
      unit: "request",
      unitSize: 1,
      included: p.includedQuantity ?? 0,
      unitNanos: toNanos(p.amount),
      tiers: tiers ? tiers.map((t) => ({ upTo: t.upTo, unitNanos: toNanos(t.amount) })) : null,
      tiersMode: p.tiersMode === "volume" ? "volume" : DEFAULT_TIERS_MODE,
    });
    plan.minVolume = p.minVolume ?? null;
  }
  if (p.type === "subscription" || (base && p.overageRate !== null && p.type !== "usage")) {
    usage({
      key: "overage",
      description: "API requests beyond the included quota",
      measure: "requests",
      unit: "request",
      unitSize: 1,
      included: base?.includedQuota ?? 0,
      unitNanos: toNanos(p.overageRate ?? 0),
    });
  }
  if (p.type === "metered") {
    ((p.metrics as StoredMetric[] | null) ?? []).forEach((metric, i) => {
      if (metric.from) {
        const unitSize = measuredUnitSize(metric.unit);
        usage({
          key: `metric-${i}`,
          description: metric.name,
          measure: "measured",
          unit: metric.unit,
          unitSize,
          included: (metric.includedQuantity ?? 0) * unitSize,
          unitNanos: toNanos(metric.amount),
          metricKey: metric.name,
          from: metric.from,
        });
        return;
      }
      const { measure, unitSize } = metricMeasure(metric.name, metric.unit);
      usage({
        key: `metric-${i}`,
        description: metric.name,
        measure,
        unit: metric.unit,
        unitSize,
        included: (metric.includedQuantity ?? 0) * unitSize,
        unitNanos: toNanos(metric.amount),
      });
    });
  }
  return plan;
}

/** What a usage event carries that rating reads. */
export interface UsageAmounts {
  bytes: number;
  computeMs: number;
  /** Units the event counts as (a meter event's quantity); 1 when absent. */
  quantity?: number;
  /** Quantities measured from the call (metric name → units), for measured metrics. */
  quantities?: Record<string, number> | null;
}

/** One usage event's quantity of a component's measure, in base units. */
export function eventQuantity(c: Pick<UsageComponent, "measure" | "metricKey">, e: UsageAmounts): number {
  switch (c.measure) {
    case "requests":
      return e.quantity ?? 1;
    case "bytes":
    case "tokens":
      return e.bytes;
    case "compute":
      return Math.round(e.computeMs * 100);
    case "measured": {
      const v = e.quantities?.[c.metricKey!];
      return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v) : 0;
    }
    case "none":
      return 0;
  }
}
