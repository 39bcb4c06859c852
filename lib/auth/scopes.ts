// Scope strings are `resource:action` (contract.md); `resource:*` and `*` are wildcards.

export const SCOPE_RESOURCES = [
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
  "agents",
  "agent_teams",
  "workflows",
  "functions",
  "triggers",
  "tools",
  "tasks",
  "executions",
  "apps",
] as const;
export const SCOPE_ACTIONS = ["read", "write", "delete"] as const;

/** `call:<product id>` lets a key call that product (gateway, verification, meter events); `call:*` every product. */
const CALL_SCOPE = /^call:(\*|prod_[0-9A-Za-z]{10,40})$/;

export function isValidScope(scope: string): boolean {
  if (scope === "*") return true;
  if (scope.startsWith("call:")) return CALL_SCOPE.test(scope);
  const [resource, action, ...rest] = scope.split(":");
  if (rest.length || !(SCOPE_RESOURCES as readonly string[]).includes(resource)) return false;
  return action === "*" || (SCOPE_ACTIONS as readonly string[]).includes(action);
}

/** Whether `granted` holds `required` itself, "*", or "{resource}:*" for its resource (the part before its first colon).
 * Asked on every gateway call (its key's `call:{product}`): no array or string is made unless a wildcard is held. */
export function grants(granted: readonly string[], required: string): boolean {
  const colon = required.indexOf(":");
  const resourceLength = colon === -1 ? required.length : colon;
  for (const g of granted) {
    if (g === "*" || g === required) return true;
    if (g.length === resourceLength + 2 && g.endsWith(":*") && required.startsWith(g.slice(0, resourceLength))) return true;
  }
  return false;
}

/** Whether every scope in `wanted` is covered by `held`: a key may only hand out what it holds. */
export function coversAll(held: readonly string[], wanted: readonly string[]): string | null {
  for (const scope of wanted) {
    if (scope === "*") {
      if (!held.includes("*")) return scope;
      continue;
    }
    const [resource, action] = scope.split(":");
    if (action === "*") {
      if (!held.includes("*") && !held.includes(scope)) return scope;
      continue;
    }
    if (!grants(held, `${resource}:${action}`)) return scope;
  }
  return null;
}
