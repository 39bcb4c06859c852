import { z } from "zod";
import { DeveloperApp } from "./developer-app";
import { AdminApp, adminMeta } from "./types/admin";
import { AgencyApp, agencyMeta } from "./types/agency";
import { AgentApp, agentMeta } from "./types/agent";
import { BookingApp, bookingMeta } from "./types/booking";
import { ClientPortalApp, clientPortalMeta } from "./types/client-portal";
import { CRMApp, crmMeta } from "./types/crm";
import { DashboardApp, dashboardMeta } from "./types/dashboard";
import { DataApp, dataMeta } from "./types/data";
import { developerMeta } from "./types/developer";
import { HeadlessApp, headlessMeta } from "./types/headless";
import { InfraApp, infraMeta } from "./types/infra";
import { OpsApp, opsMeta } from "./types/ops";
import { PlatformApp, platformMeta } from "./types/platform";
import { SaaSApp, saasMeta } from "./types/saas";
import { SupportApp, supportMeta } from "./types/support";
import { VibeCodeApp, vibeCodeMeta } from "./types/vibe-code";
import { WorkflowApp, workflowMeta } from "./types/workflow";
import type { AppTypeMeta } from "./types/fields";
import type { AppTypeName } from "./app-type-names";

// Every app type of the spec's "Application component configuration" table: one zod schema each (BaseApp plus
// the type's `config`), a union over `type`, and a registry the gallery and the shells read.

export * from "./types/admin";
export * from "./types/agency";
export * from "./types/agent";
export * from "./types/booking";
export * from "./types/client-portal";
export * from "./types/crm";
export * from "./types/dashboard";
export * from "./types/data";
export * from "./types/headless";
export * from "./types/infra";
export * from "./types/ops";
export * from "./types/platform";
export * from "./types/saas";
export * from "./types/support";
export * from "./types/vibe-code";
export * from "./types/workflow";
export { DeveloperApp } from "./developer-app";
export type { AppTypeMeta } from "./types/fields";

export const AppConfig = z.discriminatedUnion("type", [
  DashboardApp,
  DeveloperApp,
  AdminApp,
  SaaSApp,
  DataApp,
  HeadlessApp,
  CRMApp,
  BookingApp,
  SupportApp,
  AgencyApp,
  OpsApp,
  AgentApp,
  WorkflowApp,
  InfraApp,
  PlatformApp,
  ClientPortalApp,
  VibeCodeApp,
]);
export type AppConfig = z.infer<typeof AppConfig>;
export type AppType = AppConfig["type"];
// The plain list of names and the union's types must be the same set (a compile-time check).
const _sameTypes: [AppType, AppTypeName] extends [AppTypeName, AppType] ? true : never = true;
void _sameTypes;

export type AppTypeEntry<S extends z.ZodType<AppConfig> = z.ZodType<AppConfig>> = {
  type: AppType;
  /** The URL segment of the type's demo shell: /apps/<slug>. */
  slug: string;
  schema: S;
  description: string;
  defaultViews: string[];
  defaultPanels: string[];
  /** One sentence per default view: what the view will show. */
  viewDescriptions: Record<string, string>;
  /** One sentence per default panel: what the panel will show. */
  panelDescriptions: Record<string, string>;
};

/** The default views and panels come from the schema itself, so the registry cannot drift from it. */
function entry<S extends z.ZodType<AppConfig>>(type: AppType, slug: string, schema: S, meta: AppTypeMeta): AppTypeEntry<S> {
  const defaults = schema.parse({ name: `${type} app` });
  return {
    type,
    slug,
    schema,
    description: meta.description,
    defaultViews: defaults.defaultViews,
    defaultPanels: defaults.defaultPanels,
    viewDescriptions: meta.views,
    panelDescriptions: meta.panels,
  };
}

/** In the order of the spec's table. */
export const APP_TYPES = {
  Dashboard: entry("Dashboard", "dashboard", DashboardApp, dashboardMeta),
  Developer: entry("Developer", "developer", DeveloperApp, developerMeta),
  Admin: entry("Admin", "admin", AdminApp, adminMeta),
  SaaS: entry("SaaS", "saas", SaaSApp, saasMeta),
  Data: entry("Data", "data", DataApp, dataMeta),
  Headless: entry("Headless", "headless", HeadlessApp, headlessMeta),
  CRM: entry("CRM", "crm", CRMApp, crmMeta),
  Booking: entry("Booking", "booking", BookingApp, bookingMeta),
  Support: entry("Support", "support", SupportApp, supportMeta),
  Agency: entry("Agency", "agency", AgencyApp, agencyMeta),
  Ops: entry("Ops", "ops", OpsApp, opsMeta),
  Agent: entry("Agent", "agent", AgentApp, agentMeta),
  Workflow: entry("Workflow", "workflow", WorkflowApp, workflowMeta),
  Infra: entry("Infra", "infra", InfraApp, infraMeta),
  Platform: entry("Platform", "platform", PlatformApp, platformMeta),
  ClientPortal: entry("ClientPortal", "client-portal", ClientPortalApp, clientPortalMeta),
  VibeCode: entry("VibeCode", "vibe-code", VibeCodeApp, vibeCodeMeta),
} as const satisfies { [T in AppType]: AppTypeEntry };

export const APP_TYPE_LIST: AppTypeEntry[] = Object.values(APP_TYPES);

export function appTypeBySlug(slug: string): AppTypeEntry | undefined {
  return APP_TYPE_LIST.find((t) => t.slug === slug);
}

const ACRONYMS: Record<string, string> = { api: "API", kb: "KB", mcp: "MCP", sla: "SLA", crm: "CRM", ui: "UI" };

/** "api-keys" → "API keys", "on-call" → "On call": labels for views and panels named in kebab case. */
export function humanize(name: string): string {
  const words = name
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  if (!words.length) return name;
  const [first, ...rest] = words;
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}
