import { z } from "zod";
import { hasAtMostNineDecimals } from "@/lib/billing/money";
import { Environment, Timestamp, shortText } from "./common";

// Every pricing shape of the spec: usage (per request or call, with included quantity, minimum volume or
// tiers), subscription plus overage, and metered resources.

export const CURRENCIES = [
  "USD",
  "EUR",
  "GBP",
  "JPY",
  "CHF",
  "CAD",
  "AUD",
  "NZD",
  "SEK",
  "NOK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "BGN",
  "CNY",
  "HKD",
  "SGD",
  "KRW",
  "INR",
  "IDR",
  "MYR",
  "THB",
  "PHP",
  "VND",
  "TWD",
  "ILS",
  "AED",
  "SAR",
  "TRY",
  "ZAR",
  "BRL",
  "MXN",
  "ARS",
  "CLP",
  "COP",
  "PEN",
  "NGN",
  "KES",
  "EGP",
  "UAH",
] as const;

export const PRICE_TYPES = ["usage", "subscription", "metered"] as const;
export const PRICE_INTERVALS = ["request", "call", "month", "year"] as const;
/** How tiers price a period: graduated (each unit at its tier's rate, the default) or volume (all units at the rate of the tier the total reaches). */
export const TIERS_MODES = ["graduated", "volume"] as const;
export const PRICE_BILLING = ["postpaid", "prepaid"] as const;

// Amounts are numbers in the currency's major unit with at most 9 decimal places: billing reads them as exact
// nanos (lib/billing/money.ts), so a price never meets binary rounding.
const money = z
  .number()
  .nonnegative("must not be negative")
  .finite()
  .refine(hasAtMostNineDecimals, "must have at most 9 decimal places and be below 10^12");
// includedQuantity and minVolume are 32-bit integer columns (PostgreSQL's int4): larger counts are refused here
// rather than failing in the database.
const MAX_COUNT = 2_147_483_647;
const count = () => z.number().int().nonnegative().max(MAX_COUNT);

export const PriceTier = z
  .strictObject({
    upTo: z
      .union([z.number().int().positive(), z.literal("inf"), z.null()])
      .meta({ description: 'Requests per month this tier reaches; null or "inf" for the unbounded last tier.' }),
    amount: money.meta({ description: "Price per request within the tier." }),
    description: z.string().max(500).optional(),
  })
  .meta({ id: "PriceTier" });

export const BaseSubscription = z
  .strictObject({
    amount: money,
    interval: z.enum(["month", "year"]),
    includedQuota: z.number().int().nonnegative(),
  })
  .meta({ id: "BaseSubscription" });

// A dotted path into a JSON document: "usage.output_tokens", "data.0.rows" (a number is an array index).
const JsonPath = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, "must be a dotted path such as usage.output_tokens");

export const METRIC_SOURCES = ["response.json", "response.sse", "response.header", "request.json"] as const;

export const MetricSource = z
  .discriminatedUnion("source", [
    z.strictObject({ source: z.literal("response.json"), path: JsonPath }),
    z.strictObject({ source: z.literal("response.sse"), path: JsonPath, aggregate: z.enum(["last", "sum"]).optional() }),
    z.strictObject({
      source: z.literal("response.header"),
      name: z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, "must be a header name"),
    }),
    z.strictObject({ source: z.literal("request.json"), path: JsonPath }),
  ])
  .meta({
    id: "MetricSource",
    description:
      "Where the gateway reads a call's quantity of this metric: response.json (a number at `path` in a JSON answer, or in the last event of an SSE answer that has it), response.sse (each event of a text/event-stream answer: the last value at `path`, or their sum with aggregate: sum), response.header (a number in the answer's header `name`), request.json (a number at `path` in the request's JSON body). Read while the answer streams to the client, never buffered for it.",
  });

export const PriceMetric = z
  .strictObject({
    name: z.string().trim().min(1).max(100).meta({ example: "tokens" }),
    amount: money,
    unit: z.string().trim().min(1).max(50).meta({ example: "1K tokens" }),
    includedQuantity: z.number().int().nonnegative().optional(),
    from: MetricSource.optional().meta({
      description:
        "Measure the metric from each gateway call's request or answer (tokens, rows, units the upstream reports). `unit` then says how many of them one priced unit is: '1M tokens' is a million.",
    }),
  })
  .meta({ id: "PriceMetric" });

export const LIMITER_OUTAGE_MODES = ["open", "closed"] as const;

export const PlanRateLimit = z
  .strictObject({
    limit: z.number().int().min(1).max(1_000_000_000).meta({ description: "Calls allowed per window." }),
    windowSeconds: z.number().int().min(1).max(86_400).meta({ description: "The window's length in seconds (1 to 86,400)." }),
  })
  .meta({ id: "PlanRateLimit", description: "The rate limit a subscriber to this price gets on the product's calls." });

// What a plan buys on the product's calls, besides its price: editable, unlike the amounts.
const planLimits = {
  rateLimit: PlanRateLimit.nullable().optional(),
  monthlyQuota: count()
    .min(1)
    .nullable()
    .optional()
    .meta({ description: "Product calls per billing period; a call beyond it is refused (429 QUOTA_EXCEEDED). Null: no quota." }),
  billFailedCalls: z
    .boolean()
    .optional()
    .meta({ description: "Whether a gateway call the upstream answered 5xx, or that timed out, is billed (default false)." }),
  onLimiterOutage: z.enum(LIMITER_OUTAGE_MODES).optional().meta({
    description:
      "What the rate limit and quota do while the shared limiter store (Redis) is unreachable: open (default): each server process counts alone, within its share of the limit; closed: calls are refused with 503 LIMITER_UNAVAILABLE and Retry-After. Prepaid credits and spend caps are always closed.",
  }),
};

const Currency = z
  .string()
  .transform((c) => c.toUpperCase())
  .pipe(z.enum(CURRENCIES));

const required = (ctx: z.RefinementCtx, field: string, message: string) =>
  ctx.addIssue({ code: "custom", path: [field], message, params: { code: "MISSING_REQUIRED_FIELD" } });

export const PriceCreate = z
  .strictObject({
    name: shortText(200),
    type: z.enum(PRICE_TYPES),
    currency: Currency,
    amount: money.optional().meta({ description: "Price per unit (usage prices)." }),
    interval: z.enum(PRICE_INTERVALS).optional(),
    includedQuantity: count().optional().meta({ description: "Free allowance per month." }),
    minVolume: count().optional(),
    description: z.string().max(5000).optional(),
    tiers: z.array(PriceTier).min(1).max(50).optional(),
    tiersMode: z.enum(TIERS_MODES).optional().meta({
      description:
        "graduated (default): each request at the rate of its tier; volume: every request at the rate of the tier the month's total reaches.",
    }),
    baseSubscription: BaseSubscription.optional(),
    overageRate: money.optional().meta({ description: "Price per request beyond the subscription's included quota." }),
    metrics: z.array(PriceMetric).min(1).max(20).optional(),
    billing: z.enum(PRICE_BILLING).optional().meta({
      description:
        "postpaid (default): invoiced at the period's end, credits applied first; prepaid: each call is paid from the subscription's credits, refused with 402 INSUFFICIENT_CREDITS when they cannot cover it.",
    }),
    maxCostPerCall: money.optional().meta({
      description: "What a prepaid call reserves before it runs when its cost is known only from its answer (bytes, tokens, compute).",
    }),
    ...planLimits,
    isActive: z.boolean().optional(),
  })
  .superRefine((p, ctx) => {
    if (p.maxCostPerCall !== undefined && p.billing !== "prepaid")
      ctx.addIssue({
        code: "custom",
        path: ["maxCostPerCall"],
        message: "'maxCostPerCall' applies to a prepaid price (billing: 'prepaid').",
      });
    if (p.type === "usage") {
      if (p.amount === undefined && !p.tiers) required(ctx, "amount", "A usage price needs 'amount' or 'tiers'.");
      if (p.interval && p.interval !== "request" && p.interval !== "call") {
        ctx.addIssue({ code: "custom", path: ["interval"], message: "A usage price is charged per 'request' or 'call'." });
      }
    }
    if (p.type === "subscription" && !p.baseSubscription)
      required(ctx, "baseSubscription", "A subscription price needs 'baseSubscription'.");
    if (p.type === "metered" && !p.metrics) required(ctx, "metrics", "A metered price needs 'metrics'.");
    if (p.tiers) {
      let previous = 0;
      p.tiers.forEach((tier, i) => {
        const bounded = typeof tier.upTo === "number";
        if (!bounded && i !== p.tiers!.length - 1) {
          ctx.addIssue({ code: "custom", path: ["tiers", i, "upTo"], message: "Only the last tier may be unbounded." });
        }
        if (bounded && (tier.upTo as number) <= previous) {
          ctx.addIssue({ code: "custom", path: ["tiers", i, "upTo"], message: "Tiers must be in increasing order of 'upTo'." });
        }
        if (bounded) previous = tier.upTo as number;
      });
      // A gap after the last tier would leave requests beyond it without a price.
      const last = p.tiers[p.tiers.length - 1];
      if (
        last &&
        typeof last.upTo === "number" &&
        p.tiers.every((t, i) => i === 0 || (t.upTo as number) > (p.tiers![i - 1].upTo as number))
      ) {
        ctx.addIssue({
          code: "custom",
          path: ["tiers", p.tiers.length - 1, "upTo"],
          message: 'The last tier must be unbounded (upTo null or "inf"): requests beyond it would have no price.',
        });
      }
    }
    if (p.tiersMode && !p.tiers) {
      ctx.addIssue({ code: "custom", path: ["tiersMode"], message: "'tiersMode' applies to a price with 'tiers'." });
    }
    if (p.metrics) {
      const seen = new Set<string>();
      p.metrics.forEach((m, i) => {
        if (seen.has(m.name)) ctx.addIssue({ code: "custom", path: ["metrics", i, "name"], message: `Metric '${m.name}' appears twice.` });
        seen.add(m.name);
      });
    }
  })
  .meta({ id: "PriceCreate" });

// Like Stripe's, a price's amounts never change once customers may be billed by it: make a new price instead.
export const PriceUpdate = z
  .strictObject({
    name: shortText(200).optional(),
    description: z.string().max(5000).nullable().optional(),
    isActive: z.boolean().optional(),
    ...planLimits,
  })
  .meta({ id: "PriceUpdate" });

export const Price = z
  .object({
    id: z.string().meta({ example: "price_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    productId: z.string(),
    name: z.string(),
    type: z.enum(PRICE_TYPES),
    currency: z.string(),
    amount: z.number().nullable(),
    interval: z.string().nullable(),
    includedQuantity: z.number().nullable(),
    minVolume: z.number().nullable(),
    description: z.string().nullable(),
    tiers: z.array(z.object({ upTo: z.number().nullable(), amount: z.number(), description: z.string().optional() })).nullable(),
    tiersMode: z.enum(TIERS_MODES).nullable(),
    baseSubscription: BaseSubscription.nullable(),
    overageRate: z.number().nullable(),
    metrics: z.array(PriceMetric).nullable(),
    rateLimit: PlanRateLimit.nullable(),
    monthlyQuota: z.number().int().nullable(),
    billFailedCalls: z.boolean(),
    onLimiterOutage: z.enum(LIMITER_OUTAGE_MODES),
    billing: z.enum(PRICE_BILLING),
    maxCostPerCall: z.number().nullable(),
    isActive: z.boolean(),
    environment: Environment,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Price" });

export type PriceCreate = z.infer<typeof PriceCreate>;
export type PriceUpdate = z.infer<typeof PriceUpdate>;
