import { z } from "zod";
import { CURRENCIES, MetricSource, type PriceCreate } from "@/lib/schemas/price";

// The console's metered plan (issue 40): one or more metrics, each priced per unit, and each either reported by
// the provider (POST /v1/meter-events) or measured by the gateway from the call's answer or request
// (`from`: response.json / response.sse / response.header / request.json). As typed (strings from inputs), turned
// into the API's PriceCreate; field paths are the API's (`metrics[0].from.path`) so an error lands on its input.

export const METRIC_FORM_SOURCES = ["reported", "response.json", "response.sse", "response.header", "request.json"] as const;

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`);

const amount = (what: string) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (!/^\d{1,12}(\.\d{1,9})?$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `${what} must be an amount such as 0.002 or 4 (up to 9 decimals).` });
        return z.NEVER;
      }
      return Number(s);
    });

const wholeNumber = (min: number, max: number, what: string) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (s === "") return undefined;
      const n = Number(s.replace(/[,_\s]/g, ""));
      if (!Number.isInteger(n) || n < min || n > max) {
        ctx.addIssue({
          code: "custom",
          message: `${what} must be a whole number from ${min.toLocaleString()} to ${max.toLocaleString()}.`,
        });
        return z.NEVER;
      }
      return n;
    });

export const MetricForm = z.object({
  name: text(100).min(1, "Name the metric, such as output_tokens."),
  amount: amount("The price per unit"),
  unit: text(50).min(1, "Give the unit, such as 1M tokens."),
  includedQuantity: z
    .string()
    .default("")
    .pipe(wholeNumber(0, 2_147_483_647, "The included quantity")),
  source: z.enum(METRIC_FORM_SOURCES, "Choose where the quantity comes from."),
  path: z.string().trim().default(""),
  header: z.string().trim().default(""),
  aggregate: z.enum(["last", "sum", ""]).default(""),
});
export type MetricFormInput = z.input<typeof MetricForm>;

/** A metric's `from`, checked with the API's own MetricSource; undefined for a reported metric. */
function metricFrom(m: z.output<typeof MetricForm>, i: number, ctx: z.RefinementCtx) {
  if (m.source === "reported") return undefined;
  if (m.source === "response.header" && !m.header) {
    ctx.addIssue({ code: "custom", path: ["metrics", i, "from", "name"], message: "Name the header, such as X-Units." });
    return z.NEVER;
  }
  if (m.source !== "response.header" && !m.path) {
    ctx.addIssue({ code: "custom", path: ["metrics", i, "from", "path"], message: "Give the path, such as usage.output_tokens." });
    return z.NEVER;
  }
  const raw =
    m.source === "response.header"
      ? { source: m.source, name: m.header }
      : m.source === "response.sse" && m.aggregate
        ? { source: m.source, path: m.path, aggregate: m.aggregate }
        : { source: m.source, path: m.path };
  const r = MetricSource.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const what = m.source === "response.header" ? "name" : "path";
    const message =
      what === "name" ? "A header name, such as X-Units (letters, digits and - only)." : "A dotted path, such as usage.output_tokens.";
    ctx.addIssue({ code: "custom", path: ["metrics", i, "from", what], message: issue.code === "custom" ? issue.message : message });
    return z.NEVER;
  }
  return r.data;
}

export const MeteredMetricsForm = z
  .array(MetricForm)
  .min(1, "Add at least one metric.")
  .max(20, "At most 20 metrics.")
  .transform((metrics, ctx) => {
    const seen = new Set<string>();
    return metrics.map((m, i) => {
      if (seen.has(m.name)) ctx.addIssue({ code: "custom", path: ["metrics", i, "name"], message: `'${m.name}' appears twice.` });
      seen.add(m.name);
      const from = metricFrom(m, i, ctx);
      return {
        name: m.name,
        amount: m.amount,
        unit: m.unit,
        ...(m.includedQuantity !== undefined ? { includedQuantity: m.includedQuantity } : {}),
        ...(from ? { from } : {}),
      };
    });
  });

export const MeteredPriceForm = z
  .object({
    name: text(200).min(1, "Name the plan."),
    currency: z.string().trim().toUpperCase().pipe(z.enum(CURRENCIES, "Choose a supported currency, such as USD.")),
    metrics: z.array(z.unknown()),
    rateLimit: z.object({ limit: wholeNumber(1, 1_000_000_000, "The rate limit"), windowSeconds: wholeNumber(1, 86_400, "The window") }),
    monthlyQuota: wholeNumber(1, 2_147_483_647, "The monthly quota"),
  })
  .transform((f, ctx): PriceCreate => {
    // Each metric's issues carry their index: parsed here so the path is metrics[i].<field>.
    const parsed = MeteredMetricsForm.safeParse(f.metrics);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path[0] === "metrics" ? issue.path : ["metrics", ...issue.path];
        ctx.addIssue({ code: "custom", path: path as (string | number)[], message: issue.message });
      }
      return z.NEVER;
    }
    let rateLimit: PriceCreate["rateLimit"] = null;
    if (f.rateLimit.limit !== undefined || f.rateLimit.windowSeconds !== undefined) {
      if (f.rateLimit.limit === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["rateLimit", "limit"],
          message: "Give the number of calls per window, or leave both empty.",
        });
        return z.NEVER;
      }
      rateLimit = { limit: f.rateLimit.limit, windowSeconds: f.rateLimit.windowSeconds ?? 60 };
    }
    return {
      name: f.name,
      type: "metered",
      currency: f.currency,
      metrics: parsed.data,
      rateLimit,
      monthlyQuota: f.monthlyQuota ?? null,
    };
  });
