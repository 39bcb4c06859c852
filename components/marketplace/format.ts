import { minorExponent, minorToDecimal } from "@/lib/billing/money";

// Small formatting shared by the marketplace's portal pages.

export const day = (iso: string | null | undefined) => (iso ? new Date(iso).toISOString().slice(0, 10) : "—");

/** Minor units (cents) as the billing views print them: `1.01 USD`. */
export const minorMoney = (minor: number | null | undefined, currency: string | null | undefined) =>
  minor === null || minor === undefined || !currency ? "—" : `${minorToDecimal(BigInt(minor), currency)} ${currency}`;

export const statusTone = (status: string) =>
  status === "active"
    ? ("success" as const)
    : status === "past_due"
      ? ("warning" as const)
      : status === "unpaid"
        ? ("danger" as const)
        : ("neutral" as const);

/**
 * An exact decimal string in the major unit (a credit balance, a ledger amount) as `1.00 USD`, `-0.002 USD`,
 * `1,250.50 USD`: at least the currency's minor digits, every significant decimal kept (never rounded).
 */
export function decimalMoney(amount: string | null | undefined, currency: string | null | undefined, { signed = false } = {}): string {
  if (amount === null || amount === undefined || !currency) return "—";
  const negative = amount.startsWith("-");
  const [whole, frac = ""] = amount.replace(/^[-+]/, "").split(".");
  const digits = minorExponent(currency);
  const fraction = frac.length >= digits ? frac : frac.padEnd(digits, "0");
  const grouped = BigInt(whole || "0").toLocaleString("en-US");
  const zero = /^0*$/.test(whole + frac);
  const sign = negative && !zero ? "−" : signed && !zero ? "+" : "";
  return `${sign}${grouped}${fraction ? `.${fraction}` : ""} ${currency}`;
}
