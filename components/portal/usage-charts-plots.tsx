"use client";
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// The usage view's two Recharts plots. Recharts is ~100 KB gzip of the route's JavaScript, so usage-charts.tsx
// loads this module with next/dynamic after first paint (a placeholder of the same size stands in meanwhile):
// the numbers above the charts are there at once, the drawings a moment later.

export interface UsagePoint {
  label: string;
  ok: number;
  errors: number;
  p50Latency: number | null;
  p99Latency: number | null;
}

export function RequestsPlot({ series }: { series: UsagePoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={series}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis allowDecimals={false} fontSize={11} />
        <Tooltip />
        <Legend />
        <Bar dataKey="ok" name="Successful" stackId="a" fill="#6366f1" />
        <Bar dataKey="errors" name="Errors" stackId="a" fill="#ef4444" />
      </BarChart>
    </ResponsiveContainer>
  );
}

export function LatencyPlot({ series }: { series: UsagePoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={series}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis unit=" ms" fontSize={11} />
        <Tooltip />
        <Legend />
        <Line type="monotone" dataKey="p50Latency" name="p50" stroke="#6366f1" dot={{ r: 2 }} connectNulls />
        <Line type="monotone" dataKey="p99Latency" name="p99" stroke="#f59e0b" dot={{ r: 2 }} connectNulls />
      </LineChart>
    </ResponsiveContainer>
  );
}
