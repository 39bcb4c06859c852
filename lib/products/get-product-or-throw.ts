import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { notFound } from "@/lib/api/errors";
import { tenantWhere } from "@/lib/api/tenant";
import type { AuthContext } from "@/lib/auth/auth-context";

/** A product of the caller's business and environment; any other id (malformed, foreign, test vs live) is a 404. */
export async function getProductOrThrow(auth: AuthContext, id: string, opts: { expandBusiness?: boolean } = {}) {
  if (!isIdOf("product", id)) throw notFound("product", id);
  const product = await db.product.findFirst({
    where: { id, ...tenantWhere(auth) },
    include: opts.expandBusiness ? { business: { select: { id: true, name: true } } } : undefined,
  });
  if (!product) throw notFound("product", id);
  return product;
}
