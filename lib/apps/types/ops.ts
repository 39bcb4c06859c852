import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Ops: incidents, monitoring, on-call and a status page.

export const OpsConfig = z.object({
  showIncidents: flag(),
  showMonitoring: flag(),
  showOnCall: flag(),
  showStatusPage: flag(),
  showPostmortems: flag(false),
  severityLevels: names(["sev1", "sev2", "sev3", "sev4"]),
  alertChannels: names(),
  enableAutoEscalation: flag(),
});

export const OpsApp = z.object({
  ...baseApp({
    views: ["incidents", "monitoring", "on-call", "status-page", "postmortems"],
    panels: ["incident-timeline", "alert-status", "on-call-schedule"],
  }),
  type: z.literal("Ops").default("Ops"),
  config: OpsConfig.prefault({}),
});
export type OpsApp = z.infer<typeof OpsApp>;

export const opsMeta: AppTypeMeta = {
  description: "Operations: incidents, monitoring, on-call rotations, a status page and postmortems.",
  views: {
    incidents: "Open and past incidents with their severity, commander and timeline.",
    monitoring: "Monitors and their current state, with recent alerts.",
    "on-call": "Rotations, schedules and who is on call now.",
    "status-page": "The public status page: components, their status and announcements.",
    postmortems: "Write-ups of resolved incidents with causes and follow-up actions.",
  },
  panels: {
    "incident-timeline": "The current incident's events in order: detection, updates and mitigation.",
    "alert-status": "Alerts firing now, by severity and channel.",
    "on-call-schedule": "Who is on call now and next, for each rotation.",
  },
};
