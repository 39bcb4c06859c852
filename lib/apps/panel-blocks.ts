import type { AuthContext } from "@/lib/http/auth-context";
import type { AppConfig } from "./app-types";

// What a view or panel of a stored app shows, as plain data the components draw (components/apps/panel-blocks.tsx):
// numbers, a table, a chart. The loaders in panel-data*.ts fill them from the domain functions.

export type PanelBlock =
  | { type: "stats"; items: { id: string; label: string; value: string; hint?: string }[] }
  | { type: "table"; caption: string; columns: string[]; rows: { id: string; cells: string[] }[]; empty: string }
  | { type: "usage-chart"; caption: string; points: UsageChartPoint[] }
  | { type: "revenue-chart"; currency: string; points: { month: string; product: string; amount: number }[] };

export interface UsageChartPoint {
  label: string;
  ok: number;
  errors: number;
  p50Latency: number | null;
  p95Latency: number | null;
  p99Latency: number | null;
}

/** Whose data, and how much of it: a panel shows a few rows, a view more. */
export interface PanelScope {
  auth: AuthContext;
  business: { id: string; name: string; plan: string };
  project: { id: string; name: string; retentionDays: number; quotaNotifyAt: number[] | null };
  app: AppConfig;
  size: "view" | "panel";
}

export const rowLimit = (scope: PanelScope) => (scope.size === "view" ? 20 : 5);

/** Numbers as the portal prints them: 1,234. */
export const count = (n: number) => n.toLocaleString("en-US");

/** A timestamp as "2025-05-01 14:03 UTC": the same on the server and in every browser. */
export const when = (iso: string | Date | null | undefined) =>
  iso ? `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC` : "never";
