import { db } from "@/lib/db/client";
import { countThroughCache } from "@/lib/db/count-cache";
import { listCollection } from "@/lib/http/list-collection";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { PRODUCT_COLLECTION } from "./product-collection";
import { countProductRowsDirect, findProductRowsDirect, type ListedProduct } from "./find-product-row";
import { serializeProduct } from "./serialize";

/**
 * A page of the caller's products. `asWireJson` (the API's list): rows may come as the JSON text SQLite wrote in
 * their wire shape, for the envelope to take as it is; never when the query names fields.
 */
export function listProducts(auth: AuthContext, query: CollectionQuery, { asWireJson = false } = {}) {
  const wire = asWireJson && !query.fields;
  const include = query.expand.has("business") ? { business: { select: { id: true, name: true } } } : undefined;
  return listCollection({
    spec: PRODUCT_COLLECTION,
    query,
    baseWhere: tenantWhere(auth),
    from: {
      // The plain SQLite connection when the page's arguments translate, else Prisma (find-product-row.ts).
      findMany: async (args) => findProductRowsDirect(args, !!include, wire) ?? db.product.findMany({ ...args, include }),
      count: countThroughCache(
        db.product,
        async (args) => countProductRowsDirect(args as { where?: unknown }) ?? db.product.count(args as never),
      ),
    },
    serialize: (row: ListedProduct) => ("wire" in row ? row.wire : serializeProduct(row)),
  });
}
