import { db, databaseProvider } from "@/lib/db/client";
import { flushUsageEverywhere } from "@/lib/usage/flush-everywhere";
import { zeroQuantities, type Quantities } from "./rate-events";
import type { PricePlan } from "./price-plan";

// What a subscription used in a period, from its usage events: the product calls it rated that succeeded (status
// below 400; and failed ones its price bills, which carry a cost). Calls of the platform's own /v1 are control
// plane and carry no subscription, so no invoice counts them. Live events are the billable ones (contract.md);
// test events are rated the same way into test invoices, like Stripe's test mode, and never charged to a real
// card. A project-wide scope (projectId and environment) is what the plan simulator reads.

export type PeriodScope = ({ subscriptionId: string } | { projectId: string; environment: string }) & {
  start: Date;
  end: Date;
  idBefore?: string | null;
};

export function usageWhere(s: PeriodScope) {
  const owner = "subscriptionId" in s ? { subscriptionId: s.subscriptionId } : { projectId: s.projectId, environment: s.environment };
  return {
    ...owner,
    timestamp: { gte: s.start, lt: s.end },
    OR: [{ statusCode: { lt: 400 } }, { cost: { gt: 0 } }],
    ...(s.idBefore ? { id: { lt: s.idBefore } } : {}),
  };
}

/** Totals of a period in base units: requests, bytes (tokens are counted from bytes), compute in 0.01 ms; and the
 * totals of the measured metrics `opts.metrics` names (quantities the gateway read from the calls' answers). */
export async function periodQuantities(s: PeriodScope, opts: { flush?: boolean; metrics?: string[] } = {}): Promise<Quantities> {
  // Every process's queued events belong to the period too (the data plane's workers hold them until their flush).
  if (opts.flush !== false) await flushUsageEverywhere();
  const agg = await db.usageEvent.aggregate({
    where: usageWhere(s),
    _sum: { requestSize: true, responseSize: true, computeTime: true, quantity: true },
  });
  const q = zeroQuantities();
  q.requests = agg._sum.quantity ?? 0;
  q.bytes = (agg._sum.requestSize ?? 0) + (agg._sum.responseSize ?? 0);
  q.tokens = q.bytes;
  q.compute = Math.round((agg._sum.computeTime ?? 0) * 100);
  if (opts.metrics?.length) q.measured = await measuredSums(s, opts.metrics);
  return q;
}

/** The period's sum of each measured metric: one SQL sum per metric over the events' `quantities` JSON. */
async function measuredSums(s: PeriodScope, metrics: string[]): Promise<Record<string, number>> {
  const pg = databaseProvider() === "postgresql";
  const args: unknown[] = [];
  const param = (v: unknown) => {
    args.push(v);
    return pg ? `$${args.length}` : "?";
  };
  const sums = metrics.map((m) =>
    pg
      ? `SUM(("quantities"->>${param(m)})::float8)`
      : `SUM(CAST(json_extract("quantities", ${param(`$."${m.replace(/"/g, '""')}"`)}) AS REAL))`,
  );
  const where =
    "subscriptionId" in s
      ? [`"subscriptionId" = ${param(s.subscriptionId)}`]
      : [`"projectId" = ${param(s.projectId)}`, `"environment" = ${param(s.environment)}`];
  where.push(
    `"timestamp" >= ${param(s.start)}`,
    `"timestamp" < ${param(s.end)}`,
    `("statusCode" < 400 OR "cost" > 0)`,
    `"quantities" IS NOT NULL`,
  );
  if (s.idBefore) where.push(`"id" < ${param(s.idBefore)}`);
  const [row] = await db.$queryRawUnsafe<Record<string, unknown>[]>(
    `SELECT ${sums.map((x, i) => `${x} AS "m${i}"`).join(", ")} FROM "UsageEvent" WHERE ${where.join(" AND ")}`,
    ...args,
  );
  return Object.fromEntries(metrics.map((m, i) => [m, Math.round(Number(row?.[`m${i}`] ?? 0))]));
}

/** The measured metrics a plan rates (what periodQuantities must sum for it). */
export const measuredMetrics = (plan: PricePlan): string[] => plan.usage.filter((c) => c.measure === "measured").map((c) => c.metricKey!);

/** The events of a period in rating order (timestamp, then id), a page at a time. */
export async function* periodEvents(s: PeriodScope, pageSize = 5000) {
  let after: { timestamp: Date; id: string } | null = null;
  for (;;) {
    const page: {
      id: string;
      timestamp: Date;
      method: string;
      endpoint: string;
      statusCode: number;
      requestSize: number;
      responseSize: number;
      computeTime: number | null;
      apiKey: string;
      quantity: number;
      quantities: unknown;
    }[] = await db.usageEvent.findMany({
      where: {
        ...usageWhere(s),
        ...(after ? { AND: [{ OR: [{ timestamp: { gt: after.timestamp } }, { timestamp: after.timestamp, id: { gt: after.id } }] }] } : {}),
      },
      orderBy: [{ timestamp: "asc" }, { id: "asc" }],
      take: pageSize,
      select: {
        id: true,
        timestamp: true,
        method: true,
        endpoint: true,
        statusCode: true,
        requestSize: true,
        responseSize: true,
        computeTime: true,
        apiKey: true,
        quantity: true,
        quantities: true,
      },
    });
    for (const e of page) yield e;
    if (page.length < pageSize) return;
    const last = page[page.length - 1];
    after = { timestamp: last.timestamp, id: last.id };
  }
}
