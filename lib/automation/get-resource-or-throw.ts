import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import type { KindDef } from "./kinds";

/** A record of this kind in the caller's business and environment; any other id (malformed, foreign, test vs live,
 * another kind) is a 404. */
export async function getResourceOrThrow(auth: AuthContext, def: KindDef, id: string) {
  if (!isIdOf(def.idKind, id)) throw notFound(def.label, id);
  const row = await db.automationResource.findFirst({ where: { id, kind: def.kind, ...tenantWhere(auth) } });
  if (!row) throw notFound(def.label, id);
  return row;
}
