import Link from "next/link";
import { APP_TYPES } from "@/lib/apps/app-types";
import { loadPanels, type Viewer } from "@/lib/apps/load-panels";
import type { StoredApp } from "@/lib/apps/stored-app";
import type { PortalContext } from "@/lib/portal/portal-context";
import { AppShell } from "./app-shell";
import { PanelBody } from "./panel-blocks";

// A stored app at /apps/{slug}: its shell with the current view and its panels filled from the business's own data.
// Only a signed-in member of the app's business is a viewer with data (in the app's environment); anyone else sees
// the shell, and each data panel says its data is private.

const badge = "rounded px-2 py-1 text-sm";

export async function StoredAppView({ stored, view, viewer }: { stored: StoredApp; view: string; viewer: PortalContext | null }) {
  const own = viewer !== null && viewer.business.id === stored.businessId;
  const scope: Viewer = own
    ? { auth: { ...viewer.auth, environment: stored.environment }, business: viewer.business, project: viewer.project }
    : null;
  const content = await loadPanels(stored.app, scope, view);
  const entry = APP_TYPES[stored.app.type];
  return (
    <AppShell
      app={stored.app}
      view={view}
      basePath={`/apps/${stored.slug}`}
      viewDescriptions={entry.viewDescriptions}
      panelDescriptions={entry.panelDescriptions}
      viewBody={content.view ? <PanelBody content={content.view} /> : undefined}
      renderPanel={(name) => <PanelBody content={content.panels[name]} />}
      headerActions={
        <>
          {stored.status === "draft" ? (
            <span role="status" className={`${badge} bg-amber-100 text-amber-950`}>
              Draft: only your business sees it
            </span>
          ) : null}
          <span data-testid="app-data-scope" className={`${badge} border border-(--app-border) text-(--app-fg)`}>
            {own
              ? `${stored.environment === "production" ? "Live" : "Test"} data of ${viewer.business.name}`
              : "Shell only: the data is private"}
          </span>
          {stored.app.type === "Developer" ? (
            <Link href={`/p/${stored.slug}`} className={`${badge} text-(--app-accent-strong)`}>
              Product portal
            </Link>
          ) : null}
        </>
      }
    />
  );
}
