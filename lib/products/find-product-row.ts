import { db } from "@/lib/db/client";
import { directSqlite, fromSqliteDate, fromSqliteJson, statement } from "@/lib/db/sqlite-direct";
import type { Product as ProductRow } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";
import { tenantWhere } from "@/lib/http/tenant";

// One product row of the caller's business and environment, the hot read of the API (GET /v1/products/{id},
// and every feature/price call checks its product first). On SQLite it is one prepared statement on the plain
// connection (lib/db/sqlite-direct.ts), a few microseconds instead of Prisma's ~1 ms of CPU; on PostgreSQL it is
// Prisma's findFirst. Both return Prisma's row shape.

export type ProductWithBusiness = ProductRow & { business?: { id: string; name: string } };

const COLUMNS = ["id", "businessId", "environment", "name", "type", "description", "isActive", "industries", "productCategories",
  "interfaces", "searchText", "createdAt", "updatedAt"] as const;

const SELECT_SQL = `SELECT ${COLUMNS.map((c) => `p."${c}"`).join(", ")}, b."name" AS "businessName"
  FROM "Product" p JOIN "Business" b ON b."id" = p."businessId"
  WHERE p."id" = ? AND p."businessId" = ? AND p."environment" = ?`;

function fromSqlite(r: Record<string, unknown>, expandBusiness: boolean): ProductWithBusiness {
  const row: ProductWithBusiness = {
    id: r.id as string, businessId: r.businessId as string, environment: r.environment as string, name: r.name as string,
    type: r.type as string, description: (r.description as string | null) ?? null, isActive: r.isActive === 1 || r.isActive === true,
    industries: fromSqliteJson(r.industries), productCategories: fromSqliteJson(r.productCategories), interfaces: fromSqliteJson(r.interfaces),
    searchText: r.searchText as string, createdAt: fromSqliteDate(r.createdAt), updatedAt: fromSqliteDate(r.updatedAt),
  };
  if (expandBusiness) row.business = { id: row.businessId, name: r.businessName as string };
  return row;
}

export async function findProductRow(auth: AuthContext, id: string, expandBusiness = false): Promise<ProductWithBusiness | null> {
  const sqlite = directSqlite();
  if (sqlite) {
    const r = statement(sqlite, SELECT_SQL).get(id, auth.businessId, auth.environment) as Record<string, unknown> | undefined;
    return r ? fromSqlite(r, expandBusiness) : null;
  }
  return db.product.findFirst({
    where: { id, ...tenantWhere(auth) },
    include: expandBusiness ? { business: { select: { id: true, name: true } } } : undefined,
  });
}
