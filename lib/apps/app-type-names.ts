// The 17 app types of the spec's "Application component configuration" table, in its order. A plain list, so
// schemas and pages can name the types without loading every type's schema (lib/apps/app-types.ts checks it).

export const APP_TYPE_NAMES = [
  "Dashboard",
  "Developer",
  "Admin",
  "SaaS",
  "Data",
  "Headless",
  "CRM",
  "Booking",
  "Support",
  "Agency",
  "Ops",
  "Agent",
  "Workflow",
  "Infra",
  "Platform",
  "ClientPortal",
  "VibeCode",
] as const;
export type AppTypeName = (typeof APP_TYPE_NAMES)[number];
