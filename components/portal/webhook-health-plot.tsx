"use client";
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

// An endpoint's success rate (bars, left axis in %) and average answer time (line, right axis in ms) per bucket.
// Loaded with next/dynamic by webhook-health.tsx, so Recharts stays out of the page's first load.

export interface HealthPoint {
  label: string;
  successRate: number | null;
  averageDuration: number | null;
  attempts: number;
}

export function HealthPlot({ series }: { series: HealthPoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={series}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis yAxisId="rate" domain={[0, 100]} unit="%" fontSize={11} />
        <YAxis yAxisId="ms" orientation="right" unit=" ms" fontSize={11} />
        <Tooltip
          formatter={(value, name) =>
            value === null || value === undefined ? ["no attempts", name] : [name === "Success rate" ? `${value}%` : `${value} ms`, name]
          }
        />
        <Legend />
        <Bar yAxisId="rate" dataKey="successRate" name="Success rate" fill="#10b981" />
        <Line yAxisId="ms" type="monotone" dataKey="averageDuration" name="Answer time" stroke="#6366f1" dot={{ r: 2 }} connectNulls />
      </ComposedChart>
    </ResponsiveContainer>
  );
}
