// GET /v1/audit-logs: the business's audit entries (list-audit-entries.ts reads them).
import { defineRoute } from "@/lib/http/route";
import type { CollectionQuery } from "@/lib/http/collection-query";
import { AUDIT_COLLECTION, AuditLog, listAuditEntries } from "./list-audit-entries";

export const auditRoutes = [
  defineRoute({
    method: "GET",
    path: "/v1/audit-logs",
    summary: "List audit entries: key changes and refused credentials",
    tag: "Audit logs",
    scope: "audit_logs:read",
    collection: AUDIT_COLLECTION,
    response: { kind: "collection", schema: AuditLog },
    handler: ({ auth, query }) => listAuditEntries(auth, query as CollectionQuery),
  }),
];
