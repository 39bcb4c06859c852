import { z } from "zod";
import { Environment, Metadata, Timestamp } from "./common";
import { AutoRecharge, AutoRechargeInput, SpendCap, SpendCapInput } from "./credits";
import { PaymentMethodInput } from "./payment-method";
export { PaymentMethodInput };

// Subscriptions, invoices and payments. Money on invoices is an integer count of the currency's minor unit
// (cents; yen for JPY), as in Stripe; exact per-unit prices and line amounts are decimal strings in the major unit.

export const SUBSCRIPTION_STATUSES = ["active", "past_due", "canceled"] as const;

export const SubscriptionCreate = z
  .strictObject({
    priceId: z.string().min(1).max(64),
    projectId: z.string().min(1).max(64).optional().meta({ description: "Defaults to the API key's project." }),
    paymentMethod: PaymentMethodInput.optional(),
    metadata: Metadata.optional(),
  })
  .meta({ id: "SubscriptionCreate" });

export const SubscriptionUpdate = z
  .strictObject({
    priceId: z.string().min(1).max(64).optional().meta({ description: "Switches to this price at the next renewal." }),
    cancelAtPeriodEnd: z.boolean().optional(),
    paymentMethod: PaymentMethodInput.optional(),
    metadata: Metadata.optional(),
    spendCap: SpendCapInput.nullable().optional().meta({ description: "The monthly spend cap; null removes it." }),
    autoRecharge: AutoRechargeInput.nullable()
      .optional()
      .meta({ description: "Auto top-up of prepaid credits (needs a card on the subscription); null turns it off." }),
  })
  .meta({ id: "SubscriptionUpdate" });

export const SubscriptionCancel = z
  .strictObject({
    atPeriodEnd: z
      .boolean()
      .optional()
      .meta({ description: "true: run to the end of the paid period; false (default): end now with a final invoice." }),
  })
  .meta({ id: "SubscriptionCancel" });

export const Subscription = z
  .object({
    id: z.string().meta({ example: "sub_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" }),
    projectId: z.string(),
    productId: z.string(),
    providerId: z.string().meta({ description: "The business that sells the product (the consumer's own id for its own products)." }),
    priceId: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    currentPeriodStart: Timestamp,
    currentPeriodEnd: Timestamp,
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: Timestamp.nullable(),
    endedAt: Timestamp.nullable(),
    pendingPriceId: z.string().nullable(),
    paymentMethod: z.object({ type: z.string(), brand: z.string(), last4: z.string() }).nullable(),
    metadata: z.record(z.string(), z.string()),
    spendCap: SpendCap.nullable(),
    autoRecharge: AutoRecharge.nullable(),
    environment: Environment,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: "Subscription" });

export const InvoiceLine = z
  .object({
    id: z.string(),
    type: z.enum(["subscription", "usage", "minimum", "credits"]).meta({
      description: "credits: prepaid credits that paid the usage, or credits applied to a postpaid invoice (a negative amount).",
    }),
    description: z.string(),
    priceId: z.string(),
    metric: z.string().nullable().meta({ description: "requests, bytes, tokens or compute; null for a fixed fee." }),
    unit: z.string().nullable(),
    unitSize: z.number().meta({ description: "Base units of the metric in one priced unit; quantities are in base units." }),
    quantity: z.number(),
    includedQuantity: z.number(),
    billableQuantity: z.number(),
    unitAmount: z
      .string()
      .nullable()
      .meta({ description: "Exact price per unit, decimal string in the major unit; null for tiered lines." }),
    tiersMode: z.string().nullable(),
    tiers: z.array(z.object({ upTo: z.number().nullable(), quantity: z.number(), unitAmount: z.string(), amount: z.string() })).nullable(),
    exactAmount: z.string().meta({ description: "Exact amount, decimal string: the sum of the costs of the line's usage events." }),
    amount: z.number().int().meta({ description: "exactAmount rounded half up to the minor unit." }),
    period: z.object({ start: Timestamp, end: Timestamp }),
    usage: z.object({ csv: z.string().nullable(), events: z.string() }).nullable(),
  })
  .meta({ id: "InvoiceLine" });

// draft: a closed period in its grace (INVOICE_GRACE_HOURS) — late usage of the period is still taken and the
// lines may change; it is finalised (open, then charged) when the grace ends.
export const INVOICE_STATUSES = ["upcoming", "draft", "open", "paid", "uncollectible"] as const;

export const Invoice = z
  .object({
    id: z.string().nullable().meta({ description: "null for the upcoming invoice, which is not stored." }),
    number: z.string().nullable(),
    subscriptionId: z.string(),
    projectId: z.string(),
    priceId: z.string(),
    productId: z.string(),
    seller: z.object({ id: z.string(), name: z.string() }).meta({ description: "The business that sells the product." }),
    status: z.enum(INVOICE_STATUSES),
    currency: z.string(),
    periodStart: Timestamp,
    periodEnd: Timestamp,
    lines: z.array(InvoiceLine),
    subtotal: z.number().int(),
    total: z.number().int(),
    amountPaid: z.number().int(),
    amountDue: z.number().int(),
    totalDecimal: z.string().meta({ example: "54.00" }),
    attemptCount: z.number().int(),
    nextPaymentAttempt: Timestamp.nullable(),
    paidAt: Timestamp.nullable(),
    finalizedAt: Timestamp.nullable().meta({ description: "When the invoice was finalised; null while it is a draft or upcoming." }),
    finalizesAt: Timestamp.nullable().meta({
      description:
        "A draft's due time for finalising (the period's end plus the grace for late usage), as Stripe's automatically_finalizes_at; null once final.",
    }),
    payments: z.array(
      z.object({
        id: z.string(),
        status: z.string(),
        amount: z.number().int(),
        attempt: z.number().int(),
        failureCode: z.string().nullable(),
        failureMessage: z.string().nullable(),
        createdAt: Timestamp,
      }),
    ),
    environment: Environment,
    createdAt: Timestamp.nullable(),
  })
  .meta({ id: "Invoice" });

export const InvoiceLineParams = z.object({ id: z.string(), lineId: z.string() });
export const UpcomingQuery = z.strictObject({
  projectId: z.string().max(64).optional(),
  subscriptionId: z.string().max(64).optional().meta({ description: "Which subscription, when the project holds several." }),
});
