import { db } from "@/lib/db/client";
import { countThroughCache } from "@/lib/db/count-cache";
import { listCollection } from "@/lib/http/list-collection";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { PRODUCT_COLLECTION } from "./product-collection";
import { countProductRowsDirect, findProductRowsDirect } from "./find-product-row";
import { serializeProduct, type SerializableProduct } from "./serialize";

export function listProducts(auth: AuthContext, query: CollectionQuery) {
  const include = query.expand.has("business") ? { business: { select: { id: true, name: true } } } : undefined;
  return listCollection({
    spec: PRODUCT_COLLECTION,
    query,
    baseWhere: tenantWhere(auth),
    from: {
      // The plain SQLite connection when the page's arguments translate, else Prisma (find-product-row.ts).
      findMany: async (args) => findProductRowsDirect(args, !!include) ?? db.product.findMany({ ...args, include }),
      count: countThroughCache(
        db.product,
        async (args) => countProductRowsDirect(args as { where?: unknown }) ?? db.product.count(args as never),
      ),
    },
    serialize: (row: SerializableProduct) => serializeProduct(row),
  });
}
