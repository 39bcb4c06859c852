import { now } from "@/lib/clock";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { AUDIT_COLLECTION, listAuditEntries, type serializeAudit } from "@/lib/audit/list-audit-entries";
import { EVENT_COLLECTION, listEvents } from "@/lib/events/routes";
import { listTeamMembers } from "@/lib/businesses/team";
import { ROLES, scopesForRole } from "@/lib/portal/roles";
import { SCOPE_ACTIONS, SCOPE_RESOURCES, grants } from "@/lib/auth/scopes";
import { DEFAULT_NOTIFY_AT } from "@/lib/limits/plans";
import { listAuthorizedApps } from "@/lib/oauth/authorized-apps";
import { kindDef } from "@/lib/automation/kinds";
import { listResources } from "@/lib/automation/list-resources";
import { APP_COLLECTION, listApps } from "./manage-apps";
import { count, rowLimit, when, type PanelBlock, type PanelScope } from "./panel-blocks";
import type { AutomationKindName } from "./panel-registry";

// The loaders of the registry's data sources that read the business itself: its events and audit log, its team
// and the roles they hold, its settings, apps, authorized third-party apps and automation resources.

const newest = (limit: number) => new URLSearchParams({ limit: String(limit) });

async function events(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listEvents(scope.auth, parseCollectionQuery(newest(rowLimit(scope)), EVENT_COLLECTION));
  const rows = list.data as { id: string; type: string; createdAt: string }[];
  return [
    {
      type: "table",
      caption: "Latest events, newest first",
      columns: ["Event", "Time"],
      rows: rows.map((e) => ({ id: e.id, cells: [e.type, when(e.createdAt)] })),
      empty: "No events yet: creating products, keys, apps or subscriptions records them.",
    },
  ];
}

async function audit(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listAuditEntries(scope.auth, parseCollectionQuery(newest(rowLimit(scope)), AUDIT_COLLECTION));
  const rows = list.data as ReturnType<typeof serializeAudit>[];
  return [
    {
      type: "table",
      caption: "Audit log, newest first",
      columns: ["Action", "Actor", "Target", "Time"],
      rows: rows.map((a) => ({
        id: a.id,
        cells: [
          a.action,
          [a.actorType, a.actorId].filter(Boolean).join(" "),
          [a.targetType, a.targetId].filter(Boolean).join(" ") || "—",
          when(a.createdAt),
        ],
      })),
      empty: "No audit entries yet: key, app and team changes are recorded here.",
    },
  ];
}

async function team(scope: PanelScope): Promise<PanelBlock[]> {
  const members = await listTeamMembers(scope.business.id);
  return [
    {
      type: "table",
      caption: "Team members",
      columns: ["Name", "E-mail", "Role", "Member since"],
      rows: members.map((m) => ({ id: m.id, cells: [m.name ?? "—", m.email, m.role, when(m.since)] })),
      empty: "No members yet.",
    },
  ];
}

async function teamStats(scope: PanelScope): Promise<PanelBlock[]> {
  const members = await listTeamMembers(scope.business.id);
  const monthAgo = now().getTime() - 30 * 86_400_000;
  const admins = members.filter((m) => m.role === "owner" || m.role === "admin").length;
  return [
    {
      type: "stats",
      items: [
        { id: "members", label: "Members", value: count(members.length) },
        { id: "admins", label: "Owners and admins", value: count(admins) },
        { id: "new-members", label: "Joined in 30 days", value: count(members.filter((m) => m.since.getTime() >= monthAgo).length) },
      ],
    },
  ];
}

async function roles(scope: PanelScope): Promise<PanelBlock[]> {
  const members = await listTeamMembers(scope.business.id);
  return [
    {
      type: "table",
      caption: "Roles and what each may do",
      columns: ["Role", "Members", "Scopes"],
      rows: ROLES.map((role) => {
        const scopes = scopesForRole(role);
        return {
          id: role,
          cells: [role, count(members.filter((m) => m.role === role).length), scopes.includes("*") ? "everything (*)" : scopes.join(", ")],
        };
      }),
      empty: "",
    },
  ];
}

async function permissions(): Promise<PanelBlock[]> {
  const actions = (role: string, resource: string) =>
    SCOPE_ACTIONS.filter((a) => grants(scopesForRole(role), `${resource}:${a}`)).join(", ") || "—";
  return [
    {
      type: "table",
      caption: "Permissions per resource and role",
      columns: ["Resource", ...ROLES],
      rows: SCOPE_RESOURCES.map((resource) => ({ id: resource, cells: [resource, ...ROLES.map((role) => actions(role, resource))] })),
      empty: "",
    },
  ];
}

async function settings(scope: PanelScope): Promise<PanelBlock[]> {
  const { business, project } = scope;
  return [
    {
      type: "stats",
      items: [
        { id: "business", label: "Business", value: business.name },
        { id: "plan", label: "Plan", value: business.plan },
        { id: "project", label: "Project", value: project.name },
        { id: "retention", label: "Log retention", value: `${project.retentionDays} days` },
        { id: "alerts", label: "Quota alerts at", value: (project.quotaNotifyAt ?? DEFAULT_NOTIFY_AT).map((n) => `${n}%`).join(", ") },
      ],
    },
  ];
}

async function apps(scope: PanelScope): Promise<PanelBlock[]> {
  const list = await listApps(scope.auth, parseCollectionQuery(newest(rowLimit(scope)), APP_COLLECTION));
  const rows = list.data as { id: string; name: string; type: string; slug: string; status: string }[];
  return [
    {
      type: "table",
      caption: "Apps of this business",
      columns: ["Name", "Type", "Address", "Status"],
      rows: rows.map((a) => ({ id: a.id, cells: [a.name, a.type, a.type === "Developer" ? `/p/${a.slug}` : `/apps/${a.slug}`, a.status] })),
      empty: "No apps yet.",
    },
  ];
}

async function authorizedApps(scope: PanelScope): Promise<PanelBlock[]> {
  const list = (await listAuthorizedApps(scope.business.id)).slice(0, rowLimit(scope));
  return [
    {
      type: "table",
      caption: "Third-party apps authorized through OAuth",
      columns: ["App", "Authorized by", "Scopes", "Last used"],
      rows: list.map((a) => ({ id: a.clientId, cells: [a.clientName, a.userEmail, a.scopes.join(", "), when(a.lastUsed)] })),
      empty: "No third-party app has been authorized to act for this business.",
    },
  ];
}

export async function automation(scope: PanelScope, kind: AutomationKindName): Promise<PanelBlock[]> {
  const def = kindDef(kind);
  const list = await listResources(scope.auth, def, parseCollectionQuery(newest(rowLimit(scope)), def.collection));
  const rows = list.data as { id: string; name?: string; status?: string; createdAt: string }[];
  return [
    {
      type: "table",
      caption: `${def.plural[0].toUpperCase()}${def.plural.slice(1)}, newest first`,
      columns: ["Name", "Id", "Status", "Created"],
      rows: rows.map((r) => ({ id: r.id, cells: [r.name ?? "—", r.id, r.status ?? "—", when(r.createdAt)] })),
      empty: `No ${def.plural} in this environment yet (POST /v1/${def.path} creates them).`,
    },
  ];
}

export const TEAM_LOADERS = {
  events,
  audit,
  team,
  "team-stats": teamStats,
  roles,
  permissions,
  settings,
  apps,
  "authorized-apps": authorizedApps,
};
