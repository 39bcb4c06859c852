import { isIdOf } from "@/lib/ids";
import { notFound } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { findProductRow } from "./find-product-row";

/** A product of the caller's business and environment; any other id (malformed, foreign, test vs live) is a 404. */
export async function getProductOrThrow(auth: AuthContext, id: string, opts: { expandBusiness?: boolean } = {}) {
  if (!isIdOf("product", id)) throw notFound("product", id);
  const product = await findProductRow(auth, id, opts.expandBusiness ?? false);
  if (!product) throw notFound("product", id);
  return product;
}
