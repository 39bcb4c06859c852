import { z } from "zod";

// Key verification and meter events: what a provider that serves its API itself sends (lib/product-calls).

export const KeyVerifyRequest = z
  .strictObject({
    key: z.string().min(1).max(512).meta({ description: "The API key the provider's caller presented." }),
    product: z.string().min(1).max(64).meta({ description: "The provider's product, by id or slug." }),
  })
  .meta({ id: "KeyVerifyRequest" });

const Limit = z.object({ limit: z.number().int(), remaining: z.number().int() });

export const KeyVerification = z
  .object({
    valid: z.boolean(),
    code: z.string().meta({
      description:
        "VALID, or why not: INVALID_API_KEY, API_KEY_REVOKED, API_KEY_EXPIRED, PRODUCT_NOT_SUBSCRIBED, SUBSCRIPTION_INACTIVE, SUBSCRIPTION_UNPAID, RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED, INSUFFICIENT_CREDITS, SPEND_CAP_REACHED.",
    }),
    consumer: z.object({ businessId: z.string(), name: z.string() }).nullable(),
    subscription: z.string().nullable(),
    price: z.string().nullable(),
    environment: z.string().nullable(),
    ratelimit: Limit.extend({ reset: z.number().int().meta({ description: "Unix seconds" }), windowSeconds: z.number().int() }).nullable(),
    quota: Limit.extend({ resets: z.string() }).nullable(),
    retryAfter: z.number().int().optional(),
    message: z.string().optional().meta({ description: "Why a call was refused for money (credits, spend cap)." }),
    balance: z.string().optional().meta({ description: "Prepaid credits left, when INSUFFICIENT_CREDITS." }),
    cost: z.object({ amount: z.string(), currency: z.string() }).nullable().optional(),
  })
  .meta({ id: "KeyVerification" });

export const MeterEventCreate = z
  .strictObject({
    product: z.string().min(1).max(64).meta({ description: "The provider's product, by id or slug." }),
    subscription: z.string().min(1).max(64).optional().meta({ description: "The subscription the usage belongs to…" }),
    key: z
      .string()
      .min(1)
      .max(512)
      .optional()
      .meta({ description: "…or the subscriber's key (its project's subscription to the product)." }),
    quantity: z.number().int().min(1).max(1_000_000_000).default(1),
    timestamp: z
      .union([z.iso.datetime({ offset: true }), z.number().int().positive()])
      .optional()
      .transform((t) => (t === undefined ? undefined : typeof t === "number" ? new Date(t * 1000).toISOString() : t))
      .meta({ description: "When the usage happened (ISO 8601 or Unix seconds); within the subscription's open period. Default now." }),
    identifier: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .meta({ description: "Unique per product: reporting the same identifier again records nothing new." }),
  })
  .superRefine((v, ctx) => {
    if (!v.subscription === !v.key)
      ctx.addIssue({ code: "custom", path: ["subscription"], message: "Give exactly one of 'subscription' and 'key'." });
  })
  .meta({ id: "MeterEventCreate" });
export type MeterEventCreate = z.infer<typeof MeterEventCreate>;

export const MeterEvent = z
  .object({
    id: z.string(),
    object: z.literal("meter_event"),
    product: z.string(),
    subscription: z.string(),
    quantity: z.number().int(),
    timestamp: z.string(),
    identifier: z.string(),
    cost: z.object({ amount: z.string(), currency: z.string() }).nullable(),
    correctionOf: z.string().nullable().optional().meta({ description: "The event this one amends or voids (a correction)." }),
    reason: z.string().nullable().optional().meta({ description: "Why the correction was made." }),
  })
  .meta({ id: "MeterEvent" });

export const MeterEventAmend = z
  .strictObject({
    quantity: z.number().int().min(0).max(1_000_000_000).meta({ description: "What the event should have counted." }),
    reason: z.string().trim().min(1).max(500).meta({ description: "Why (kept in the audit log and sent in usage.amended)." }),
  })
  .meta({ id: "MeterEventAmend" });

export const MeterEventVoid = z
  .strictObject({ reason: z.string().trim().min(1).max(500).meta({ description: "Why the event is voided." }) })
  .meta({ id: "MeterEventVoid" });

export const MeterEventBackfill = z.strictObject({ events: z.array(MeterEventCreate).min(1).max(1000) }).meta({ id: "MeterEventBackfill" });

export const MeterEventBackfillResult = z
  .object({
    object: z.literal("list"),
    created: z.number().int(),
    duplicates: z.number().int(),
    errors: z.number().int(),
    data: z.array(
      z.object({
        index: z.number().int(),
        status: z.enum(["created", "duplicate", "error"]),
        event: MeterEvent.nullable(),
        error: z.object({ code: z.string(), message: z.string(), field: z.string().nullable() }).nullable(),
      }),
    ),
  })
  .meta({ id: "MeterEventBackfillResult" });
