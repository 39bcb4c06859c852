import { z } from "zod";
import { Environment, Metadata, Timestamp } from "./common";
import { AutoRecharge, AutoRechargeInput, SpendCap, SpendCapInput } from "./credits";
import { PaymentMethodInput } from "./payment-method";
export { PaymentMethodInput };

// Subscriptions, invoices and payments. Money on invoices is an integer count of the currency's minor unit
// (cents; yen for JPY), as in Stripe; exact per-unit prices and line amounts are decimal strings in the major unit.

export const SUBSCRIPTION_STATUSES = ["active", "past_due", "unpaid", "canceled"] as const;

/** The statuses of a current subscription (the project's one slot per product): all but canceled. past_due is a
 * failed payment being retried; unpaid is every retry failed, its calls refused until the invoice is paid. */
export const CURRENT_SUBSCRIPTION_STATUSES = ["active", "past_due", "unpaid"];

export const isCurrentSubscription = (status: string) => CURRENT_SUBSCRIPTION_STATUSES.includes(status);

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
        stripePaymentIntent: z.string().nullable(),
        amountRefunded: z.number().int(),
        createdAt: Timestamp,
      }),
    ),
    amountRefunded: z.number().int().meta({ description: "Given back to the customer so far, in the minor unit." }),
    disputed: z.boolean().meta({ description: "The customer disputed a payment with their bank (charge.dispute.created)." }),
    refunds: z.array(z.lazy(() => Refund)),
    environment: Environment,
    createdAt: Timestamp.nullable(),
  })
  .meta({ id: "Invoice" });

export const REFUND_REASONS = ["duplicate", "fraudulent", "requested_by_customer"] as const;

export const RefundCreate = z
  .strictObject({
    amount: z
      .number()
      .int()
      .min(1)
      .max(100_000_000_00)
      .optional()
      .meta({ description: "In the invoice currency's minor unit; all that is left when omitted." }),
    reason: z.enum(REFUND_REASONS).optional(),
  })
  .meta({ id: "RefundCreate" });
export type RefundCreate = z.infer<typeof RefundCreate>;

export const Refund = z
  .object({
    id: z.string(),
    object: z.literal("refund"),
    invoiceId: z.string(),
    paymentId: z.string(),
    amount: z.number().int(),
    amountDecimal: z.string(),
    currency: z.string(),
    reason: z.string().nullable(),
    status: z.enum(["pending", "succeeded", "failed"]),
    stripeRefund: z.string().nullable().meta({ description: "Stripe's refund (re_…), or the test provider's reference." }),
    createdAt: Timestamp,
  })
  .meta({ id: "Refund" });

export const InvoiceLineParams = z.object({ id: z.string(), lineId: z.string() });
export const UpcomingQuery = z.strictObject({
  projectId: z.string().max(64).optional(),
  subscriptionId: z.string().max(64).optional().meta({ description: "Which subscription, when the project holds several." }),
});

export const PaymentMethodCreate = z
  .strictObject({
    paymentMethod: PaymentMethodInput,
    default: z.boolean().optional().meta({
      description: "Make it the default (true when omitted): given to every current subscription, whose open invoices it pays at once.",
    }),
  })
  .meta({ id: "PaymentMethodCreate" });
export type PaymentMethodCreate = z.infer<typeof PaymentMethodCreate>;

export const PaymentMethod = z
  .object({
    id: z.string(),
    object: z.literal("payment_method"),
    type: z.literal("card"),
    provider: z.string().meta({ description: "stripe, or test (the built-in test provider)" }),
    brand: z.string(),
    last4: z.string(),
    expMonth: z.number().int().nullable(),
    expYear: z.number().int().nullable(),
    default: z.boolean(),
    stripePaymentMethod: z.string().nullable().meta({ description: "Stripe's PaymentMethod (pm_…)" }),
    createdAt: Timestamp,
    charged: z
      .array(z.object({ invoiceId: z.string(), outcome: z.enum(["paid", "failed", "skipped"]) }))
      .optional()
      .meta({ description: "On creation: the open invoices it was charged for at once, and how each went." }),
  })
  .meta({ id: "PaymentMethod" });

export const SetupIntent = z
  .object({
    id: z.string(),
    object: z.literal("setup_intent"),
    clientSecret: z.string().meta({ description: "For Stripe.js: stripe.elements({clientSecret}) and confirmSetup." }),
    publishableKey: z.string().nullable(),
  })
  .meta({ id: "SetupIntent" });

export const InvoicePayment = z
  .object({
    status: z
      .enum(["paid", "failed", "requires_action", "processing"])
      .meta({ description: "processing: a charge of the invoice was already under way; read the invoice for its outcome." }),
    clientSecret: z
      .string()
      .nullable()
      .meta({ description: "requires_action: the PaymentIntent's client secret, for stripe.confirmCardPayment in the browser." }),
    paymentIntent: z.string().nullable(),
    publishableKey: z.string().nullable(),
    invoice: Invoice,
  })
  .meta({ id: "InvoicePayment" });
