"use client";
import { useState } from "react";
import dynamic from "next/dynamic";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { portalGet } from "./portal-get";

// An endpoint's health over 24 hours or 7 days: success rate and answer time of its attempts, in numbers and as
// a chart (lib/webhooks/delivery-stats.ts).

const HealthPlot = dynamic(() => import("./webhook-health-plot").then((m) => m.HealthPlot), {
  ssr: false,
  loading: () => (
    <div role="status" aria-label="Loading chart" className="h-full rounded bg-slate-100 motion-safe:animate-pulse dark:bg-slate-800" />
  ),
});

interface Stats {
  attempts: number;
  succeeded: number;
  successRate: number | null;
  averageDuration: number | null;
  series: { start: string; successRate: number | null; averageDuration: number | null; attempts: number }[];
}

export function WebhookHealth({ webhookId }: { webhookId: string }) {
  const [span, setSpan] = useState<"24h" | "7d">("24h");
  const key = `/api/portal/webhooks/${webhookId}/stats?window=${span}`;
  const { data, isPlaceholderData } = useQuery({
    queryKey: [key],
    queryFn: () => portalGet<Stats>(key),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
  const series = (data?.series ?? []).map((b) => ({
    ...b,
    label: new Date(b.start).toLocaleString(
      undefined,
      span === "24h" ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" },
    ),
  }));
  return (
    <div className="mt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Health</h3>
        <div role="radiogroup" aria-label={`Health window for ${webhookId}`} className="flex gap-1">
          {(["24h", "7d"] as const).map((w) => (
            <button
              key={w}
              type="button"
              role="radio"
              aria-checked={w === span}
              onClick={() => setSpan(w)}
              className={`rounded px-2 py-1 text-xs ${w === span ? "bg-indigo-600 text-white" : "border border-slate-300 dark:border-slate-700"}`}
            >
              {w === "24h" ? "24 hours" : "7 days"}
            </button>
          ))}
        </div>
      </div>
      <p className="mt-1 text-sm" data-testid="endpoint-health">
        {!data ? (
          "…"
        ) : data.attempts === 0 ? (
          "No attempts in this window."
        ) : (
          <>
            <span className="font-semibold tabular-nums">{data.successRate}%</span> of {data.attempts.toLocaleString()}{" "}
            {data.attempts === 1 ? "attempt" : "attempts"} succeeded · average answer{" "}
            <span className="tabular-nums">{data.averageDuration} ms</span>
          </>
        )}
      </p>
      <div className={`mt-2 h-40 ${isPlaceholderData ? "opacity-50" : ""}`}>{data ? <HealthPlot series={series} /> : null}</div>
    </div>
  );
}
