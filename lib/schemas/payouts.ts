import { z } from "zod";
import { Timestamp } from "./common";

// A provider's payout account (Stripe Connect) and its earnings (issue 60).

export const PayoutAccount = z
  .object({
    object: z.literal("payout_account"),
    provider: z.string().meta({ description: "The deployment's payment provider: stripe, or test (a test account, ready at once)." }),
    accountId: z
      .string()
      .nullable()
      .meta({ description: "The provider's connected account at Stripe (acct_…); null before onboarding starts." }),
    chargesEnabled: z
      .boolean()
      .meta({ description: "Stripe lets the account receive charges: live subscriptions to its paid prices are allowed." }),
    payoutsEnabled: z.boolean(),
    detailsSubmitted: z.boolean(),
    requirements: z.object({
      currentlyDue: z.array(z.string()).meta({ description: "What Stripe still needs (Stripe's requirements.currently_due)." }),
      disabledReason: z.string().nullable(),
    }),
    onboardingUrl: z
      .string()
      .nullable()
      .meta({ description: "Stripe's onboarding link (POST only): send the provider there; it expires in minutes." }),
  })
  .meta({ id: "PayoutAccount" });

export const Earning = z
  .object({
    id: z.string(),
    object: z.literal("earning"),
    invoiceId: z.string(),
    number: z.string().nullable(),
    customerId: z.string(),
    productId: z.string(),
    subscriptionId: z.string(),
    currency: z.string(),
    gross: z.number().int().meta({ description: "What the customer was charged, in minor units." }),
    platformFee: z.number().int().meta({ description: "The platform's application fee (PLATFORM_FEE_PERCENT), in minor units." }),
    refunded: z.number().int(),
    net: z.number().int().meta({ description: "gross − refunded − platformFee: what reaches the provider's account." }),
    grossDecimal: z.string(),
    platformFeeDecimal: z.string(),
    refundedDecimal: z.string(),
    netDecimal: z.string(),
    transferIds: z.array(z.string()).meta({ description: "Stripe's transfers to the provider's account (tr_…)." }),
    disputed: z.boolean(),
    paidAt: Timestamp.nullable(),
  })
  .meta({ id: "Earning" });

export const EarningsMonthQuery = z.strictObject({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a month as YYYY-MM")
    .optional()
    .meta({ description: "The month the invoices were paid in (default: this month)." }),
});

export const EarningsSummary = z
  .object({
    object: z.literal("earnings_summary"),
    month: z.string(),
    totals: z.array(
      z.object({
        currency: z.string(),
        invoices: z.number().int(),
        gross: z.number().int(),
        platformFee: z.number().int(),
        refunded: z.number().int(),
        net: z.number().int(),
        grossDecimal: z.string(),
        netDecimal: z.string(),
      }),
    ),
  })
  .meta({ id: "EarningsSummary" });
