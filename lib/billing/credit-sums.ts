import { db, databaseProvider } from "@/lib/db/client";
import { flushUsageEverywhere } from "@/lib/usage/flush-everywhere";

// Exact sums of money for credits and spend caps. A usage event's cost is a Float holding nanos / 10^9 (printed
// back exactly, lib/billing/money.ts); adding Floats would drift after many events, so each cost is turned back
// into whole nanos in SQL before it is added (integers below 2^53 add exactly in both databases).

const nanosExpr = () => (databaseProvider() === "postgresql" ? `ROUND(("cost" * 1000000000)::numeric)` : `ROUND("cost" * 1000000000)`);

const toBigInt = (v: unknown): bigint => {
  if (v === null || v === undefined) return 0n;
  if (typeof v === "bigint") return v;
  // PostgreSQL's numeric arrives as a Decimal or string; SQLite's REAL as a number with an integral value.
  const text = typeof v === "number" ? v.toFixed(0) : String(v).replace(/\.0+$/, "");
  return BigInt(text);
};

/** Nanos of the subscription's usage events between `from` and `to` (all of time by default); `credits`: only
 * the events paid by prepaid credits (the burns). Every process's queued events are written first. */
export async function usageCostNanos(
  subscriptionId: string,
  opts: { from?: Date; to?: Date; credits?: boolean; flush?: boolean } = {},
): Promise<bigint> {
  if (opts.flush !== false) await flushUsageEverywhere();
  const pg = databaseProvider() === "postgresql";
  const param = (i: number) => (pg ? `$${i}` : "?");
  // Corrections of meter events can cost less than nothing (a refund of what they took back): counted too.
  const where = [`"subscriptionId" = ${param(1)}`, `"cost" <> 0`];
  const args: unknown[] = [subscriptionId];
  if (opts.credits) where.push(`"paidByCredits" = ${pg ? "true" : "1"}`);
  if (opts.from) {
    args.push(opts.from);
    where.push(`"timestamp" >= ${param(args.length)}`);
  }
  if (opts.to) {
    args.push(opts.to);
    where.push(`"timestamp" < ${param(args.length)}`);
  }
  const [row] = await db.$queryRawUnsafe<{ total: unknown }[]>(
    `SELECT SUM(${nanosExpr()}) AS "total" FROM "UsageEvent" WHERE ${where.join(" AND ")}`,
    ...args,
  );
  return toBigInt(row?.total);
}

/** The signed sum of each subscription's ledger entries (every entry but burns), in nanos. */
export async function ledgerNetNanos(subscriptionIds: string[]): Promise<Map<string, bigint>> {
  const out = new Map<string, bigint>();
  if (!subscriptionIds.length) return out;
  const rows = await db.creditEntry.groupBy({
    by: ["subscriptionId"],
    where: { subscriptionId: { in: subscriptionIds } },
    _sum: { amountNanos: true },
  });
  for (const r of rows) out.set(r.subscriptionId, toBigInt(r._sum.amountNanos));
  return out;
}
