// Money without binary floating point. Two exact representations, like Google's `Money` and Stripe's amounts:
//   - nanos: a bigint count of 10^-9 of the currency's major unit. Every rating sum is kept in nanos, so a price of
//     0.000002 per token or 0.09 per GB adds up exactly however many events there are.
//   - minor units: an integer count of the currency's smallest unit (cents; yen for JPY). Invoices are in minor
//     units; a line's nanos are rounded half up to minor units once, at the end.
// Prices are stored as numbers with at most 9 decimal places (validated in lib/schemas/price.ts); toNanos() reads
// the decimal the number was written as, never the binary fraction it happens to be stored as.

export const NANOS_PER_UNIT = 1_000_000_000n;
export const MAX_DECIMALS = 9;

/** ISO 4217 currencies of the price schema whose minor unit is the major unit itself. */
const ZERO_DECIMAL = new Set(["JPY", "KRW", "VND", "CLP"]);

export function minorExponent(currency: string): number {
  return ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2;
}

/** Whether a number is written with at most 9 decimal places (what the schema accepts as an amount). */
export function hasAtMostNineDecimals(n: number): boolean {
  return Number.isFinite(n) && Math.abs(n) < 1e12 && Number(n.toFixed(MAX_DECIMALS)) === n;
}

/** The exact nanos of a stored amount: toFixed(9) prints the decimal the number was written as. */
export function toNanos(amount: number | null | undefined): bigint {
  if (amount === null || amount === undefined || !Number.isFinite(amount)) return 0n;
  const fixed = Math.abs(amount).toFixed(MAX_DECIMALS);
  const nanos = BigInt(fixed.replace(".", ""));
  return amount < 0 ? -nanos : nanos;
}

/** The exact nanos of a decimal string as nanosToDecimal prints it ("-0.0015" → -1_500_000n). */
export function decimalToNanos(decimal: string): bigint {
  const negative = decimal.startsWith("-");
  const [whole, frac = ""] = (negative ? decimal.slice(1) : decimal).split(".");
  const nanos = BigInt(whole || "0") * NANOS_PER_UNIT + BigInt(frac.padEnd(MAX_DECIMALS, "0").slice(0, MAX_DECIMALS) || "0");
  return negative ? -nanos : nanos;
}

// Most calls of a price cost the same: their text is kept (a bigint division and a regular expression each, on every
// gateway call's X-Request-Cost), a few hundred amounts at most.
const decimals = new Map<bigint, string>();

/** Nanos as a plain decimal string with its significant decimals only: 1_500_000n → "0.0015". */
export function nanosToDecimal(nanos: bigint): string {
  let text = decimals.get(nanos);
  if (text === undefined) {
    if (decimals.size >= 512) decimals.clear();
    decimals.set(nanos, (text = decimalOf(nanos)));
  }
  return text;
}

function decimalOf(nanos: bigint): string {
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const whole = abs / NANOS_PER_UNIT;
  const frac = (abs % NANOS_PER_UNIT).toString().padStart(MAX_DECIMALS, "0").replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** Nanos rounded half up (away from zero) to the currency's minor unit. */
export function nanosToMinor(nanos: bigint, currency: string): bigint {
  const step = 10n ** BigInt(MAX_DECIMALS - minorExponent(currency));
  const negative = nanos < 0n;
  const abs = negative ? -nanos : nanos;
  const rounded = (abs + step / 2n) / step;
  return negative ? -rounded : rounded;
}

/** Minor units as a decimal string in the major unit: 1234n USD → "12.34"; 500n JPY → "500". */
export function minorToDecimal(minor: bigint, currency: string): string {
  const exp = minorExponent(currency);
  if (exp === 0) return minor.toString();
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const base = 10n ** BigInt(exp);
  return `${negative ? "-" : ""}${abs / base}.${(abs % base).toString().padStart(exp, "0")}`;
}

/** A cost for a usage event's Float `cost` column: nanos / 10^9, exact when printed back (≤ 15 significant digits). */
export function nanosToNumber(nanos: bigint): number {
  return Number(nanosToDecimal(nanos));
}

/** The inverse of nanosToNumber for values it wrote: a stored event cost back to exact nanos. */
export function numberToNanos(n: number | null): bigint {
  return n === null ? 0n : toNanos(n);
}

/** Minor units as a JSON-safe number (invoice amounts stay far below 2^53 minor units). */
export function minorToNumber(minor: bigint): number {
  return Number(minor);
}

/**
 * Minor units for several exact amounts that add up to their exact sum rounded half up (largest remainder):
 * each part is its amount rounded down or up, and the parts' total is what the whole rounds to. An invoice's
 * lines then add up to its total, and the total is the sum of its usage events' costs to the minor unit.
 */
export function allocateMinor(parts: bigint[], currency: string): bigint[] {
  const step = 10n ** BigInt(MAX_DECIMALS - minorExponent(currency));
  const total = nanosToMinor(
    parts.reduce((s, p) => s + p, 0n),
    currency,
  );
  const floors = parts.map((p) => (p >= 0n ? p / step : -((-p + step - 1n) / step)));
  let left = total - floors.reduce((s, f) => s + f, 0n);
  const order = parts
    .map((p, i) => ({ i, rest: p - floors[i] * step }))
    .sort((a, b) => (b.rest > a.rest ? 1 : b.rest < a.rest ? -1 : a.i - b.i));
  const out = floors.slice();
  for (const { i } of order) {
    if (left <= 0n) break;
    out[i] += 1n;
    left -= 1n;
  }
  return out;
}
