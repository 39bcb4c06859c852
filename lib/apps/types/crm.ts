import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// CRM: contacts, companies and deals moving through a sales pipeline.

export const CRMConfig = z.object({
  showContacts: flag(),
  showCompanies: flag(),
  showDeals: flag(),
  showPipeline: flag(),
  showActivities: flag(),
  showEmail: flag(false),
  pipelineStages: names(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "Use a three-letter ISO 4217 currency code such as USD")
    .default("USD"),
});

export const CRMApp = z.object({
  ...baseApp({
    views: ["contacts", "companies", "deals", "pipeline", "activities"],
    panels: ["pipeline-overview", "recent-deals", "activities"],
  }),
  type: z.literal("CRM").default("CRM"),
  config: CRMConfig.prefault({}),
});
export type CRMApp = z.infer<typeof CRMApp>;

export const crmMeta: AppTypeMeta = {
  description: "Customer relationships: contacts, companies, deals in a sales pipeline, and the activities around them.",
  views: {
    contacts: "The people you sell to, with their company, owner and last contact.",
    companies: "Organisations with their contacts and open deals.",
    deals: "Every deal with its value, stage, owner and expected close date.",
    pipeline: "Deals as cards in columns, one column per pipeline stage.",
    activities: "Calls, meetings, notes and tasks logged against contacts and deals.",
  },
  panels: {
    "pipeline-overview": "The number and value of deals in each pipeline stage, in the configured currency.",
    "recent-deals": "The deals created or moved most recently.",
    activities: "Upcoming and overdue activities assigned to you.",
  },
};
