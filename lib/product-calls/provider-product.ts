import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";

/** A product of the caller's business, by id or slug (any environment): what a provider verifies keys for. */
export async function providerProduct(auth: AuthContext, idOrSlug: string, field = "product") {
  const where = isIdOf("product", idOrSlug) ? { id: idOrSlug } : /^[a-z0-9-]{3,63}$/.test(idOrSlug) ? { slug: idOrSlug } : null;
  const product = where ? await db.product.findFirst({ where: { ...where, businessId: auth.businessId } }) : null;
  if (!product)
    throw new ApiError({
      status: 404,
      type: "not_found_error",
      code: "RESOURCE_NOT_FOUND",
      field,
      message: "No such product of this business.",
      suggestion: "Name one of your own products by id or slug.",
    });
  return product;
}
