"use client";
import dynamic from "next/dynamic";

// The Revenue view's chart: months on the x axis, each product a stacked segment of the month's bar. Recharts is
// loaded after first paint; the table under the chart carries the same numbers at once.

const RevenuePlot = dynamic(() => import("./revenue-plot").then((m) => m.RevenuePlot), {
  ssr: false,
  loading: () => (
    <div role="status" aria-label="Loading chart" className="h-full rounded bg-slate-100 motion-safe:animate-pulse dark:bg-slate-800" />
  ),
});

export interface RevenuePoint {
  month: string;
  product: string;
  amount: number;
}

export function RevenueChart({ points, currency }: { points: RevenuePoint[]; currency: string }) {
  const months = [...new Set(points.map((p) => p.month))].sort();
  const products = [...new Set(points.map((p) => p.product))].sort();
  const data = months.map((month) => {
    const row: Record<string, number | string> = { month };
    for (const p of points.filter((x) => x.month === month)) row[p.product] = ((row[p.product] as number) ?? 0) + p.amount;
    return row;
  });
  return (
    <figure className="h-72" aria-label={`Revenue per month and product, in ${currency}`}>
      <RevenuePlot data={data} products={products} currency={currency} />
    </figure>
  );
}
