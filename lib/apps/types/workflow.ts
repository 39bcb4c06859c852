import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Workflow: automations built from triggers and actions.

export const WorkflowAppConfig = z.object({
  showWorkflows: flag(),
  showBuilder: flag(),
  showRuns: flag(),
  showIntegrations: flag(),
  showTemplates: flag(),
  triggers: names(),
  actions: names(),
  enableVisualBuilder: flag(),
});

export const WorkflowApp = z.object({
  ...baseApp({
    views: ["workflows", "builder", "runs", "integrations", "templates"],
    panels: ["workflow-status", "recent-runs", "integration-health"],
  }),
  type: z.literal("Workflow").default("Workflow"),
  config: WorkflowAppConfig.prefault({}),
});
export type WorkflowApp = z.infer<typeof WorkflowApp>;

export const workflowMeta: AppTypeMeta = {
  description: "Automation: workflows built from triggers and actions, their runs and the integrations they use.",
  views: {
    workflows: "Every workflow with its trigger, state and last run.",
    builder: "A visual editor to chain triggers, conditions and actions.",
    runs: "Workflow runs with each step's input, output and timing.",
    integrations: "The connected services that triggers and actions can use.",
    templates: "Ready-made workflows to copy and adapt.",
  },
  panels: {
    "workflow-status": "How many workflows are active, paused or failing.",
    "recent-runs": "The latest runs with workflow, duration and outcome.",
    "integration-health": "The connection status of each integration, expired credentials first.",
  },
};
