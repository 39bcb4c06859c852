import {
  cumulativeCost,
  eventQuantity,
  tierBreakdown,
  type Measure,
  type PricePlan,
  type UsageAmounts,
  type UsageComponent,
} from "./price-plan";
import { nanosToDecimal, allocateMinor, minorToNumber } from "./money";

// Rating: the cost of one usage event given what came before it in its period, and the invoice lines of a
// period's totals. Both come from the same cumulative cost functions, so the events' costs add up to the lines.

export type EventUsage = UsageAmounts;
/** A period's totals in base units; `measured` holds the measured metrics' totals by name. */
export type Quantities = Record<Exclude<Measure, "none" | "measured">, number> & { measured?: Record<string, number> };
export const zeroQuantities = (): Quantities => ({ requests: 0, bytes: 0, tokens: 0, compute: 0 });

export interface RatingState {
  plan: PricePlan;
  /** Base units of each usage component counted so far in the period. */
  counted: number[];
  /** C(counted) per component, so that each event costs one evaluation per component. */
  costSoFar: bigint[];
}

export function quantityOf(c: UsageComponent, q: Quantities): number {
  if (c.measure === "none") return 0;
  if (c.measure === "measured") return q.measured?.[c.metricKey!] ?? 0;
  return q[c.measure];
}

export function newRatingState(plan: PricePlan, already: Quantities = zeroQuantities()): RatingState {
  const counted = plan.usage.map((c) => quantityOf(c, already));
  return { plan, counted, costSoFar: plan.usage.map((c, i) => cumulativeCost(c, counted[i])) };
}

/** The cost of one event in nanos per usage component (the state moves past the event). */
export function rateEventParts(state: RatingState, e: EventUsage): bigint[] {
  const parts: bigint[] = new Array(state.plan.usage.length);
  for (let i = 0; i < state.plan.usage.length; i++) {
    const c = state.plan.usage[i];
    const q = eventQuantity(c, e);
    if (q === 0) {
      parts[i] = 0n;
      continue;
    }
    const after = state.counted[i] + q;
    const cost = cumulativeCost(c, after);
    parts[i] = cost - state.costSoFar[i];
    state.counted[i] = after;
    state.costSoFar[i] = cost;
  }
  return parts;
}

/** The cost of one event in nanos. */
export function rateEvent(state: RatingState, e: EventUsage): bigint {
  let total = 0n;
  for (const part of rateEventParts(state, e)) total += part;
  return total;
}

export interface InvoiceLine {
  id: string;
  type: "subscription" | "usage" | "minimum" | "credits";
  description: string;
  priceId: string;
  metric: Measure | null;
  unit: string | null;
  /** Base units of `metric` in one `unit` (bytes in a GB, 4 bytes a token, 0.01 ms in a ms); quantities are in base units. */
  unitSize: number;
  quantity: number;
  includedQuantity: number;
  billableQuantity: number;
  /** Price per unit as a decimal string in the major unit; null for tiered lines (see tiers). */
  unitAmount: string | null;
  tiersMode: string | null;
  tiers: { upTo: number | null; quantity: number; unitAmount: string; amount: string }[] | null;
  /** The exact amount, a decimal string in the major unit: what the line's usage events' costs add up to. */
  exactAmount: string;
  /** `exactAmount` in the currency's minor unit, an integer (cents): what is charged. Rounded so that the lines add up
   * to the invoice total, which is the exact sum of all lines rounded half up (largest remainder): each line is its
   * exact amount rounded down or up; an invoice of one line is simply rounded half up. */
  amount: number;
  period: { start: string; end: string };
}

export interface PeriodOptions {
  start: Date;
  end: Date;
  /** Fraction of the fixed fee charged, as [numerator, denominator] (a period cut short by a cancellation). */
  proration?: [bigint, bigint];
}

/** Invoice lines for a period's totals. Line ids are the component keys, stable across invoices of one price. */
export function ratePeriod(plan: PricePlan, q: Quantities, opts: PeriodOptions): InvoiceLine[] {
  const period = { start: opts.start.toISOString(), end: opts.end.toISOString() };
  const lines: InvoiceLine[] = [];
  const exact: bigint[] = [];
  const money = (nanos: bigint) => {
    exact.push(nanos);
    return { exactAmount: nanosToDecimal(nanos), amount: 0 };
  };
  for (const f of plan.fixed) {
    const [num, den] = opts.proration ?? [1n, 1n];
    const nanos = (f.amountNanos * num) / den;
    lines.push({
      id: f.key,
      type: "subscription",
      description: opts.proration ? `${f.description}, prorated` : f.description,
      priceId: plan.priceId,
      metric: null,
      unit: f.interval,
      unitSize: 1,
      quantity: 1,
      includedQuantity: 0,
      billableQuantity: 1,
      unitAmount: nanosToDecimal(f.amountNanos),
      tiersMode: null,
      tiers: null,
      ...money(nanos),
      period,
    });
  }
  for (const c of plan.usage) {
    const quantity = quantityOf(c, q);
    const breakdown = tierBreakdown(c, quantity);
    lines.push({
      id: c.key,
      type: "usage",
      description: c.description,
      priceId: plan.priceId,
      metric: c.measure,
      unit: c.unit,
      unitSize: c.unitSize,
      quantity,
      includedQuantity: c.included,
      billableQuantity: Math.max(0, quantity - c.included),
      unitAmount: c.tiers ? null : nanosToDecimal(c.unitNanos),
      tiersMode: c.tiers ? c.tiersMode : null,
      tiers:
        breakdown?.map((t) => ({
          upTo: t.upTo,
          quantity: t.quantity,
          unitAmount: nanosToDecimal(t.unitNanos),
          amount: nanosToDecimal(t.amountNanos),
        })) ?? null,
      ...money(cumulativeCost(c, quantity)),
      period,
    });
  }
  if (plan.minVolume !== null && plan.usage[0] && q.requests < plan.minVolume) {
    const c = plan.usage[0];
    const shortfall = plan.minVolume - q.requests;
    // The commitment tops the period up to minVolume calls at the first tier's (or the flat) rate.
    const unitNanos = c.tiers ? c.tiers[0].unitNanos : c.unitNanos;
    lines.push({
      id: "minimum",
      type: "minimum",
      description: `Minimum volume of ${plan.minVolume} requests`,
      priceId: plan.priceId,
      metric: "requests",
      unit: "request",
      unitSize: 1,
      quantity: shortfall,
      includedQuantity: 0,
      billableQuantity: shortfall,
      unitAmount: nanosToDecimal(unitNanos),
      tiersMode: null,
      tiers: null,
      ...money(BigInt(shortfall) * unitNanos),
      period,
    });
  }
  allocateMinor(exact, plan.currency).forEach((minor, i) => {
    lines[i].amount = minorToNumber(minor);
  });
  return lines;
}

export function invoiceTotal(lines: InvoiceLine[]): number {
  return lines.reduce((sum, l) => sum + l.amount, 0);
}
