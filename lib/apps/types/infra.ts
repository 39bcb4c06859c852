import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Infra: cloud resources, their monitoring and their cost.

export const InfraConfig = z.object({
  showCompute: flag(),
  showStorage: flag(),
  showNetwork: flag(),
  showDatabases: flag(),
  showMonitoring: flag(),
  showCosts: flag(),
  cloudProviders: names(),
  enableIaC: flag(false),
});

export const InfraApp = z.object({
  ...baseApp({
    views: ["compute", "storage", "network", "databases", "monitoring", "costs"],
    panels: ["resource-usage", "cost-breakdown", "alerts"],
  }),
  type: z.literal("Infra").default("Infra"),
  config: InfraConfig.prefault({}),
});
export type InfraApp = z.infer<typeof InfraApp>;

export const infraMeta: AppTypeMeta = {
  description: "Cloud infrastructure: compute, storage, network and databases, with their monitoring and cost.",
  views: {
    compute: "Instances, containers and functions with their size, region and state.",
    storage: "Buckets and volumes with their size and growth.",
    network: "Networks, load balancers, DNS records and firewall rules.",
    databases: "Database instances with engine, size, connections and backups.",
    monitoring: "CPU, memory, disk and network metrics, with alert rules.",
    costs: "Spend by provider, service and team, with the month's forecast.",
  },
  panels: {
    "resource-usage": "CPU, memory and storage used across resources, against their limits.",
    "cost-breakdown": "This month's spend by service and provider, and the forecast.",
    alerts: "Infrastructure alerts firing now, most severe first.",
  },
};
