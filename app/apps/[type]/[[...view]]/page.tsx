import Link from "next/link";
import { notFound } from "next/navigation";
import { z } from "zod";
import { appTypeBySlug, humanize, type AppConfig } from "@/lib/apps/app-types";
import { loadStoredApp } from "@/lib/apps/stored-app";
import { getPortalContext } from "@/lib/portal/portal-context";
import { AppShell, viewHref } from "@/components/apps/app-shell";
import { StoredAppView } from "@/components/apps/stored-app-view";

// GET /apps/{type}/{view?}: the shell of one app type from its default configuration, at one of its default views
// (the first when none is named). ?mode=light|dark forces a colour mode, as a config's theme.mode would.
// GET /apps/{slug}/{view?}: a stored app of any type (POST /v1/apps) with its own theme, navigation and views, its
// panels showing its business's data (components/apps/stored-app-view.tsx); a Developer app's product portal is
// /p/{slug}. The types' slugs are reserved, so the two never meet.

type Params = { type: string; view?: string[] };
type Search = Record<string, string | string[] | undefined>;

const Mode = z.enum(["light", "dark", "system"]);

async function resolve(params: Promise<Params>) {
  const { type, view } = await params;
  const entry = appTypeBySlug(type);
  if (!entry || (view && view.length > 1)) notFound();
  const current = view?.[0] ?? entry.defaultViews[0];
  if (!entry.defaultViews.includes(current)) notFound();
  return { entry, current };
}

async function resolveStored(params: Promise<Params>) {
  const { type: slug, view } = await params;
  if (view && view.length > 1) notFound();
  const viewer = await getPortalContext();
  const stored = await loadStoredApp(slug, viewer?.business.id ?? null);
  if (!stored) notFound();
  const views = stored.app.defaultViews;
  const current = view?.[0] ?? views[0] ?? "overview";
  if (views.length && !views.includes(current)) notFound();
  return { stored, current, viewer };
}

export async function generateMetadata({ params }: { params: Promise<Params> }) {
  if (!appTypeBySlug((await params).type)) {
    const { stored, current } = await resolveStored(params);
    return { title: `${humanize(current)} · ${stored.app.name}` };
  }
  const { entry, current } = await resolve(params);
  return { title: `${humanize(current)} · ${entry.type} app · Developer Platform` };
}

export default async function AppShellDemo({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  if (!appTypeBySlug((await params).type)) {
    const { stored, current, viewer } = await resolveStored(params);
    return <StoredAppView stored={stored} view={current} viewer={viewer} />;
  }
  const { entry, current } = await resolve(params);
  const parsedMode = Mode.safeParse((await searchParams).mode);
  const mode = parsedMode.success ? parsedMode.data : undefined;
  const app: AppConfig = entry.schema.parse({
    name: `${entry.type} app`,
    description: entry.description,
    ...(mode ? { theme: { mode } } : {}),
  });
  const basePath = `/apps/${entry.slug}`;
  const linkQuery = mode && mode !== "system" ? `?mode=${mode}` : "";

  const modeLink = (m: "system" | "light" | "dark") => {
    const active = (mode ?? "system") === m;
    return (
      <Link
        key={m}
        href={viewHref(basePath, current, m === "system" ? "" : `?mode=${m}`)}
        aria-current={active ? "true" : undefined}
        className={`rounded px-2 py-1 no-underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-(--app-accent) ${active ? "bg-(--app-accent-soft) font-semibold text-(--app-accent-strong)" : "text-(--app-fg) hover:bg-(--app-accent-soft)"}`}
      >
        {humanize(m)}
      </Link>
    );
  };

  return (
    <AppShell
      app={app}
      view={current}
      basePath={basePath}
      linkQuery={linkQuery}
      viewDescriptions={entry.viewDescriptions}
      panelDescriptions={entry.panelDescriptions}
      headerActions={
        <>
          <div
            role="group"
            aria-label="Colour mode"
            className="flex items-center gap-1 rounded-md border border-(--app-border) p-1 text-sm"
          >
            {(["system", "light", "dark"] as const).map(modeLink)}
          </div>
          <Link
            href="/apps"
            className="rounded-md px-2 py-1.5 text-sm text-(--app-accent-strong) focus-visible:outline-2 focus-visible:outline-(--app-accent)"
          >
            All app types
          </Link>
        </>
      }
    />
  );
}
