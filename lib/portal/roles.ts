// Portal roles and the scopes each holds: what the portal lets a member do, and what a member can grant an OAuth
// application. Kept apart from portal-context.ts so code outside a request (tests, OAuth) can use it.

export const ROLES = ["owner", "admin", "developer", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const READ_ONLY = [
  "products",
  "prices",
  "features",
  "api_keys",
  "webhooks",
  "events",
  "usage",
  "logs",
  "versions",
  "audit_logs",
  "oauth_clients",
  "subscriptions",
  "invoices",
  "apps",
].map((r) => `${r}:read`);

export function scopesForRole(role: string): string[] {
  if (role === "owner" || role === "admin") return ["*"];
  if (role === "developer")
    return [
      "products:*",
      "prices:*",
      "features:*",
      "api_keys:*",
      "webhooks:*",
      "events:read",
      "usage:read",
      "logs:read",
      "versions:read",
      "subscriptions:read",
      "invoices:read",
      "oauth_clients:*",
      "agents:*",
      "agent_teams:*",
      "workflows:*",
      "functions:*",
      "triggers:*",
      "tools:*",
      "tasks:*",
      "executions:*",
      "apps:*",
    ];
  return READ_ONLY;
}
