import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, type AppTypeMeta } from "./fields";

// ClientPortal: what an agency's clients see of their projects.

export const ClientPortalConfig = z.object({
  showProjects: flag(),
  showInvoices: flag(),
  showDeliverables: flag(),
  showMessages: flag(),
  showSupport: flag(false),
  enableFeedback: flag(),
  enableUploads: flag(),
  customBranding: flag(),
});

export const ClientPortalApp = z.object({
  ...baseApp({
    views: ["projects", "invoices", "deliverables", "messages"],
    panels: ["project-status", "recent-invoices", "new-messages"],
  }),
  type: z.literal("ClientPortal").default("ClientPortal"),
  config: ClientPortalConfig.prefault({}),
});
export type ClientPortalApp = z.infer<typeof ClientPortalApp>;

export const clientPortalMeta: AppTypeMeta = {
  description: "A portal for an agency's clients: their projects, invoices, deliverables and messages.",
  views: {
    projects: "The client's projects with status, milestones and next steps.",
    invoices: "Invoices with amount, due date and payment status.",
    deliverables: "Files delivered for review, with feedback and approval.",
    messages: "Conversations between the client and the team.",
  },
  panels: {
    "project-status": "Each project's progress and its next milestone.",
    "recent-invoices": "The latest invoices and any amount due.",
    "new-messages": "Unread messages from the team.",
  },
};
