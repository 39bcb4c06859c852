import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Agency: clients, projects, tasks, tracked time and invoices.

export const TIME_TRACKING_METHODS = ["manual", "timer", "both"] as const;

export const AgencyConfig = z.object({
  showClients: flag(),
  showProjects: flag(),
  showTasks: flag(),
  showTimeTracking: flag(),
  showInvoicing: flag(),
  showProposals: flag(false),
  projectStatuses: names(["planning", "active", "on-hold", "completed"]),
  timeTrackingMethod: z.enum(TIME_TRACKING_METHODS).default("both"),
});

export const AgencyApp = z.object({
  ...baseApp({
    views: ["clients", "projects", "tasks", "time-tracking", "invoices"],
    panels: ["project-status", "time-entries", "invoice-summary"],
  }),
  type: z.literal("Agency").default("Agency"),
  config: AgencyConfig.prefault({}),
});
export type AgencyApp = z.infer<typeof AgencyApp>;

export const agencyMeta: AppTypeMeta = {
  description: "A services agency: clients, projects, tasks, tracked time and invoices.",
  views: {
    clients: "Clients with their contacts, active projects and outstanding balance.",
    projects: "Projects by status (planning, active, on hold, completed) with budget and deadline.",
    tasks: "Tasks across projects, by assignee and due date.",
    "time-tracking": "Time entries, started with a timer or entered by hand, per project and person.",
    invoices: "Invoices drafted from tracked time: sent, paid and overdue.",
  },
  panels: {
    "project-status": "How many projects are in each status, and which risk missing their deadline.",
    "time-entries": "Hours logged this week by person and project.",
    "invoice-summary": "Amounts invoiced, paid and overdue this month.",
  },
};
