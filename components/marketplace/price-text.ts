import type { serializePrice } from "@/lib/products/serialize";
import type { PlanText } from "@/lib/docs/llms-txt";

// A plan in words, for the catalogue and the provider's pages: what it costs and what it buys (rate limit and
// monthly quota). Plain functions of the API's price shape, so the server pages and the tests share them.

export type PriceView = Pick<
  ReturnType<typeof serializePrice>,
  | "id"
  | "name"
  | "type"
  | "currency"
  | "amount"
  | "interval"
  | "includedQuantity"
  | "tiers"
  | "tiersMode"
  | "baseSubscription"
  | "overageRate"
  | "metrics"
  | "rateLimit"
  | "monthlyQuota"
> &
  // Optional: a price read before issue 39 (or a test's literal) has none and is postpaid.
  Partial<Pick<ReturnType<typeof serializePrice>, "billing" | "maxCostPerCall">>;

const number = new Intl.NumberFormat("en-US", { maximumFractionDigits: 9 });
const count = new Intl.NumberFormat("en-US");

/** An amount in the currency's major unit: `0.002 USD`. */
export const money = (amount: number, currency: string) => `${number.format(amount)} ${currency}`;

const unitOf = (interval: string | null) => (interval === "request" ? "request" : "call");

function windowText(seconds: number): string {
  if (seconds === 1) return "second";
  if (seconds === 60) return "minute";
  if (seconds === 3600) return "hour";
  if (seconds === 86_400) return "day";
  if (seconds % 3600 === 0) return `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return `${seconds / 60} minutes`;
  return `${seconds} seconds`;
}

/** Whether a plan is paid from prepaid credits (issue 39) rather than invoiced after the period. */
export const isPrepaid = (p: Pick<PriceView, "billing">) => p.billing === "prepaid";

/** What a prepaid plan says about its credits, first of its lines. */
function prepaidLines(p: PriceView): string[] {
  if (!isPrepaid(p)) return [];
  const lines = ["Prepaid: pay as you go from credits you buy first; calls stop when they run out"];
  if (p.maxCostPerCall !== null && p.maxCostPerCall !== undefined)
    lines.push(`each call holds up to ${money(p.maxCostPerCall, p.currency)} of credits until its cost is known`);
  return lines;
}

/** What a plan charges, as a headline and the lines under it. */
export function describePrice(p: PriceView): { headline: string; details: string[]; shape: string } {
  const details: string[] = prepaidLines(p);
  if (p.type === "subscription" && p.baseSubscription) {
    const b = p.baseSubscription;
    details.push(`${count.format(b.includedQuota)} calls included per ${b.interval}`);
    if (p.overageRate !== null) details.push(`then ${money(p.overageRate, p.currency)} per call`);
    else details.push("no calls beyond the included ones are billed");
    return { headline: `${money(b.amount, p.currency)} / ${b.interval}`, details, shape: "Subscription + overage" };
  }
  if (p.type === "metered" && p.metrics) {
    for (const m of p.metrics)
      details.push(
        `${m.name}: ${money(m.amount, p.currency)} per ${m.unit}${m.includedQuantity ? ` (${count.format(m.includedQuantity)} included)` : ""}`,
      );
    return { headline: p.metrics.length === 1 ? details[0] : `${p.metrics.length} metered resources`, details, shape: "Metered" };
  }
  const unit = unitOf(p.interval);
  if (p.tiers) {
    let from = 1;
    for (const t of p.tiers) {
      details.push(
        t.upTo === null
          ? `${count.format(from)}+: ${money(t.amount, p.currency)} per ${unit}`
          : `${count.format(from)}–${count.format(t.upTo)}: ${money(t.amount, p.currency)} per ${unit}`,
      );
      if (t.upTo !== null) from = t.upTo + 1;
    }
    const lowest = Math.min(...p.tiers.map((t) => t.amount));
    return {
      headline: `from ${money(lowest, p.currency)} per ${unit}`,
      details,
      shape: `Tiered (${p.tiersMode ?? "graduated"})`,
    };
  }
  if (p.includedQuantity) details.push(`${count.format(p.includedQuantity)} free per month`);
  return { headline: `${money(p.amount ?? 0, p.currency)} per ${unit}`, details, shape: "Per call" };
}

/** The limits a plan buys: "10 calls / minute", "1,000 calls / month"; "No limit" when it sets none. */
export function describeLimits(p: Pick<PriceView, "rateLimit" | "monthlyQuota">): { rate: string; quota: string } {
  return {
    rate: p.rateLimit ? `${count.format(p.rateLimit.limit)} calls / ${windowText(p.rateLimit.windowSeconds)}` : "No limit",
    quota: p.monthlyQuota ? `${count.format(p.monthlyQuota)} calls / month` : "Unlimited",
  };
}

/**
 * Which products a key may call, from its scopes: every product for `*` or `call:*`, the named ones for
 * `call:prod_…` (by name where known), none otherwise.
 */
export function callableProducts(scopes: readonly string[], names: ReadonlyMap<string, string>): string {
  if (scopes.includes("*") || scopes.includes("call:*")) return "all products";
  const ids = scopes.filter((s) => s.startsWith("call:")).map((s) => s.slice("call:".length));
  if (!ids.length) return "none";
  return ids.map((id) => names.get(id) ?? id).join(", ");
}

/** A plan in words for a text file (a product's llms.txt): the pricing table's columns, as that table fills them. */
export function planInWords(p: PriceView): PlanText {
  const d = describePrice(p);
  const l = describeLimits(p);
  return { name: p.name, shape: d.shape, headline: d.headline, details: d.details, rate: l.rate, quota: l.quota };
}
