import type { AutomationResource as Row } from "@/generated/prisma-sqlite";
import type { KindDef } from "./kinds";

// Rows → records on the wire: `id` and `$id` (the same), `$type` (every kind but Tool), the document's fields in
// the schema's order, then environment and timestamps.

type Doc = Record<string, unknown>;

export function serializeResource(def: KindDef, row: Row): Record<string, unknown> {
  const doc = (row.document ?? {}) as Doc;
  const out: Record<string, unknown> = { id: row.id, $id: row.id };
  if (def.typed) out.$type = def.kind;
  // PostgreSQL's jsonb keeps keys in its own order; the schema's order reads better and is the same on both.
  for (const field of def.fields) if (field[0] !== "$" && Object.hasOwn(doc, field)) out[field] = doc[field];
  out.environment = row.environment;
  out.createdAt = row.createdAt.toISOString();
  out.updatedAt = row.updatedAt.toISOString();
  return out;
}

/** The event payload's `data`: the record, named by `object` (as webhook events name theirs). */
export const eventData = (def: KindDef, record: Record<string, unknown>) => ({ object: def.object, ...record });
