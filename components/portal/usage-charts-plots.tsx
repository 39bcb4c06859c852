"use client";
import {
  Area,
  AreaChart,
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { UsageChartPoint } from "@/lib/apps/panel-blocks";

// The usage view's Recharts plots. Recharts is ~100 KB gzip of the route's JavaScript, so usage-charts.tsx
// loads this module with next/dynamic after first paint (a placeholder of the same size stands in meanwhile):
// the numbers above the charts are there at once, the drawings a moment later. Each plot shows the period
// before as a dashed line; hovering shows every value with its unit; a click on the requests or errors plot
// opens the logs of that interval.

export interface UsagePoint extends UsageChartPoint {
  prevRequests: number | null;
  prevErrors: number | null;
  prevP95: number | null;
}

export interface QuotaPoint {
  label: string;
  used: number;
}

type Pick = (index: number) => void;

const PREVIOUS = "#94a3b8";
const fmt = (unit: string) => (value: unknown, name: unknown) =>
  [value === null || value === undefined ? "—" : `${Number(value).toLocaleString()}${unit}`, String(name)] as [string, string];

/** The chart's click as the bucket's index (Recharts hands over the hovered index), or nothing. */
function clickToIndex(onPick?: Pick) {
  if (!onPick) return undefined;
  return (state: { activeTooltipIndex?: unknown; activeIndex?: unknown } | null) => {
    const i = Number(state?.activeTooltipIndex ?? state?.activeIndex);
    if (Number.isInteger(i) && i >= 0) onPick(i);
  };
}

/** `showPrevious={false}` leaves out the previous period's line (an app panel has no period before to compare). */
export function RequestsPlot({ series, onPick, showPrevious = true }: { series: UsagePoint[]; onPick?: Pick; showPrevious?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={series} onClick={clickToIndex(onPick)} className={onPick ? "cursor-pointer" : undefined}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis allowDecimals={false} fontSize={11} />
        <Tooltip formatter={fmt(" requests")} />
        <Legend />
        <Bar dataKey="ok" name="Successful" stackId="a" fill="#6366f1" isAnimationActive={false} />
        <Bar dataKey="errors" name="Errors" stackId="a" fill="#ef4444" isAnimationActive={false} />
        {showPrevious ? (
          <Line
            dataKey="prevRequests"
            name="Previous period"
            stroke={PREVIOUS}
            strokeDasharray="5 4"
            dot={false}
            isAnimationActive={false}
          />
        ) : null}
      </ComposedChart>
    </ResponsiveContainer>
  );
}

export function ErrorsPlot({ series, onPick }: { series: UsagePoint[]; onPick?: Pick }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={series} onClick={clickToIndex(onPick)} className={onPick ? "cursor-pointer" : undefined}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis allowDecimals={false} fontSize={11} />
        <Tooltip formatter={fmt(" errors")} />
        <Legend />
        <Bar dataKey="errors" name="Errors (4xx and 5xx)" fill="#ef4444" isAnimationActive={false} />
        <Line dataKey="prevErrors" name="Previous period" stroke={PREVIOUS} strokeDasharray="5 4" dot={false} isAnimationActive={false} />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

export function LatencyPlot({ series }: { series: UsagePoint[] }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <ComposedChart data={series}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis unit=" ms" fontSize={11} />
        <Tooltip formatter={fmt(" ms")} />
        <Legend />
        <Line type="monotone" dataKey="p50Latency" name="p50" stroke="#6366f1" dot={{ r: 2 }} connectNulls isAnimationActive={false} />
        <Line type="monotone" dataKey="p95Latency" name="p95" stroke="#f59e0b" dot={{ r: 2 }} connectNulls isAnimationActive={false} />
        <Line type="monotone" dataKey="p99Latency" name="p99" stroke="#ef4444" dot={{ r: 2 }} connectNulls isAnimationActive={false} />
        <Line
          dataKey="prevP95"
          name="p95, previous period"
          stroke={PREVIOUS}
          strokeDasharray="5 4"
          dot={false}
          connectNulls
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

/** The month's requests as a running total, under the quota (solid) and its alert thresholds (dashed). */
export function QuotaPlot({ days, limit, notifyAt }: { days: QuotaPoint[]; limit: number; notifyAt: number[] }) {
  const top = Math.max(limit * 1.05, ...days.map((d) => d.used));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={days}>
        <CartesianGrid strokeDasharray="3 3" opacity={0.3} />
        <XAxis dataKey="label" fontSize={11} />
        <YAxis domain={[0, Math.ceil(top)]} allowDecimals={false} fontSize={11} />
        <Tooltip formatter={fmt(" requests")} />
        <Area dataKey="used" name="Used this month" stroke="#6366f1" fill="#6366f1" fillOpacity={0.2} isAnimationActive={false} />
        <ReferenceLine
          y={limit}
          stroke="#ef4444"
          strokeWidth={2}
          label={{ value: `Quota ${limit.toLocaleString()}`, position: "insideTopRight", fontSize: 11 }}
        />
        {notifyAt
          .filter((t) => t < 100)
          .map((t) => (
            <ReferenceLine
              key={t}
              y={(limit * t) / 100}
              stroke="#f59e0b"
              strokeDasharray="4 4"
              label={{ value: `Alert at ${t}%`, position: "insideBottomLeft", fontSize: 11 }}
            />
          ))}
      </AreaChart>
    </ResponsiveContainer>
  );
}
