import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Dashboard: business metrics over a period.

export const DASHBOARD_PERIODS = ["hour", "day", "week", "month", "quarter", "year"] as const;

export const DashboardConfig = z.object({
  metrics: names(["revenue", "users", "growth", "retention"]),
  defaultPeriod: z.enum(DASHBOARD_PERIODS).default("month"),
  realtime: flag(false),
  charts: names(),
});

export const DashboardApp = z.object({
  ...baseApp({ views: ["overview", "analytics", "reports"], panels: ["metrics", "charts", "recent-activity"] }),
  type: z.literal("Dashboard").default("Dashboard"),
  config: DashboardConfig.prefault({}),
});
export type DashboardApp = z.infer<typeof DashboardApp>;

export const dashboardMeta: AppTypeMeta = {
  description: "Business metrics at a glance: revenue, users, growth and retention over a chosen period.",
  views: {
    overview: "Headline metrics for the selected period, each with its change since the previous period.",
    analytics: "Charts to explore each metric by period, segment and source.",
    reports: "Saved and scheduled reports, ready to export or share.",
  },
  panels: {
    metrics: "The configured metrics (revenue, users, growth, retention) for the default period, each with its change.",
    charts: "A chart per configured metric, plotted over the default period.",
    "recent-activity": "The latest events across the business, newest first.",
  },
};
