import { z } from "zod";
import { PRODUCT_TYPES, type ProductCreate } from "@/lib/schemas/product";
import { CURRENCIES, type PriceCreate } from "@/lib/schemas/price";

// The marketplace pages' forms, as typed (strings from inputs), turned into the API's own inputs. Field paths are
// the API's (`api.upstreamUrl`, `rateLimit.limit`, `paymentMethod.card.number`), so an error from this parse and
// one from the domain function land under the same input. The API's schemas validate the result again.

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`);
const optionalText = (max: number) => text(max).transform((s) => s || undefined);

/** A whole number typed into a box: empty is "not given"; anything else must be a whole number in range. */
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

/** An amount of money typed into a box: at most 9 decimals, not negative. */
const amount = (what: string) =>
  z
    .string()
    .trim()
    .transform((s, ctx) => {
      if (s === "") return undefined;
      if (!/^\d{1,12}(\.\d{1,9})?$/.test(s)) {
        ctx.addIssue({ code: "custom", message: `${what} must be an amount such as 0.002 or 49 (up to 9 decimals).` });
        return z.NEVER;
      }
      return Number(s);
    });

const need = <T>(value: T | undefined, ctx: z.RefinementCtx, path: (string | number)[], message: string): value is T => {
  if (value === undefined) ctx.addIssue({ code: "custom", path, message });
  return value !== undefined;
};

export const ProductForm = z
  .object({
    name: text(200).min(1, "Name the product."),
    type: z.enum(PRODUCT_TYPES, "Choose a type."),
    description: optionalText(5000),
    api: z.object({
      upstreamUrl: optionalText(2048),
      sandboxUpstreamUrl: optionalText(2048),
      timeoutMs: wholeNumber(100, 120_000, "The timeout"),
      openapiUrl: optionalText(2048),
      secretHeaders: z
        .array(z.object({ name: z.string().trim().max(100), value: z.string().max(4096) }))
        .max(20, "At most 20 secret headers.")
        .default([]),
    }),
  })
  .transform((f, ctx): ProductCreate => {
    const out: ProductCreate = { name: f.name, type: f.type, description: f.description ?? null };
    if (f.type !== "API") return out;
    const a = f.api;
    const headers = a.secretHeaders.filter((h) => h.name || h.value);
    const given = a.upstreamUrl || a.sandboxUpstreamUrl || a.openapiUrl || a.timeoutMs !== undefined || headers.length;
    if (!given) return out;
    if (!need(a.upstreamUrl, ctx, ["api", "upstreamUrl"], "Give the upstream URL the calls go to.")) return z.NEVER;
    const secretHeaders: Record<string, string> = {};
    headers.forEach((h, i) => {
      if (!h.name) ctx.addIssue({ code: "custom", path: ["api", "secretHeaders", i, "name"], message: "Name the header." });
      else if (secretHeaders[h.name] !== undefined)
        ctx.addIssue({ code: "custom", path: ["api", "secretHeaders", i, "name"], message: `'${h.name}' appears twice.` });
      secretHeaders[h.name] = h.value;
    });
    return {
      ...out,
      api: {
        upstreamUrl: a.upstreamUrl,
        sandboxUpstreamUrl: a.sandboxUpstreamUrl ?? null,
        timeoutMs: a.timeoutMs,
        openapiUrl: a.openapiUrl ?? null,
        ...(headers.length ? { secretHeaders } : {}),
      },
    };
  });
export type ProductFormInput = z.input<typeof ProductForm>;

export const PRICE_FORM_KINDS = ["usage", "subscription"] as const;

export const PriceForm = z
  .object({
    name: text(200).min(1, "Name the plan."),
    kind: z.enum(PRICE_FORM_KINDS, "Choose how the plan is charged."),
    currency: z.string().trim().toUpperCase().pipe(z.enum(CURRENCIES, "Choose a supported currency, such as USD.")),
    amount: amount("The price per call"),
    baseAmount: amount("The monthly fee"),
    includedQuota: wholeNumber(0, 2_147_483_647, "The included calls"),
    overageRate: amount("The overage rate"),
    rateLimit: z.object({ limit: wholeNumber(1, 1_000_000_000, "The rate limit"), windowSeconds: wholeNumber(1, 86_400, "The window") }),
    monthlyQuota: wholeNumber(1, 2_147_483_647, "The monthly quota"),
  })
  .transform((f, ctx): PriceCreate => {
    const limits: Pick<PriceCreate, "rateLimit" | "monthlyQuota"> = { monthlyQuota: f.monthlyQuota ?? null, rateLimit: null };
    if (f.rateLimit.limit !== undefined || f.rateLimit.windowSeconds !== undefined) {
      if (!need(f.rateLimit.limit, ctx, ["rateLimit", "limit"], "Give the number of calls per window, or leave both empty."))
        return z.NEVER;
      limits.rateLimit = { limit: f.rateLimit.limit, windowSeconds: f.rateLimit.windowSeconds ?? 60 };
    }
    if (f.kind === "usage") {
      if (!need(f.amount, ctx, ["amount"], "Give the price per call.")) return z.NEVER;
      return { name: f.name, type: "usage", currency: f.currency, amount: f.amount, interval: "call", ...limits };
    }
    if (!need(f.baseAmount, ctx, ["baseSubscription", "amount"], "Give the monthly fee.")) return z.NEVER;
    return {
      name: f.name,
      type: "subscription",
      currency: f.currency,
      baseSubscription: { amount: f.baseAmount, interval: "month", includedQuota: f.includedQuota ?? 0 },
      ...(f.overageRate !== undefined ? { overageRate: f.overageRate } : {}),
      ...limits,
    };
  });
export type PriceFormInput = z.input<typeof PriceForm>;

export const SubscribeForm = z
  .object({
    priceId: z.string().trim().min(1, "Choose a plan.").max(64),
    number: z
      .string()
      .transform((s) => s.replace(/[\s-]/g, ""))
      .pipe(z.string().regex(/^\d{12,19}$/, "A card number is 12 to 19 digits, such as 4242 4242 4242 4242.")),
    expiry: z
      .string()
      .trim()
      .regex(/^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, "Give the expiry as MM/YY, such as 12/30."),
    cvc: z
      .string()
      .trim()
      .regex(/^\d{3,4}$/, "The CVC is the 3 or 4 digits on the back of the card."),
  })
  .transform((f) => {
    const [m, y] = f.expiry.split("/").map((s) => s.trim());
    const year = y.length === 2 ? 2000 + Number(y) : Number(y);
    return { priceId: f.priceId, paymentMethod: { card: { number: f.number, expMonth: Number(m), expYear: year, cvc: f.cvc } } };
  });
export type SubscribeFormInput = z.input<typeof SubscribeForm>;
