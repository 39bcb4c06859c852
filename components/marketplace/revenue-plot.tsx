"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// Revenue per month, one stacked bar segment per product (Recharts, loaded after first paint by revenue-chart.tsx).

const COLORS = ["#6366f1", "#10b981", "#f59e0b", "#ef4444", "#0ea5e9", "#a855f7", "#14b8a6", "#f97316"];

export function RevenuePlot({
  data,
  products,
  currency,
}: {
  data: Record<string, number | string>[];
  products: string[];
  currency: string;
}) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="month" fontSize={11} />
        <YAxis fontSize={11} unit={` ${currency}`} width={90} />
        <Tooltip />
        <Legend />
        {products.map((name, i) => (
          <Bar key={name} dataKey={name} name={name} stackId="revenue" fill={COLORS[i % COLORS.length]} />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
