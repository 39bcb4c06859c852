import { db } from "@/lib/db/client";
import { paymentProviderName } from "./payment-provider";

// Who gets a payment (issue 60): with Stripe, a charge for another business's product is a destination charge to
// that provider's connected account (Connect), of which the platform keeps PLATFORM_FEE_PERCENT as its application
// fee. A business paying for its own product, the test provider, or a seller without a connected account: a plain
// charge on the platform's account.

/** The platform's share of a payment in minor units: PLATFORM_FEE_PERCENT of it, rounded half up at the minor unit. */
export function platformFee(amountMinor: number, percent = process.env.PLATFORM_FEE_PERCENT || "0"): number {
  // Exact in integers: the percent in ten-thousandths (up to four decimals), so 10 % of 200 is 20, never 19.999….
  const [whole, fraction = ""] = percent.split(".");
  const tenThousandths = BigInt(whole || "0") * 10_000n + BigInt((fraction + "0000").slice(0, 4));
  const millionths = BigInt(amountMinor) * tenThousandths;
  return Number((millionths + 500_000n) / 1_000_000n);
}

export interface ChargeParties {
  destination?: string;
  applicationFee?: number;
}

export async function chargeParties(sellerId: string | null, buyerId: string, amountMinor: number): Promise<ChargeParties> {
  if (paymentProviderName() !== "stripe" || !sellerId || sellerId === buyerId) return {};
  const account = await db.stripeAccount.findUnique({ where: { businessId: sellerId }, select: { accountId: true } });
  if (!account?.accountId) return {};
  return { destination: account.accountId, applicationFee: platformFee(amountMinor) };
}

/**
 * The platform's fee still kept after `refunded` of a destination charge of `amount` was refunded with
 * refund_application_fee: Stripe gives the fee back in proportion; computed on the refunded total, half up.
 */
export function feeAfterRefund(fee: number, amount: number, refunded: number): number {
  if (!fee || !refunded) return fee;
  const given = (BigInt(fee) * BigInt(refunded) * 2n + BigInt(amount)) / (2n * BigInt(amount));
  return fee - Number(given);
}
