import type { ReactNode } from "react";
import type { NavItemShape } from "@/lib/apps/base-app";
import { humanize, type AppConfig } from "@/lib/apps/app-types";
import { Card } from "@/components/ui/primitives";
import { NavList } from "./nav-list";
import { ShellSidebar } from "./shell-sidebar";
import { shellStyle } from "./shell-theme";
import { ConfigSummary } from "./config-summary";

// The shell of an application component, drawn from its validated config: header (shell.header), sidebar
// (shell.sidebar, shell.sidebarCollapsed), theme (mode, preset and custom variables on the root), navigation
// (the config's own, or one link per default view) and the current view with its panels: a stored app fills them
// through `viewBody` and `renderPanel` (components/apps/stored-app-view.tsx); the gallery's demos show placeholders.

export type AppShellProps = {
  app: AppConfig;
  /** The view being shown; one of app.defaultViews. */
  view: string;
  /** Where the shell is mounted; generated links are `${basePath}/${view}`. */
  basePath: string;
  /** Appended to generated links (e.g. "?mode=dark") so a choice made on one view carries to the next. */
  linkQuery?: string;
  viewDescriptions?: Record<string, string>;
  panelDescriptions?: Record<string, string>;
  /** Extra controls at the end of the header. */
  headerActions?: ReactNode;
  /** The current view's own content, under its description. */
  viewBody?: ReactNode;
  /** A panel's content; without it the panel is a placeholder. */
  renderPanel?: (name: string) => ReactNode;
};

export function viewHref(basePath: string, view: string, linkQuery = "") {
  return `${basePath}/${encodeURIComponent(view)}${linkQuery}`;
}

export function shellNavigation(app: AppConfig, basePath: string, linkQuery = ""): NavItemShape[] {
  return app.navigation ?? app.defaultViews.map((v) => ({ label: humanize(v), href: viewHref(basePath, v, linkQuery) }));
}

const PANEL_GRID: Record<string, string> = {
  horizontal: "lg:grid-cols-3",
  vertical: "grid-cols-1",
  grid: "sm:grid-cols-2 xl:grid-cols-3",
};

export function AppShell({
  app,
  view,
  basePath,
  linkQuery = "",
  viewDescriptions = {},
  panelDescriptions = {},
  headerActions,
  viewBody,
  renderPanel,
}: AppShellProps) {
  const { sidebar, header, sidebarCollapsed } = app.shell;
  const navigation = shellNavigation(app, basePath, linkQuery);
  const currentHref = viewHref(basePath, view, linkQuery);
  const navLabel = `${app.name} navigation`;
  const layout = app.type === "VibeCode" ? app.config.defaultLayout : "grid";
  const viewTitle = humanize(view);
  // Without a sidebar the links go in the header; without either, above the content, so every view stays reachable.
  const inlineNav =
    !sidebar && navigation.length ? (
      <nav aria-label={navLabel} className="min-w-0">
        <NavList items={navigation} currentHref={currentHref} layout="horizontal" />
      </nav>
    ) : null;

  return (
    <div
      data-app-shell={app.type}
      data-theme-mode={app.theme?.mode ?? "system"}
      style={shellStyle(app.theme)}
      className="flex min-h-screen flex-col bg-(--app-bg) text-(--app-fg)"
    >
      <a
        href="#app-main"
        className="sr-only rounded-md bg-(--app-card) px-3 py-2 text-sm font-medium text-(--app-accent-strong) focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-10 focus:outline-2 focus:outline-(--app-accent)"
      >
        Skip to content
      </a>
      {header ? (
        <header className="border-b border-(--app-border) bg-(--app-card) px-4 py-4 md:px-6">
          <div className="flex flex-wrap items-start justify-between gap-x-6 gap-y-3">
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-(--app-accent-strong) uppercase">{app.type}</p>
              <h1 className="text-xl font-bold tracking-tight break-words">{app.name}</h1>
              {app.description ? <p className="mt-1 max-w-2xl text-sm text-(--app-muted)">{app.description}</p> : null}
            </div>
            {headerActions ? <div className="flex flex-wrap items-center gap-2">{headerActions}</div> : null}
          </div>
          {inlineNav ? <div className="mt-3">{inlineNav}</div> : null}
        </header>
      ) : (
        <h1 className="sr-only">{app.name}</h1>
      )}
      <div className="flex min-w-0 flex-1 flex-col md:flex-row">
        {sidebar && navigation.length ? (
          <ShellSidebar items={navigation} currentHref={currentHref} label={navLabel} initiallyCollapsed={sidebarCollapsed} />
        ) : null}
        <main id="app-main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none md:px-8">
          {!header && inlineNav ? <div className="mb-6">{inlineNav}</div> : null}
          <h2 className="text-2xl font-semibold tracking-tight">{viewTitle}</h2>
          <p className="mt-1 max-w-2xl text-(--app-muted)">{viewDescriptions[view] ?? `The ${viewTitle} view of ${app.name}.`}</p>
          {viewBody ? (
            <section aria-label={`${viewTitle} data`} className="mt-6 rounded-lg border border-(--app-border) bg-(--app-card) p-4">
              {viewBody}
            </section>
          ) : null}
          <section aria-labelledby="app-panels" className="mt-6">
            <h3 id="app-panels" className="sr-only">
              Panels
            </h3>
            {app.defaultPanels.length ? (
              <ul className={`grid gap-4 ${PANEL_GRID[layout]}`}>
                {app.defaultPanels.map((panel) => (
                  <li key={panel} className="min-w-0">
                    {renderPanel ? (
                      <Panel name={panel} description={panelDescriptions[panel]}>
                        {renderPanel(panel)}
                      </Panel>
                    ) : (
                      <PanelPlaceholder name={panel} description={panelDescriptions[panel]} />
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-(--app-muted)">This app has no panels configured.</p>
            )}
          </section>
          <ConfigSummary app={app} />
        </main>
      </div>
    </div>
  );
}

// Cards take the shell's colours with `!` so they follow a forced light or dark mode, not only the visitor's.
const cardColours = "h-full border-(--app-border)! bg-(--app-card)! shadow-none!";

function PanelPlaceholder({ name, description }: { name: string; description?: string }) {
  const title = humanize(name);
  return (
    <Card className={cardColours}>
      <div data-panel={name} className="flex h-full flex-col">
        <div className="flex items-start justify-between gap-2">
          <h4 className="font-semibold">{title}</h4>
          <span className="shrink-0 rounded border border-(--app-border) px-1.5 py-0.5 text-xs text-(--app-muted)">Placeholder</span>
        </div>
        <p className="mt-2 text-sm text-(--app-muted)">{description ?? `The ${title} panel.`}</p>
        <div aria-hidden="true" className="mt-4 space-y-2 rounded-md border border-dashed border-(--app-border) p-3">
          <div className="h-2 w-3/4 rounded bg-(--app-border)" />
          <div className="h-2 w-1/2 rounded bg-(--app-border)" />
          <div className="h-2 w-2/3 rounded bg-(--app-border)" />
        </div>
      </div>
    </Card>
  );
}

function Panel({ name, description, children }: { name: string; description?: string; children: ReactNode }) {
  const title = humanize(name);
  return (
    <Card className={cardColours}>
      <div data-panel={name} className="flex h-full flex-col">
        <h4 className="font-semibold">{title}</h4>
        {description ? <p className="mt-1 text-sm text-(--app-muted)">{description}</p> : null}
        <div className="mt-3 min-w-0">{children}</div>
      </div>
    </Card>
  );
}
