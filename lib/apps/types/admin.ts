import { z } from "zod";
import { baseApp } from "../base-app";
import { flag, names, type AppTypeMeta } from "./fields";

// Admin: back-office administration of users, roles and settings.

export const AdminConfig = z.object({
  collections: names(["users", "roles", "permissions"]),
  showUsers: flag(),
  showRoles: flag(),
  showAuditLogs: flag(),
  showSettings: flag(),
  enableBulkOps: flag(),
});

export const AdminApp = z.object({
  ...baseApp({
    views: ["users", "roles", "permissions", "audit-logs", "settings"],
    panels: ["user-stats", "recent-activity", "system-health"],
  }),
  type: z.literal("Admin").default("Admin"),
  config: AdminConfig.prefault({}),
});
export type AdminApp = z.infer<typeof AdminApp>;

export const adminMeta: AppTypeMeta = {
  description: "Back-office administration: users, roles, permissions, audit logs and settings.",
  views: {
    users: "Every user account, searchable, with bulk actions when they are enabled.",
    roles: "Roles and the permissions each one grants.",
    permissions: "The catalogue of permissions and the roles that hold each one.",
    "audit-logs": "Who changed what and when, filterable by actor, action and resource.",
    settings: "Organisation-wide settings such as security policies and defaults.",
  },
  panels: {
    "user-stats": "Total, active and newly invited users, with the change since last month.",
    "recent-activity": "The latest administrative actions from the audit log.",
    "system-health": "The status of the services the admin area depends on, with any current issue.",
  },
};
