import { db, dbNull } from "@/lib/db/client";
import { withEvents } from "@/lib/events/emit-event";
import { now } from "@/lib/clock";
import { isIdOf, newId } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import { listCollection } from "@/lib/http/list-collection";
import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import type { FeatureCreate, FeatureUpdate } from "@/lib/schemas/feature";
import { getProductOrThrow } from "./get-product-or-throw";
import { serializeFeature } from "./serialize";

export const FEATURE_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    name: { type: "string" },
    key: { type: "string" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
  },
  sortable: ["createdAt", "updatedAt", "name", "id"],
  fields: ["productId", "name", "description", "key", "value", "environment", "createdAt", "updatedAt"],
  search: (terms) => ({ AND: terms.map((t) => ({ OR: [{ name: { contains: t } }, { key: { contains: t } }] })) }),
};

export async function listFeatures(auth: AuthContext, productId: string, query: CollectionQuery) {
  const product = await getProductOrThrow(auth, productId);
  return listCollection({
    spec: FEATURE_COLLECTION,
    query,
    baseWhere: { productId: product.id, ...tenantWhere(auth) },
    from: db.feature,
    serialize: (row: Parameters<typeof serializeFeature>[0]) => serializeFeature(row),
  });
}

export async function createFeature(auth: AuthContext, productId: string, input: FeatureCreate) {
  const product = await getProductOrThrow(auth, productId);
  const t = now();
  // In a transaction (with no event) so that an Idempotency-Key's record commits with it (lib/db/commit-hook.ts).
  const row = await withEvents((tx) =>
    tx.feature.create({
      data: {
        id: newId("feature"),
        ...tenantWhere(auth),
        productId: product.id,
        name: input.name,
        description: input.description ?? null,
        key: input.key ?? null,
        value: input.value ?? undefined,
        createdAt: t,
        updatedAt: t,
      },
    }),
  );
  return serializeFeature(row);
}

export async function getFeatureOrThrow(auth: AuthContext, id: string) {
  if (!isIdOf("feature", id)) throw notFound("feature", id);
  const row = await db.feature.findFirst({ where: { id, ...tenantWhere(auth) } });
  if (!row) throw notFound("feature", id);
  return row;
}

export async function updateFeature(auth: AuthContext, id: string, patch: FeatureUpdate) {
  const current = await getFeatureOrThrow(auth, id);
  const { value, ...rest } = patch;
  // A JSON column is cleared with DbNull (lib/db/client.ts says which); a plain null would mean "JSON null".
  const data = { ...rest, ...(value === undefined ? {} : { value: value === null ? dbNull : value }), updatedAt: now() };
  return serializeFeature(await db.feature.update({ where: { id: current.id }, data }));
}

export async function deleteFeature(auth: AuthContext, id: string) {
  const current = await getFeatureOrThrow(auth, id);
  await db.feature.delete({ where: { id: current.id } });
}
