import { z } from "zod";
import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { Timestamp } from "@/lib/schemas/common";
import type { AuditLog as AuditRow } from "@/generated/prisma-sqlite";

// The audit log as its readers see it: the entry's schema, the collection rules and the one list function that
// GET /v1/audit-logs and the apps' audit panels (lib/apps/panel-data.ts) both call.

export const AuditLog = z
  .object({
    id: z.string(),
    action: z.string(),
    actorType: z.string(),
    actorId: z.string().nullable(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    method: z.string().nullable(),
    path: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
    environment: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: "AuditLog" });

export const AUDIT_COLLECTION: CollectionSpec = {
  filters: {
    action: { type: "string" },
    actorId: { type: "string" },
    actorType: { type: "string" },
    targetId: { type: "string" },
    ip: { type: "string" },
    createdAt: { type: "date" },
  },
  sortable: ["createdAt", "id"],
  fields: [
    "action",
    "actorType",
    "actorId",
    "targetType",
    "targetId",
    "ip",
    "userAgent",
    "method",
    "path",
    "details",
    "environment",
    "createdAt",
  ],
};

export function serializeAudit(row: AuditRow) {
  return {
    id: row.id,
    action: row.action,
    actorType: row.actorType,
    actorId: row.actorId,
    targetType: row.targetType,
    targetId: row.targetId,
    ip: row.ip,
    userAgent: row.userAgent,
    method: row.method,
    path: row.path,
    details: (row.details as Record<string, unknown> | null) ?? null,
    environment: row.environment,
    createdAt: row.createdAt.toISOString(),
  };
}

const auditEntries = tenantResource<AuditRow>({
  model: () => db.auditLog,
  idKind: "audit",
  label: "audit entry",
  collection: AUDIT_COLLECTION,
  serialize: serializeAudit,
});

/** A page of the business's audit entries in the caller's environment, newest first by default. */
export const listAuditEntries = (auth: AuthContext, query: CollectionQuery) => auditEntries.list(auth, query);
