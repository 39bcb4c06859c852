import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// SaaS: a multi-tenant product with workspaces, teams and billing.

export const SaaSConfig = z.object({
  multiTenant: flag(),
  showWorkspaceSwitcher: flag(),
  showBilling: flag(),
  showTeam: flag(),
  showIntegrations: flag(),
  pricingTiers: names(),
  features: z.record(z.string().min(1).max(100), z.boolean()).default({}),
});

export const SaaSApp = z.object({
  ...baseApp({
    views: ["dashboard", "workspace", "team", "billing", "integrations"],
    panels: ["usage", "team-activity", "billing-summary"],
  }),
  type: z.literal("SaaS").default("SaaS"),
  config: SaaSConfig.prefault({}),
});
export type SaaSApp = z.infer<typeof SaaSApp>;

export const saasMeta: AppTypeMeta = {
  description: "A multi-tenant software product: workspaces, teams, billing and integrations.",
  views: {
    dashboard: "The workspace's home: usage, team activity and what needs attention.",
    workspace: "The workspace's name, its defaults and the features enabled for it.",
    team: "Members and pending invitations, with each member's role.",
    billing: "The current plan and pricing tier, past invoices and the payment method.",
    integrations: "Connected third-party services and the ones available to connect.",
  },
  panels: {
    usage: "Use of the plan's limits this billing period: seats, requests and storage.",
    "team-activity": "What teammates did recently in this workspace.",
    "billing-summary": "The current plan, the next invoice's amount and date, and the payment status.",
  },
};
