import { minorToDecimal } from "@/lib/billing/money";

// Small formatting shared by the marketplace's portal pages.

export const day = (iso: string | null | undefined) => (iso ? new Date(iso).toISOString().slice(0, 10) : "—");

/** Minor units (cents) as the billing views print them: `1.01 USD`. */
export const minorMoney = (minor: number | null | undefined, currency: string | null | undefined) =>
  minor === null || minor === undefined || !currency ? "—" : `${minorToDecimal(BigInt(minor), currency)} ${currency}`;

export const statusTone = (status: string) =>
  status === "active" ? ("success" as const) : status === "past_due" ? ("warning" as const) : ("neutral" as const);
