import { db } from "@/lib/db/client";
import { listCollection } from "@/lib/http/list-collection";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import type { AutomationResource as Row } from "@/generated/prisma-sqlite";
import { serializeResource } from "./serialize-resource";
import type { KindDef } from "./kinds";

/** `fields` always keeps `$id` and `$type` (as it keeps `id`): a record must say what it is. */
export function withIdentity(fields: CollectionQuery["fields"]): CollectionQuery["fields"] {
  if (!fields) return fields;
  const names = new Set(fields.names);
  for (const k of ["$id", "$type"])
    if (fields.mode === "include") names.add(k);
    else names.delete(k);
  return { mode: fields.mode, names };
}

export function listResources(auth: AuthContext, def: KindDef, query: CollectionQuery) {
  return listCollection({
    spec: def.collection,
    query: { ...query, fields: withIdentity(query.fields) },
    baseWhere: { ...tenantWhere(auth), kind: def.kind },
    from: db.automationResource,
    serialize: (row: Row) => serializeResource(def, row),
  });
}
