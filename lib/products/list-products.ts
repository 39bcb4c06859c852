import { db } from "@/lib/db/client";
import { listCollection } from "@/lib/http/list-collection";
import { tenantWhere } from "@/lib/http/tenant";
import type { CollectionQuery } from "@/lib/http/collection-query";
import type { AuthContext } from "@/lib/http/auth-context";
import { PRODUCT_COLLECTION } from "./product-collection";
import { serializeProduct } from "./serialize";

export function listProducts(auth: AuthContext, query: CollectionQuery) {
  const include = query.expand.has("business") ? { business: { select: { id: true, name: true } } } : undefined;
  return listCollection({
    spec: PRODUCT_COLLECTION,
    query,
    baseWhere: tenantWhere(auth),
    from: { findMany: (args) => db.product.findMany({ ...args, include }), count: (args) => db.product.count(args) },
    serialize: (row: Parameters<typeof serializeProduct>[0]) => serializeProduct(row),
  });
}
