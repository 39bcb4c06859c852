// Scopes in plain words, for the consent page and the portal's list of authorized apps.

const RESOURCE_WORDS: Record<string, string> = {
  products: "products",
  prices: "prices",
  features: "product features",
  api_keys: "API keys",
  webhooks: "webhooks",
  events: "events",
  usage: "usage and quota",
  logs: "request logs",
  versions: "API versions",
  audit_logs: "the audit log",
  oauth_clients: "OAuth applications",
  agents: "agents",
  agent_teams: "agent teams",
  workflows: "workflows",
  functions: "functions",
  triggers: "triggers",
  tools: "tools",
  tasks: "tasks",
  executions: "executions",
  apps: "apps and developer portals",
};

const ACTION_WORDS: Record<string, string> = {
  read: "See",
  write: "Create and change",
  delete: "Delete",
  "*": "See, create, change and delete",
};

export function describeScope(scope: string): string {
  if (scope === "*") return "Full access to everything in your business, including API keys and settings the API exposes";
  if (scope === "call:*") return "Call the products your project subscribes to, billed to its subscriptions";
  if (scope.startsWith("call:")) return `Call the product ${scope.slice(5)}, billed to your project's subscription`;
  const [resource, action] = scope.split(":");
  return `${ACTION_WORDS[action] ?? action} your ${RESOURCE_WORDS[resource] ?? resource}`;
}
