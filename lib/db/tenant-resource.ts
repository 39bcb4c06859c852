import { isIdOf, type IdKind } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import { listCollection, type CollectionSource } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { CollectionResult } from "@/lib/http/route";
import type { AuthContext } from "@/lib/http/auth-context";
import { countThroughCache } from "./count-cache";

// The resource kit: what every tenant-owned resource (a row with businessId and environment) needs the same way,
// written once. `getOrThrow` is the get-or-404 rule (a malformed id, another business's or the other environment's
// is a 404 naming what was asked for, never a hint that it exists); `list` is a collection page under the
// collection rules (lib/http/list-collection.ts) scoped to the caller's business and environment.

/** A Prisma model delegate (`db.invoice`, …): the kit only needs these two calls. */
export interface TenantModel<Row> extends CollectionSource {
  findFirst(args: { where: Record<string, unknown> }): PromiseLike<Row | null>;
}

export interface TenantResourceSpec<Row> {
  /** The delegate, read when called (the client is created lazily). */
  model: () => TenantModel<Row>;
  idKind: IdKind;
  /** How a 404 names it: "API key", "OAuth client", "invoice", … */
  label: string;
  collection?: CollectionSpec;
  serialize?: (row: Row) => Record<string, unknown>;
}

export interface TenantResource<Row> {
  getOrThrow(auth: AuthContext, id: string): Promise<Row>;
  list(auth: AuthContext, query: CollectionQuery, where?: Record<string, unknown>): Promise<CollectionResult>;
}

export function tenantResource<Row>(spec: TenantResourceSpec<Row>): TenantResource<Row> {
  return {
    async getOrThrow(auth, id) {
      if (!isIdOf(spec.idKind, id)) throw notFound(spec.label, id);
      const row = await spec.model().findFirst({ where: { id, ...tenantWhere(auth) } });
      if (!row) throw notFound(spec.label, id);
      return row;
    },
    list(auth, query, where) {
      if (!spec.collection || !spec.serialize) throw new Error(`${spec.label}: no collection spec or serializer for list()`);
      const model = spec.model();
      return listCollection({
        spec: spec.collection,
        query,
        baseWhere: { ...tenantWhere(auth), ...where },
        from: { findMany: (args) => model.findMany(args), count: countThroughCache(model) },
        serialize: spec.serialize,
      });
    },
  };
}
