import { z } from "zod";
import { hasAtMostNineDecimals } from "@/lib/billing/money";
import { Timestamp } from "./common";
import { PaymentMethodInput } from "./payment-method";

// Prepaid credits, spend caps and auto top-up (issue 39). Amounts in requests are numbers in the price's major
// unit with at most 9 decimals (as prices are); amounts in answers are exact decimal strings, since a balance is
// kept in nanos (10^-9 of the unit).

/** A positive amount of money in the major unit (at most 1,000,000 at once). */
export const MoneyAmount = z
  .number()
  .gt(0, "must be greater than 0")
  .max(1_000_000)
  .refine(hasAtMostNineDecimals, "must have at most 9 decimal places");

export const CreditPurchase = z
  .strictObject({
    amount: MoneyAmount.meta({ description: "Credits to buy, in the price's currency (major unit).", example: 10 }),
    paymentMethod: PaymentMethodInput.optional().meta({ description: "Defaults to the subscription's card." }),
  })
  .meta({ id: "CreditPurchase" });

export const CreditGrantCreate = z
  .strictObject({
    subscription: z.string().min(1).max(64).meta({ description: "The customer's subscription to one of your products." }),
    amount: MoneyAmount,
    expiresAt: Timestamp.optional().meta({ description: "When what is left of the grant lapses; it never does when omitted." }),
    note: z.string().min(1).max(500).meta({ description: "Why the credits are given (shown to both sides)." }),
  })
  .meta({ id: "CreditGrantCreate" });

export const SPEND_CAP_ACTIONS = ["block", "notify"] as const;

export const SpendCapInput = z
  .strictObject({
    amount: MoneyAmount.meta({ description: "The most the subscription may spend in a billing period." }),
    action: z.enum(SPEND_CAP_ACTIONS).meta({ description: "block: calls get 402 SPEND_CAP_REACHED at the cap; notify: events only." }),
    thresholds: z
      .array(z.number().int().min(1).max(100))
      .min(1)
      .max(10)
      .optional()
      .meta({ description: "Percentages of the cap that send billing.spend_threshold. Default [50, 80, 100]." }),
  })
  .meta({ id: "SpendCapInput" });

export const AutoRechargeInput = z
  .strictObject({
    below: MoneyAmount.meta({ description: "Charge the card when the balance falls below this." }),
    amount: MoneyAmount.meta({ description: "Credits bought each time." }),
    monthlyLimit: MoneyAmount.meta({ description: "The most auto top-up may charge in a calendar month (UTC)." }),
  })
  .refine((a) => a.amount <= a.monthlyLimit, { message: "must be at most monthlyLimit", path: ["amount"] })
  .meta({ id: "AutoRechargeInput" });

export const SpendCap = z
  .object({ amount: z.string(), action: z.enum(SPEND_CAP_ACTIONS), thresholds: z.array(z.number().int()) })
  .meta({ id: "SpendCap" });
export const AutoRecharge = z.object({ below: z.string(), amount: z.string(), monthlyLimit: z.string() }).meta({ id: "AutoRecharge" });

export const CREDIT_ENTRY_TYPES = ["purchase", "grant", "burn", "expiry", "refund", "adjustment", "invoice", "auto_recharge"] as const;

export const CreditGrant = z
  .object({
    id: z.string(),
    type: z.enum(["purchase", "grant", "auto_recharge", "adjustment", "refund"]),
    amount: z.string().meta({ description: "What the grant gave." }),
    remaining: z.string().meta({ description: "What is left of it (spent oldest-expiring first)." }),
    expired: z.string().nullable().meta({ description: "What lapsed at expiresAt; null while it has not expired." }),
    expiresAt: Timestamp.nullable(),
    note: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "CreditGrant" });

export const CreditBalance = z
  .object({
    object: z.literal("credit_balance"),
    subscriptionId: z.string(),
    currency: z.string(),
    billing: z.enum(["prepaid", "postpaid"]),
    balance: z.string().meta({ description: "Credits left, exact, in the major unit: granted minus spent and expired." }),
    pending: z.string().meta({ description: "Reserved by calls in flight (taken from the balance when they settle)." }),
    granted: z.string(),
    spent: z.string().meta({ description: "Burned by calls and applied to invoices." }),
    expired: z.string(),
    spendCap: SpendCap.nullable(),
    periodSpend: z.string().meta({ description: "What the running period's calls cost so far." }),
    spendAlerts: z.array(z.number().int()).meta({ description: "The cap's thresholds (percent) crossed this period." }),
    autoRecharge: AutoRecharge.nullable(),
    grants: z.array(CreditGrant),
  })
  .meta({ id: "CreditBalance" });

export const CreditLedgerEntry = z
  .object({
    id: z.string().meta({ description: "The entry's id; for a burn, the usage event's (same request id as the call)." }),
    object: z.literal("credit_ledger_entry"),
    type: z.enum(CREDIT_ENTRY_TYPES),
    amount: z.string().meta({ description: "Signed: credits added are positive, spent or lapsed negative." }),
    currency: z.string(),
    requestId: z.string().nullable().meta({ description: "The call a burn paid for." }),
    invoiceId: z.string().nullable(),
    paymentId: z.string().nullable(),
    grantId: z.string().nullable(),
    note: z.string().nullable(),
    createdBy: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "CreditLedgerEntry" });
