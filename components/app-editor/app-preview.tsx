"use client";
import { labelOf as humanize } from "@/lib/apps/schema-form";
import { shellStyle } from "@/components/apps/shell-theme";
import type { ThemeValue } from "./theme-fields";

// The editor's live preview: the app's shell drawn in the browser from the values being edited, before they are
// saved. The theme becomes the shell's CSS variables (components/apps/shell-theme.ts drops any value that could end
// the declaration, so a half-typed colour is harmless), and the navigation lists the views the config switches on,
// as /p/{slug} and /apps/{slug} will. Links are inert here: following one would leave the unsaved edits.

type Values = Record<string, unknown>;

/** A Developer app's views and the switch that shows each, with the labels its portal uses (lib/apps/product-portal.ts). */
const DEVELOPER_VIEWS: Record<string, { label: string; switch?: string }> = {
  overview: { label: "Overview" },
  "api-keys": { label: "API keys", switch: "showAPIKeys" },
  webhooks: { label: "Webhooks", switch: "showWebhooks" },
  usage: { label: "Usage", switch: "showUsage" },
  logs: { label: "Logs", switch: "showLogs" },
  docs: { label: "Documentation", switch: "showDocs" },
  mcp: { label: "AI agents", switch: "showDocs" },
  settings: { label: "Settings" },
};

const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const obj = (v: unknown): Values => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Values) : {});
const on = (v: unknown, fallback: boolean) => (typeof v === "boolean" ? v : fallback);

/** The preview's navigation labels: the app's own navigation, else its views (a Developer app's switched on). */
export function previewNavigation(type: string, values: Values): string[] {
  const navigation = Array.isArray(values.navigation) ? values.navigation : null;
  if (navigation?.length) return navigation.map((n) => String(obj(n).label ?? "")).filter(Boolean);
  const views = list(values.defaultViews);
  if (type !== "Developer") return views.map(humanize);
  const config = obj(values.config);
  const shown = views.filter((v) => DEVELOPER_VIEWS[v] && (!DEVELOPER_VIEWS[v].switch || on(config[DEVELOPER_VIEWS[v].switch!], true)));
  // As the portal does: the AI agents page follows the documentation unless the views list it.
  if (shown.includes("docs") && !views.includes("mcp")) shown.splice(shown.indexOf("docs") + 1, 0, "mcp");
  return (shown.includes("overview") ? shown : ["overview", ...shown]).map((v) => DEVELOPER_VIEWS[v].label);
}

export function AppPreview({ type, values, theme }: { type: string; values: Values; theme: ThemeValue | null }) {
  const shell = obj(values.shell);
  const sidebar = on(shell.sidebar, true);
  const header = on(shell.header, true);
  const collapsed = on(shell.sidebarCollapsed, false);
  const nav = previewNavigation(type, values);
  const panels = list(values.defaultPanels);
  const name = typeof values.name === "string" && values.name.trim() ? values.name : "Untitled app";
  const description = typeof values.description === "string" ? values.description : "";
  const navList = (layout: "row" | "column") => (
    <ul aria-label="Preview navigation" className={layout === "row" ? "flex flex-wrap gap-1" : "space-y-1"} data-testid="preview-nav">
      {nav.map((label, i) => (
        <li
          key={`${label}-${i}`}
          aria-current={i === 0 ? "page" : undefined}
          className={`rounded-md px-3 py-1.5 text-sm ${i === 0 ? "bg-(--app-accent-soft) font-semibold text-(--app-accent-strong)" : "text-(--app-fg)"}`}
        >
          {label}
        </li>
      ))}
    </ul>
  );

  return (
    <div
      data-testid="app-preview"
      data-theme-mode={theme?.mode ?? "system"}
      style={shellStyle(theme ?? undefined)}
      className="overflow-hidden rounded-lg border border-(--app-border) bg-(--app-bg) text-(--app-fg)"
    >
      {header ? (
        <div className="border-b border-(--app-border) bg-(--app-card) px-4 py-3">
          <p className="text-xs font-semibold tracking-wide text-(--app-accent-strong) uppercase">{type}</p>
          <p className="text-lg font-bold break-words" data-testid="preview-name">
            {name}
          </p>
          {description ? <p className="mt-1 text-sm text-(--app-muted)">{description}</p> : null}
          {!sidebar ? <div className="mt-2">{navList("row")}</div> : null}
        </div>
      ) : null}
      <div className="flex min-h-64 flex-col sm:flex-row">
        {sidebar ? (
          <div className={`shrink-0 border-(--app-border) bg-(--app-surface) p-3 sm:border-r ${collapsed ? "sm:w-14" : "sm:w-44"}`}>
            {collapsed ? <p className="text-xs text-(--app-muted)">Sidebar collapsed</p> : navList("column")}
          </div>
        ) : null}
        <div className="min-w-0 flex-1 p-4">
          {!header && !sidebar ? <div className="mb-3">{navList("row")}</div> : null}
          <p className="text-base font-semibold">{nav[0] ?? "No views"}</p>
          {panels.length ? (
            <ul className="mt-3 grid gap-2 sm:grid-cols-2">
              {panels.map((p) => (
                <li key={p} className="rounded-md border border-(--app-border) bg-(--app-card) p-3 text-sm">
                  {humanize(p)}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-(--app-muted)">No panels.</p>
          )}
          <span className="mt-4 inline-block rounded-md border-2 border-(--app-accent) bg-(--app-card) px-3 py-1.5 text-sm font-medium text-(--app-accent-strong)">
            Get started
          </span>
        </div>
      </div>
    </div>
  );
}
