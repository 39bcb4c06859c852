import type { AppTypeMeta } from "./fields";

// Developer: the schema lives in lib/apps/developer-app.ts (the portal uses it); this is what the gallery says.

export const developerMeta: AppTypeMeta = {
  description: "The developer portal of an API: keys, webhooks, usage, logs and documentation.",
  views: {
    overview: "Request volume, error rate and rate-limit headroom across your API keys.",
    "api-keys": "Create, scope, rotate and revoke test and live API keys.",
    webhooks: "Webhook endpoints, the events they receive and every delivery attempt.",
    usage: "Requests, quotas and costs per key, endpoint and period.",
    docs: "The API reference generated from the OpenAPI document, with code examples.",
  },
  panels: {
    "api-keys": "Your active API keys with their environment, scopes and last use.",
    "usage-metrics": "Requests and errors over the last period, measured against your quota.",
    "recent-requests": "The latest API requests with method, path, status and latency.",
  },
};
