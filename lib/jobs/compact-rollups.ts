import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { Prisma } from "@/generated/prisma-sqlite";
import { merge, type Histogram } from "@/lib/usage/histogram";
import { hourOf, rollupKey } from "@/lib/usage/recorder";

// Each flush writes partial rollup rows; once an hour is over, its partial rows are merged into one row per
// dimension, so a month of metrics reads few rows.

const PAGE = 5000;

export async function compactRollups(): Promise<{ merged: number; written: number }> {
  const cutoff = hourOf(now());
  let merged = 0,
    written = 0;
  for (;;) {
    const rows = await db.usageRollup.findMany({ where: { compacted: false, hour: { lt: cutoff } }, orderBy: { hour: "asc" }, take: PAGE });
    if (rows.length === 0) break;
    const groups = new Map<string, typeof rows>();
    for (const r of rows) {
      const k = rollupKey(r);
      const g = groups.get(k);
      if (g) g.push(r);
      else groups.set(k, [r]);
    }
    const data: Prisma.UsageRollupCreateManyInput[] = [];
    for (const g of groups.values()) {
      const first = g[0];
      const hist: Histogram = {};
      for (const r of g) merge(hist, r.latencyHist as Histogram);
      data.push({
        id: newId("rollup"),
        projectId: first.projectId,
        environment: first.environment,
        hour: first.hour,
        endpoint: first.endpoint,
        method: first.method,
        statusCode: first.statusCode,
        errorType: first.errorType,
        apiKey: first.apiKey,
        principal: first.principal,
        productId: first.productId,
        count: g.reduce((s, r) => s + r.count, 0),
        billableCount: g.reduce((s, r) => s + r.billableCount, 0),
        latencySum: g.reduce((s, r) => s + r.latencySum, 0),
        latencyHist: hist,
        requestBytes: g.reduce((s, r) => s + r.requestBytes, 0),
        responseBytes: g.reduce((s, r) => s + r.responseBytes, 0),
        computeMs: g.reduce((s, r) => s + r.computeMs, 0),
        cost: g.reduce((s, r) => s + r.cost, 0),
        compacted: true,
      });
    }
    // One transaction: the metrics never see a partial row and its merged copy at once.
    await db.$transaction([
      db.usageRollup.deleteMany({ where: { id: { in: rows.map((r) => r.id) } } }),
      db.usageRollup.createMany({ data }),
    ]);
    merged += rows.length;
    written += data.length;
    if (rows.length < PAGE) break;
  }
  return { merged, written };
}
