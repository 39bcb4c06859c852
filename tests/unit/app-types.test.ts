// App types: every row of the spec's "Application component configuration" table parses `{ name }` into its
// defaults (views, panels, every config field, the shell), bad values are rejected at a path a user can act on,
// and the registry, the union and the shell's theme follow the same schemas.
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import {
  APP_TYPES,
  APP_TYPE_LIST,
  AppConfig,
  appTypeBySlug,
  humanize,
  AgencyApp,
  BookingApp,
  CRMApp,
  DashboardApp,
  HeadlessApp,
  VibeCodeApp,
} from "@/lib/apps/app-types";
import { shellStyle, customProperties } from "@/components/apps/shell-theme";

// The spec's table, transcribed: views, panels and the full default `config` of each type. Booleans are true
// unless the table gives a default; lists the table gives no default for start empty; strings without one are absent.
const TABLE: Record<string, { views: string[]; panels: string[]; config: Record<string, unknown> }> = {
  Dashboard: {
    views: ["overview", "analytics", "reports"],
    panels: ["metrics", "charts", "recent-activity"],
    config: { metrics: ["revenue", "users", "growth", "retention"], defaultPeriod: "month", realtime: false, charts: [] },
  },
  Developer: {
    views: ["overview", "api-keys", "webhooks", "usage", "docs"],
    panels: ["api-keys", "usage-metrics", "recent-requests"],
    config: { showAPIKeys: true, showWebhooks: true, showUsage: true, showLogs: true, showDocs: true, apiVersions: ["v1"] },
  },
  Admin: {
    views: ["users", "roles", "permissions", "audit-logs", "settings"],
    panels: ["user-stats", "recent-activity", "system-health"],
    config: {
      collections: ["users", "roles", "permissions"],
      showUsers: true,
      showRoles: true,
      showAuditLogs: true,
      showSettings: true,
      enableBulkOps: true,
    },
  },
  SaaS: {
    views: ["dashboard", "workspace", "team", "billing", "integrations"],
    panels: ["usage", "team-activity", "billing-summary"],
    config: {
      multiTenant: true,
      showWorkspaceSwitcher: true,
      showBilling: true,
      showTeam: true,
      showIntegrations: true,
      pricingTiers: [],
      features: {},
    },
  },
  Data: {
    views: ["datasets", "sources", "pipelines", "explorer", "quality"],
    panels: ["dataset-stats", "pipeline-status", "data-quality"],
    config: { showDatasets: true, showSources: true, showPipelines: true, showQueryExplorer: true, showQuality: true, sourceTypes: [] },
  },
  Headless: {
    views: ["servers", "agents", "playground", "schema", "docs"],
    panels: ["api-status", "recent-requests", "schema-explorer"],
    config: { showMCPServers: true, showAgents: true, showPlayground: true, showSchema: true, protocols: [] },
  },
  CRM: {
    views: ["contacts", "companies", "deals", "pipeline", "activities"],
    panels: ["pipeline-overview", "recent-deals", "activities"],
    config: {
      showContacts: true,
      showCompanies: true,
      showDeals: true,
      showPipeline: true,
      showActivities: true,
      showEmail: false,
      pipelineStages: [],
      currency: "USD",
    },
  },
  Booking: {
    views: ["calendar", "appointments", "availability", "booking-pages"],
    panels: ["upcoming-appointments", "availability", "booking-stats"],
    config: {
      showCalendar: true,
      showAppointments: true,
      showAvailability: true,
      showBookingPages: true,
      enableReminders: true,
      enableWaitingList: false,
      durationOptions: [15, 30, 45, 60],
    },
  },
  Support: {
    views: ["inbox", "tickets", "knowledge-base", "customers"],
    panels: ["ticket-queue", "customer-info", "kb-articles"],
    config: {
      showInbox: true,
      showTickets: true,
      showKnowledgeBase: true,
      showCustomers: true,
      showLiveChat: false,
      ticketStatuses: ["open", "pending", "resolved", "closed"],
      ticketPriorities: ["low", "medium", "high", "urgent"],
      enableSLA: false,
    },
  },
  Agency: {
    views: ["clients", "projects", "tasks", "time-tracking", "invoices"],
    panels: ["project-status", "time-entries", "invoice-summary"],
    config: {
      showClients: true,
      showProjects: true,
      showTasks: true,
      showTimeTracking: true,
      showInvoicing: true,
      showProposals: false,
      projectStatuses: ["planning", "active", "on-hold", "completed"],
      timeTrackingMethod: "both",
    },
  },
  Ops: {
    views: ["incidents", "monitoring", "on-call", "status-page", "postmortems"],
    panels: ["incident-timeline", "alert-status", "on-call-schedule"],
    config: {
      showIncidents: true,
      showMonitoring: true,
      showOnCall: true,
      showStatusPage: true,
      showPostmortems: false,
      severityLevels: ["sev1", "sev2", "sev3", "sev4"],
      alertChannels: [],
      enableAutoEscalation: true,
    },
  },
  Agent: {
    views: ["agents", "tools", "prompts", "runs", "playground"],
    panels: ["agent-status", "recent-runs", "tool-usage"],
    config: {
      showAgents: true,
      showMCPTools: true,
      showPrompts: true,
      showRuns: true,
      showTrainingData: false,
      modelProviders: [],
      agentTypes: [],
      enablePlayground: true,
    },
  },
  Workflow: {
    views: ["workflows", "builder", "runs", "integrations", "templates"],
    panels: ["workflow-status", "recent-runs", "integration-health"],
    config: {
      showWorkflows: true,
      showBuilder: true,
      showRuns: true,
      showIntegrations: true,
      showTemplates: true,
      triggers: [],
      actions: [],
      enableVisualBuilder: true,
    },
  },
  Infra: {
    views: ["compute", "storage", "network", "databases", "monitoring", "costs"],
    panels: ["resource-usage", "cost-breakdown", "alerts"],
    config: {
      showCompute: true,
      showStorage: true,
      showNetwork: true,
      showDatabases: true,
      showMonitoring: true,
      showCosts: true,
      cloudProviders: [],
      enableIaC: false,
    },
  },
  Platform: {
    views: ["apps", "deployments", "environments", "services", "pipelines"],
    panels: ["deployment-status", "service-health", "pipeline-runs"],
    config: {
      showApps: true,
      showDeployments: true,
      showEnvironments: true,
      showServices: true,
      showPipelines: true,
      showObservability: true,
      environments: ["development", "staging", "production"],
      enableGitOps: false,
    },
  },
  ClientPortal: {
    views: ["projects", "invoices", "deliverables", "messages"],
    panels: ["project-status", "recent-invoices", "new-messages"],
    config: {
      showProjects: true,
      showInvoices: true,
      showDeliverables: true,
      showMessages: true,
      showSupport: false,
      enableFeedback: true,
      enableUploads: true,
      customBranding: true,
    },
  },
  VibeCode: {
    views: ["editor"],
    panels: ["chat", "preview", "code"],
    config: {
      showChat: true,
      showPreview: true,
      showCode: true,
      defaultLayout: "horizontal",
      enableAIGeneration: true,
      enableLivePreview: true,
      languages: [],
      editorThemes: [],
    },
  },
};

function issueAt(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  assert.equal(result.success, false, "the input was expected to fail validation");
  return result.error!.issues[0];
}

test("the registry holds every row of the spec's table, in its order, each with a unique slug", () => {
  assert.deepEqual(Object.keys(APP_TYPES), Object.keys(TABLE));
  const slugs = APP_TYPE_LIST.map((t) => t.slug);
  assert.equal(new Set(slugs).size, slugs.length);
  for (const t of APP_TYPE_LIST) {
    assert.match(t.slug, /^[a-z]+(-[a-z]+)*$/);
    assert.equal(appTypeBySlug(t.slug), t);
  }
  assert.equal(appTypeBySlug("ClientPortal"), undefined);
  assert.equal(APP_TYPES.ClientPortal.slug, "client-portal");
});

for (const [type, row] of Object.entries(TABLE)) {
  test(`${type} parses { name } into the table's views, panels, config and the shell defaults`, () => {
    const entry = APP_TYPES[type as keyof typeof APP_TYPES];
    const app = entry.schema.parse({ name: `${type} app` }) as AppConfig & { config: Record<string, unknown> };
    assert.equal(app.type, type);
    assert.equal(app.name, `${type} app`);
    assert.deepEqual(app.defaultViews, row.views);
    assert.deepEqual(app.defaultPanels, row.panels);
    assert.deepEqual(app.config, row.config);
    assert.deepEqual(app.shell, { sidebar: true, header: true, sidebarCollapsed: false });
    assert.equal(app.theme, undefined);
    assert.equal(app.navigation, undefined);
    assert.deepEqual(entry.defaultViews, row.views);
    assert.deepEqual(entry.defaultPanels, row.panels);
  });
}

test("every default view and panel has a sentence saying what it will show", () => {
  for (const t of APP_TYPE_LIST) {
    assert.ok(t.description.length > 20, `${t.type} has a description`);
    for (const v of t.defaultViews) assert.match(t.viewDescriptions[v] ?? "", /^[A-Z].{15,}\.$/, `${t.type} view ${v}`);
    for (const p of t.defaultPanels) assert.match(t.panelDescriptions[p] ?? "", /^[A-Z].{15,}\.$/, `${t.type} panel ${p}`);
  }
});

test("bad enum values are rejected at the field's path, naming the allowed values", () => {
  let issue = issueAt(DashboardApp, { name: "x", config: { defaultPeriod: "decade" } });
  assert.deepEqual(issue.path, ["config", "defaultPeriod"]);
  assert.match(issue.message, /"month"/);

  issue = issueAt(AgencyApp, { name: "x", config: { timeTrackingMethod: "never" } });
  assert.deepEqual(issue.path, ["config", "timeTrackingMethod"]);
  assert.match(issue.message, /"timer"/);

  issue = issueAt(HeadlessApp, { name: "x", config: { protocols: ["rest", "soap"] } });
  assert.deepEqual(issue.path, ["config", "protocols", 1]);
  assert.match(issue.message, /"graphql"/);

  issue = issueAt(VibeCodeApp, { name: "x", config: { defaultLayout: "diagonal" } });
  assert.deepEqual(issue.path, ["config", "defaultLayout"]);
});

test("other bad values: currency, time zone, durations, BaseApp's name, shell and theme", () => {
  assert.deepEqual(issueAt(CRMApp, { name: "x", config: { currency: "dollars" } }).path, ["config", "currency"]);
  assert.match(issueAt(CRMApp, { name: "x", config: { currency: "usd" } }).message, /ISO 4217/);
  assert.deepEqual(issueAt(BookingApp, { name: "x", config: { timezone: "Mars/Olympus_Mons" } }).path, ["config", "timezone"]);
  assert.deepEqual(issueAt(BookingApp, { name: "x", config: { durationOptions: [30, 0] } }).path, ["config", "durationOptions", 1]);
  assert.deepEqual(issueAt(DashboardApp, {}).path, ["name"]);
  assert.deepEqual(issueAt(DashboardApp, { name: "x", shell: { sidebar: "yes" } }).path, ["shell", "sidebar"]);
  assert.deepEqual(issueAt(DashboardApp, { name: "x", theme: { mode: "sepia" } }).path, ["theme", "mode"]);
  assert.deepEqual(
    issueAt(DashboardApp, { name: "x", navigation: [{ label: "Home", href: "/", children: [{ label: "", href: "/a" }] }] }).path,
    ["navigation", 0, "children", 0, "label"],
  );
});

test("a partial config keeps the other defaults, and a valid time zone is accepted", () => {
  const app = DashboardApp.parse({ name: "x", config: { realtime: true, defaultPeriod: "week" }, shell: { sidebarCollapsed: true } });
  assert.deepEqual(app.config, { ...TABLE.Dashboard.config, realtime: true, defaultPeriod: "week" });
  assert.deepEqual(app.shell, { sidebar: true, header: true, sidebarCollapsed: true });
  assert.equal(BookingApp.parse({ name: "x", config: { timezone: "Europe/Paris" } }).config.timezone, "Europe/Paris");
});

test("two parses do not share default lists", () => {
  const a = DashboardApp.parse({ name: "a" });
  a.config.metrics.push("churn");
  a.defaultViews.push("extra");
  const b = DashboardApp.parse({ name: "b" });
  assert.deepEqual(b.config.metrics, TABLE.Dashboard.config.metrics);
  assert.deepEqual(b.defaultViews, TABLE.Dashboard.views);
});

test("AppConfig picks the schema by `type`, includes Developer, and rejects an unknown type at `type`", () => {
  const crm = AppConfig.parse({ type: "CRM", name: "Sales" });
  assert.equal(crm.type === "CRM" && crm.config.currency, "USD");
  const dev = AppConfig.parse({ type: "Developer", name: "Portal" });
  assert.deepEqual(dev.defaultViews, TABLE.Developer.views);
  assert.deepEqual(issueAt(AppConfig, { type: "Blog", name: "x" }).path, ["type"]);
  assert.deepEqual(issueAt(AppConfig, { type: "Agency", name: "x", config: { timeTrackingMethod: "never" } }).path, [
    "config",
    "timeTrackingMethod",
  ]);
});

test("view and panel names read as labels", () => {
  assert.equal(humanize("api-keys"), "API keys");
  assert.equal(humanize("on-call"), "On call");
  assert.equal(humanize("kb-articles"), "KB articles");
  assert.equal(humanize("overview"), "Overview");
});

test("the shell's theme: the mode sets color-scheme, a preset the accent, custom entries become CSS variables", () => {
  assert.equal(shellStyle(undefined).colorScheme, "light dark");
  assert.equal(shellStyle({ mode: "system" }).colorScheme, "light dark");
  assert.equal(shellStyle({ mode: "dark" }).colorScheme, "dark");
  assert.equal(shellStyle({ mode: "light" }).colorScheme, "light");
  const style = shellStyle({ preset: "emerald", custom: { accent: "#0f766e", "--brand-font": "Inter" } }) as Record<string, string>;
  assert.equal(style["--app-accent"], "#0f766e", "custom wins over the preset");
  assert.match(style["--app-accent-soft"], /#ecfdf5/, "the preset's other colours stay");
  assert.equal(style["--brand-font"], "Inter");
  assert.deepEqual(customProperties({ accent: "red; background: url(x)", "bad name": "red", "x}": "1" }), {});
});
