import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Platform: an internal developer platform of apps, environments and deployments.

export const PlatformConfig = z.object({
  showApps: flag(),
  showDeployments: flag(),
  showEnvironments: flag(),
  showServices: flag(),
  showPipelines: flag(),
  showObservability: flag(),
  environments: names(["development", "staging", "production"]),
  enableGitOps: flag(false),
});

export const PlatformApp = z.object({
  ...baseApp({
    views: ["apps", "deployments", "environments", "services", "pipelines"],
    panels: ["deployment-status", "service-health", "pipeline-runs"],
  }),
  type: z.literal("Platform").default("Platform"),
  config: PlatformConfig.prefault({}),
});
export type PlatformApp = z.infer<typeof PlatformApp>;

export const platformMeta: AppTypeMeta = {
  description: "An internal developer platform: apps, deployments, environments, services and delivery pipelines.",
  views: {
    apps: "Applications with their owners, repositories and environments.",
    deployments: "Deployments per environment with version, author and result.",
    environments: "Development, staging and production, and what runs in each.",
    services: "Services with their dependencies, owners and health.",
    pipelines: "Build and release pipelines with their latest runs.",
  },
  panels: {
    "deployment-status": "The version deployed in each environment and any deployment in progress.",
    "service-health": "Each service's health (up, degraded or down) and its error rate.",
    "pipeline-runs": "The latest pipeline runs with branch, duration and result.",
  },
};
