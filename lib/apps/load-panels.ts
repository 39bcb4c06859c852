import { grants } from "@/lib/auth/scopes";
import { humanize, type AppConfig } from "./app-types";
import { PANEL_LOADERS } from "./panel-data";
import { automation } from "./panel-data-team";
import type { PanelBlock, PanelScope } from "./panel-blocks";
import { SOURCE_SCOPE, panelSource, sourceKey, type PanelSource } from "./panel-registry";

// What each view and panel of a stored app shows for one viewer. Members of the app's business get the data
// (their role permitting); anyone else gets the shell with each data panel saying its data is private, and
// never a query of another business's records. Panels the platform holds no data for say so either way.

export type PanelContent = { state: "data"; blocks: PanelBlock[] } | { state: "empty" | "private" | "forbidden" | "failed"; text: string };

async function load(source: PanelSource, name: string, scope: PanelScope | null): Promise<PanelContent> {
  if ("empty" in source) return { state: "empty", text: source.empty };
  if (!scope) return { state: "private", text: `${humanize(name)} shows this business's own data, which only its signed-in members see.` };
  const needed = SOURCE_SCOPE[source.source];
  if (needed && !grants(scope.auth.scopes, needed))
    return {
      state: "forbidden",
      text: `Your role cannot read this (it needs the ${needed} scope); an owner or admin can change your role.`,
    };
  try {
    const blocks = source.source === "automation" ? await automation(scope, source.kind) : await PANEL_LOADERS[source.source](scope);
    return { state: "data", blocks };
  } catch (e) {
    console.error(`app panel ${name} failed`, e);
    return { state: "failed", text: `${humanize(name)} could not be loaded just now; reload the page to try again.` };
  }
}

/** Who is looking: a member of the app's business (with their AuthContext in the app's environment), or nobody. */
export type Viewer = Omit<PanelScope, "app" | "size"> | null;

/** Loads the view's content and every panel at once; a view whose data a panel already shows is left to the panel. */
export async function loadPanels(app: AppConfig, viewer: Viewer, view: string) {
  const scopeFor = (size: PanelScope["size"]): PanelScope | null => (viewer ? { ...viewer, app, size } : null);
  const panelSources = app.defaultPanels.map((name) => panelSource(app.type, name, "panel"));
  const viewSource = panelSource(app.type, view, "view");
  const shownByPanel = panelSources.some((s) => sourceKey(s) !== null && sourceKey(s) === sourceKey(viewSource));
  const [viewContent, ...panelContents] = await Promise.all([
    shownByPanel ? null : load(viewSource, view, scopeFor("view")),
    ...panelSources.map((s, i) => load(s, app.defaultPanels[i], scopeFor("panel"))),
  ]);
  return {
    view: viewContent,
    panels: Object.fromEntries(app.defaultPanels.map((name, i) => [name, panelContents[i]!])) as Record<string, PanelContent>,
  };
}
