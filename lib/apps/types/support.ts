import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Support: a shared inbox, tickets, a knowledge base and customers.

export const SupportConfig = z.object({
  showInbox: flag(),
  showTickets: flag(),
  showKnowledgeBase: flag(),
  showCustomers: flag(),
  showLiveChat: flag(false),
  ticketStatuses: names(["open", "pending", "resolved", "closed"]),
  ticketPriorities: names(["low", "medium", "high", "urgent"]),
  enableSLA: flag(false),
});

export const SupportApp = z.object({
  ...baseApp({ views: ["inbox", "tickets", "knowledge-base", "customers"], panels: ["ticket-queue", "customer-info", "kb-articles"] }),
  type: z.literal("Support").default("Support"),
  config: SupportConfig.prefault({}),
});
export type SupportApp = z.infer<typeof SupportApp>;

export const supportMeta: AppTypeMeta = {
  description: "Customer support: a shared inbox, tickets, a knowledge base and customer profiles.",
  views: {
    inbox: "Incoming conversations waiting for a first reply.",
    tickets: "Every ticket with its status, priority, assignee and age.",
    "knowledge-base": "Help articles by category, drafts and published versions.",
    customers: "Customers with their tickets, plan and contact details.",
  },
  panels: {
    "ticket-queue": "Open tickets by priority, oldest first.",
    "customer-info": "The selected customer's details, plan and recent tickets.",
    "kb-articles": "The most-read help articles and those that need an update.",
  },
};
