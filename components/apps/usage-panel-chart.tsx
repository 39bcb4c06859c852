"use client";
import dynamic from "next/dynamic";
import type { UsageChartPoint } from "@/lib/apps/panel-blocks";

// An app panel's calls-and-errors chart: the Usage view's Recharts plot (components/portal/usage-charts-plots.tsx),
// loaded after first paint; the panel's numbers are in the page at once.

const RequestsPlot = dynamic(() => import("@/components/portal/usage-charts-plots").then((m) => m.RequestsPlot), {
  ssr: false,
  loading: () => <div role="status" aria-label="Loading chart" className="h-full rounded bg-(--app-surface) motion-safe:animate-pulse" />,
});

export function UsagePanelChart({ caption, points }: { caption: string; points: UsageChartPoint[] }) {
  const series = points.map((p) => ({ ...p, prevRequests: null, prevErrors: null, prevP95: null }));
  return (
    <figure className="h-56" aria-label={caption}>
      <RequestsPlot series={series} showPrevious={false} />
    </figure>
  );
}
