import { analyticsDb } from "@/lib/db/client";
import { now } from "@/lib/clock";
import type { Product as ProductRow } from "@/generated/prisma-sqlite";
import { toolCallStats } from "@/lib/usage/tool-call-stats";
import { circuitState } from "./circuit-breaker";

// A provider's view of one product's calls (gateway, verifications, meter events) over the last day or week:
// calls, errors, latency percentiles of gateway calls, the top consumers, and the circuit breaker's state in this
// process. Latencies come from at most the last 50,000 calls of the window, enough for a p99.

const PERIODS = { day: 86_400_000, week: 7 * 86_400_000 } as const;
export type StatsPeriod = keyof typeof PERIODS;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;

export async function productCallStats(product: ProductRow, period: StatsPeriod = "day") {
  const to = now();
  const from = new Date(to.getTime() - PERIODS[period]);
  const where = { productId: product.id, providerId: product.businessId, timestamp: { gte: from, lt: to } };
  const [byStatus, latencies, byConsumer] = await Promise.all([
    analyticsDb.usageEvent.groupBy({ by: ["statusCode"], where, _count: { _all: true }, _sum: { cost: true } }),
    analyticsDb.usageEvent.findMany({
      where: { ...where, method: { notIn: ["VERIFY", "METER"] } },
      select: { latency: true },
      orderBy: { timestamp: "desc" },
      take: 50_000,
    }),
    analyticsDb.usageEvent.groupBy({
      by: ["businessId"],
      where,
      _count: { _all: true },
      orderBy: { _count: { businessId: "desc" } },
      take: 5,
    }),
  ]);
  const names = new Map(
    (
      await analyticsDb.business.findMany({ where: { id: { in: byConsumer.map((c) => c.businessId) } }, select: { id: true, name: true } })
    ).map((b) => [b.id, b.name]),
  );
  const sorted = latencies.map((l) => l.latency).sort((a, b) => a - b);
  const calls = byStatus.reduce((n, r) => n + r._count._all, 0);
  return {
    object: "product_call_stats" as const,
    productId: product.id,
    period,
    from: from.toISOString(),
    to: to.toISOString(),
    calls,
    errors: byStatus.filter((r) => r.statusCode >= 400).reduce((n, r) => n + r._count._all, 0),
    serverErrors: byStatus.filter((r) => r.statusCode >= 500).reduce((n, r) => n + r._count._all, 0),
    revenue: Math.round(byStatus.reduce((n, r) => n + (r._sum.cost ?? 0), 0) * 1e9) / 1e9,
    latencyMs: { p50: percentile(sorted, 50), p99: percentile(sorted, 99) },
    topConsumers: byConsumer.map((c) => ({ businessId: c.businessId, name: names.get(c.businessId) ?? "", calls: c._count._all })),
    circuit: circuitState(product.id),
  };
}

/**
 * The product's MCP tool calls of the last 7 days (`/mcp/{slug}`, one usage event per tools/call): calls, errors and
 * p50 latency per tool, for the provider's MCP server card.
 */
export async function productToolStats(product: Pick<ProductRow, "id" | "businessId" | "slug">) {
  const to = now();
  const from = new Date(to.getTime() - PERIODS.week);
  if (!product.slug) return { from: from.toISOString(), to: to.toISOString(), tools: [] };
  const tools = await toolCallStats({
    productId: product.id,
    providerId: product.businessId,
    endpoint: `/mcp/${product.slug}`,
    timestamp: { gte: from, lt: to },
  });
  return { from: from.toISOString(), to: to.toISOString(), tools };
}
