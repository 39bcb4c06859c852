import { db, dbNull } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { withEvents } from "@/lib/events/emit-event";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";

import { tenantWhere } from "@/lib/http/tenant";

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

const features = tenantResource<Parameters<typeof serializeFeature>[0]>({
  model: () => db.feature,
  idKind: "feature",
  label: "feature",
  collection: FEATURE_COLLECTION,
  serialize: serializeFeature,
});

export async function listFeatures(auth: AuthContext, productId: string, query: CollectionQuery) {
  const product = await getProductOrThrow(auth, productId);
  return features.list(auth, query, { productId: product.id });
}

export async function createFeature(auth: AuthContext, productId: string, input: FeatureCreate) {
  const product = await getProductOrThrow(auth, productId);
  const t = now();
  // In a transaction (with no event) so that an Idempotency-Key's record commits with it (lib/db/commit-hook.ts).
  const row = await withEvents(
    (tx) =>
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
    { answer: serializeFeature },
  );
  return serializeFeature(row);
}

export const getFeatureOrThrow = (auth: AuthContext, id: string) => features.getOrThrow(auth, id);

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
