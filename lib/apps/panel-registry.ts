import { humanize, type AppType } from "./app-types";

// Which data a stored app's views and panels show, in one place: each name of a default view or panel (across the
// 17 types) maps to a data source the platform holds (loaded by panel-data.ts) or to one honest sentence saying what
// would appear there and where it would come from. A name means the same in every type unless a `Type:name` entry
// says otherwise (Admin's recent activity is its audit log, a Dashboard's is the business's events).

export const DATA_SOURCES = [
  "metrics",
  "charts",
  "usage",
  "quota",
  "events",
  "audit",
  "team",
  "team-stats",
  "roles",
  "permissions",
  "settings",
  "billing",
  "keys",
  "requests",
  "webhooks",
  "environments",
  "apps",
  "authorized-apps",
  "automation",
] as const;
export type DataSource = (typeof DATA_SOURCES)[number];

/** The automation kinds an app shows (lib/automation/kinds.ts). */
export type AutomationKindName = "Agent" | "Tool" | "Workflow" | "ExecutionContext";

export type PanelSource =
  { source: Exclude<DataSource, "automation"> } | { source: "automation"; kind: AutomationKindName } | { empty: string };

/** The scope a member's role needs to see a source (lib/portal/roles.ts); none: every member sees it. */
export const SOURCE_SCOPE: Record<DataSource, string | null> = {
  metrics: "usage:read",
  charts: "usage:read",
  usage: "usage:read",
  quota: "usage:read",
  events: "events:read",
  audit: "audit_logs:read",
  team: null,
  "team-stats": null,
  roles: null,
  permissions: null,
  settings: null,
  billing: "invoices:read",
  keys: "api_keys:read",
  requests: "logs:read",
  webhooks: "webhooks:read",
  environments: "usage:read",
  apps: "apps:read",
  "authorized-apps": null,
  automation: null,
};

const data = (source: Exclude<DataSource, "automation">): PanelSource => ({ source });
const automation = (kind: AutomationKindName): PanelSource => ({ source: "automation", kind });

const SOURCES: Record<string, PanelSource> = {
  // Dashboard
  overview: data("metrics"),
  metrics: data("metrics"),
  analytics: data("charts"),
  charts: data("charts"),
  "recent-activity": data("events"),
  // Admin
  users: data("team"),
  "user-stats": data("team-stats"),
  roles: data("roles"),
  permissions: data("permissions"),
  "audit-logs": data("audit"),
  "Admin:recent-activity": data("audit"),
  settings: data("settings"),
  // SaaS
  "SaaS:dashboard": data("quota"),
  "SaaS:usage": data("quota"),
  workspace: data("settings"),
  team: data("team"),
  "team-activity": data("audit"),
  billing: data("billing"),
  "billing-summary": data("billing"),
  "SaaS:integrations": data("authorized-apps"),
  // Developer and Headless: the business's API traffic
  "Developer:overview": data("usage"),
  "api-keys": data("keys"),
  webhooks: data("webhooks"),
  usage: data("charts"),
  "usage-metrics": data("usage"),
  "recent-requests": data("requests"),
  logs: data("requests"),
  "api-status": data("usage"),
  // Platform
  apps: data("apps"),
  environments: data("environments"),
  // Agent and Workflow: the automation resources of /v1/agents, /v1/tools, /v1/workflows, /v1/executions
  agents: automation("Agent"),
  "agent-status": automation("Agent"),
  tools: automation("Tool"),
  workflows: automation("Workflow"),
  "workflow-status": automation("Workflow"),
  runs: automation("ExecutionContext"),
  "recent-runs": automation("ExecutionContext"),
};

/** What would appear where the platform holds no data, and where it would come from. */
const EMPTY: Record<string, string> = {
  reports:
    "Saved and scheduled reports would be listed here; the platform stores no reports, so they would come from a reporting tool connected to this app.",
  "system-health":
    "The status of the services this admin area depends on would appear here, reported by a monitoring service connected to this app.",
  integrations: "Connected services and their health would appear here, from the connectors of the workflow engine this app is linked to.",
  "integration-health":
    "Each connected service's health would appear here, from the connectors of the workflow engine this app is linked to.",
  docs: "The API reference comes from each product's OpenAPI document and is served by its product portal at /p/{slug}/docs.",
  deployments: "Deployments per environment would appear here, reported by the CI/CD system that deploys your services.",
  "deployment-status": "The version running in each environment would appear here, reported by your deployment pipeline.",
  services: "Your services with owners and dependencies would appear here, from a service catalogue connected to this app.",
  "service-health": "Each service's health and error rate would appear here, from the monitoring system that watches it.",
  pipelines: "Pipelines and their latest runs would appear here, from the CI/CD or data pipeline system connected to this app.",
  "pipeline-runs": "The latest pipeline runs would appear here, from the CI/CD system connected to this app.",
  "pipeline-status": "The state of each data pipeline would appear here, from the pipeline scheduler connected to this app.",
  datasets: "Datasets with their size and freshness would appear here, from the data warehouse connected to this app.",
  "dataset-stats": "Row counts and freshness per dataset would appear here, from the data warehouse connected to this app.",
  sources: "Data sources and their sync status would appear here, from the ingestion tool connected to this app.",
  explorer: "Query results would appear here once a data warehouse is connected to this app.",
  quality: "Data quality checks and their results would appear here, from the data quality tool connected to this app.",
  "data-quality": "Failing data quality checks would appear here, from the data quality tool connected to this app.",
  servers: "MCP and API servers would appear here once their endpoints are registered with this app.",
  playground: "A console to try requests would appear here once an endpoint is connected to this app.",
  schema: "The schema of the connected API would appear here once its document is linked to this app.",
  "schema-explorer": "Types and fields of the connected API would appear here once its schema is linked to this app.",
  prompts: "Prompt templates would appear here, from the prompt store of the agent runtime connected to this app.",
  "tool-usage": "How often each tool was called would appear here, from the run traces of the agent runtime.",
  builder: "The visual workflow editor would appear here; workflows themselves are stored under /v1/workflows.",
  templates: "Workflow templates to start from would appear here, from a template library connected to this app.",
  contacts: "Contacts would appear here, from the CRM data connected to this app.",
  companies: "Companies would appear here, from the CRM data connected to this app.",
  deals: "Deals with their stage and value would appear here, from the CRM data connected to this app.",
  pipeline: "The sales pipeline by stage would appear here, from the CRM data connected to this app.",
  "pipeline-overview": "Deal counts and value per stage would appear here, from the CRM data connected to this app.",
  "recent-deals": "The latest deals would appear here, from the CRM data connected to this app.",
  activities: "Calls, e-mails and meetings would appear here, from the CRM data connected to this app.",
  calendar: "Bookings on a calendar would appear here, from the booking system connected to this app.",
  appointments: "Appointments would appear here, from the booking system connected to this app.",
  availability: "Bookable hours would appear here, from the calendars connected to this app.",
  "booking-pages": "Public booking pages would appear here, from the booking system connected to this app.",
  "upcoming-appointments": "The next appointments would appear here, from the booking system connected to this app.",
  "booking-stats": "Bookings, cancellations and no-shows would appear here, from the booking system connected to this app.",
  inbox: "Incoming conversations would appear here, from the help desk connected to this app.",
  tickets: "Support tickets would appear here, from the help desk connected to this app.",
  "ticket-queue": "Open tickets by priority would appear here, from the help desk connected to this app.",
  "knowledge-base": "Help articles would appear here, from the knowledge base connected to this app.",
  "kb-articles": "The most read help articles would appear here, from the knowledge base connected to this app.",
  customers: "The people who contact support would appear here, from the help desk connected to this app.",
  "customer-info": "The selected customer's details would appear here, from the help desk connected to this app.",
  clients: "Clients would appear here, from the agency's client records connected to this app.",
  projects: "Projects with their status would appear here, from the project tool connected to this app.",
  "project-status": "Each project's status would appear here, from the project tool connected to this app.",
  tasks: "Project tasks would appear here, from the project tool connected to this app.",
  "time-tracking": "Tracked time would appear here, from the time tracker connected to this app.",
  "time-entries": "The latest time entries would appear here, from the time tracker connected to this app.",
  invoices:
    "Invoices to clients would appear here, from the invoicing tool connected to this app; your products' own invoices are under Revenue in the console.",
  "invoice-summary": "Open and paid client invoices would appear here, from the invoicing tool connected to this app.",
  "recent-invoices": "The client's latest invoices would appear here, from the invoicing tool connected to this app.",
  deliverables: "Files delivered to the client would appear here, from the file store connected to this app.",
  messages: "Messages with the client would appear here, from the messaging tool connected to this app.",
  "new-messages": "Unread client messages would appear here, from the messaging tool connected to this app.",
  incidents: "Incidents with severity and status would appear here, from the incident tool connected to this app.",
  "incident-timeline": "The timeline of the current incident would appear here, from the incident tool connected to this app.",
  monitoring: "Metrics and alerts of your infrastructure would appear here, from the monitoring system connected to this app.",
  "alert-status": "Firing alerts would appear here, from the monitoring system connected to this app.",
  alerts: "Firing alerts would appear here, from the monitoring system connected to this app.",
  "on-call": "Who is on call would appear here, from the paging tool connected to this app.",
  "on-call-schedule": "The on-call rota would appear here, from the paging tool connected to this app.",
  "status-page": "The public status of your services would appear here, from the status page tool connected to this app.",
  postmortems: "Incident reviews would appear here, from the documents connected to this app.",
  compute: "Instances and their load would appear here, from the cloud account connected to this app.",
  storage: "Buckets and volumes would appear here, from the cloud account connected to this app.",
  network: "Networks, load balancers and DNS would appear here, from the cloud account connected to this app.",
  databases: "Database instances would appear here, from the cloud account connected to this app.",
  costs: "Cloud costs per service would appear here, from the billing export of the cloud account connected to this app.",
  "resource-usage": "CPU, memory and storage use would appear here, from the cloud account connected to this app.",
  "cost-breakdown": "Costs per service would appear here, from the billing export of the cloud account connected to this app.",
  editor: "The code editor would appear here, working on a repository connected to this app.",
  chat: "The conversation with the coding assistant would appear here once a model is connected to this app.",
  preview: "A live preview of the app being built would appear here once a repository is connected.",
  code: "The files of the project would appear here once a repository is connected to this app.",
};

/** Where the data of one view or panel comes from. A name no registry entry knows gets a plain empty state. */
export function panelSource(type: AppType, name: string, place: "view" | "panel" = "panel"): PanelSource {
  const known = SOURCES[`${type}:${name}`] ?? SOURCES[name];
  if (known) return known;
  const sentence = EMPTY[`${type}:${name}`] ?? EMPTY[name];
  if (sentence) return { empty: sentence };
  return {
    empty: `The ${humanize(name)} ${place} would show data from a service connected to this app; the platform holds none under this name.`,
  };
}

/** "metrics", or "automation:Agent": two names that load the same data. */
export function sourceKey(source: PanelSource): string | null {
  if ("empty" in source) return null;
  return source.source === "automation" ? `automation:${source.kind}` : source.source;
}
