import { z } from "zod";
import { baseApp } from "./base-app";

// The Developer app: the portal's seven views and their props with the spec's defaults.

export const DEVELOPER_VIEWS = [
  { path: "", name: "Dashboard", component: "DeveloperDashboard" },
  { path: "/keys", name: "API Keys", component: "DeveloperAPIKeys" },
  { path: "/webhooks", name: "Webhooks", component: "DeveloperWebhooks" },
  { path: "/usage", name: "Usage", component: "DeveloperUsage" },
  { path: "/logs", name: "Logs", component: "DeveloperLogs" },
  { path: "/docs", name: "Documentation", component: "DeveloperDocs" },
  { path: "/settings", name: "Settings", component: "DeveloperSettings" },
] as const;

/**
 * The seven views by the names `defaultViews` uses (the spec's default list names five of them), and the platform's
 * "Use with AI agents" page (`mcp`, lib/apps/product-portal.ts), which follows `docs` unless listed.
 */
export const DEVELOPER_VIEW_NAMES = ["overview", "api-keys", "webhooks", "usage", "logs", "docs", "mcp", "settings"] as const;

export const DeveloperDashboardProps = z.object({
  showAPIMetrics: z.boolean().default(true),
  showRecentRequests: z.boolean().default(true),
  showRateLimits: z.boolean().default(true),
  showErrors: z.boolean().default(true),
});

export const DeveloperAPIKeysProps = z.object({
  showScopes: z.boolean().default(true),
  enableRotation: z.boolean().default(true),
  showUsageStats: z.boolean().default(true),
  defaultExpiration: z.number().int().min(1).max(3650).default(90),
});

export const DeveloperWebhooksProps = z.object({
  showPayloadExamples: z.boolean().default(true),
  enableTesting: z.boolean().default(true),
  showDeliveryLogs: z.boolean().default(true),
  retryConfig: z
    .object({ maxRetries: z.number().int().min(0).max(10), backoffStrategy: z.enum(["linear", "exponential"]) })
    .default({ maxRetries: 3, backoffStrategy: "exponential" }),
});

export const DeveloperUsageProps = z.object({
  showRateLimits: z.boolean().default(true),
  showQuotas: z.boolean().default(true),
  showCosts: z.boolean().default(false),
  periods: z
    .array(z.enum(["hour", "day", "week", "month"]))
    .min(1)
    .default(["hour", "day", "week", "month"]),
});

export const DeveloperLogsProps = z.object({
  showRequestHeaders: z.boolean().default(true),
  showResponseBody: z.boolean().default(true),
  showTiming: z.boolean().default(true),
  retentionDays: z.number().int().min(1).max(3650).default(30),
});

export const DeveloperDocsProps = z.object({
  format: z.enum(["openapi", "markdown", "custom"]).default("openapi"),
  specUrl: z.string().default("/v1/openapi.json"),
  enableTryIt: z.boolean().default(true),
  showCodeExamples: z.boolean().default(true),
  languages: z.array(z.string()).default(["shell", "node", "python", "go", "ruby"]),
});

export const DeveloperConfig = z.object({
  showAPIKeys: z.boolean().default(true),
  showWebhooks: z.boolean().default(true),
  showUsage: z.boolean().default(true),
  showLogs: z.boolean().default(true),
  showDocs: z.boolean().default(true),
  apiBaseUrl: z.string().optional(),
  apiVersions: z.array(z.string()).default(["v1"]),
});

// `.prefault({})` parses the empty object, so every nested default applies (`.default()` would skip parsing).
export const DeveloperApp = z.object({
  ...baseApp({ views: ["overview", "api-keys", "webhooks", "usage", "docs"], panels: ["api-keys", "usage-metrics", "recent-requests"] }),
  type: z.literal("Developer").default("Developer"),
  config: DeveloperConfig.prefault({}),
  views: z
    .object({
      dashboard: DeveloperDashboardProps.prefault({}),
      apiKeys: DeveloperAPIKeysProps.prefault({}),
      webhooks: DeveloperWebhooksProps.prefault({}),
      usage: DeveloperUsageProps.prefault({}),
      logs: DeveloperLogsProps.prefault({}),
      docs: DeveloperDocsProps.prefault({}),
    })
    .prefault({}),
});
export type DeveloperApp = z.infer<typeof DeveloperApp>;

/** The portal's configuration: defaults, overridable with PORTAL_CONFIG (JSON, validated; bad config fails fast). */
export function developerPortalConfig(raw = process.env.PORTAL_CONFIG): DeveloperApp {
  const input = raw ? JSON.parse(raw) : { name: "Developer Portal" };
  return DeveloperApp.parse(input);
}
