import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { invalidField } from "@/lib/api/errors";
import { tenantWhere } from "@/lib/api/tenant";
import type { AuthContext } from "@/lib/auth/auth-context";
import type { ProductCreate, ProductUpdate } from "@/lib/schemas/product";
import { getProductOrThrow } from "./get-product-or-throw";
import { serializeProduct } from "./serialize";
import { searchable } from "./product-collection";

const searchText = (name: string, description: string | null | undefined) => searchable(`${name}\n${description ?? ""}`);

export async function createProduct(auth: AuthContext, input: ProductCreate) {
  if (input.business !== undefined && input.business !== auth.businessId) {
    throw invalidField("business", "An API key can create products only for its own business.", `Omit 'business' or use '${auth.businessId}'.`);
  }
  const t = now();
  const row = await db.product.create({
    data: {
      id: newId("product"), ...tenantWhere(auth),
      name: input.name, type: input.type, description: input.description ?? null, isActive: input.isActive ?? true,
      industries: input.industries ?? [], productCategories: input.productCategories ?? [], interfaces: input.interfaces ?? {},
      searchText: searchText(input.name, input.description), createdAt: t, updatedAt: t,
    },
  });
  return serializeProduct(row);
}

export async function updateProduct(auth: AuthContext, id: string, patch: ProductUpdate) {
  const current = await getProductOrThrow(auth, id);
  const name = patch.name ?? current.name;
  const description = patch.description === undefined ? current.description : patch.description;
  const row = await db.product.update({
    where: { id: current.id },
    data: { ...patch, searchText: searchText(name, description), updatedAt: now() },
  });
  return serializeProduct(row);
}

/** activate / deactivate: idempotent, a repeat changes nothing. */
export async function setProductActive(auth: AuthContext, id: string, isActive: boolean) {
  const current = await getProductOrThrow(auth, id);
  if (current.isActive === isActive) return serializeProduct(current);
  return serializeProduct(await db.product.update({ where: { id: current.id }, data: { isActive, updatedAt: now() } }));
}

/** Deleting a product removes its features and prices with it (cascade). */
export async function deleteProduct(auth: AuthContext, id: string) {
  const current = await getProductOrThrow(auth, id);
  await db.product.delete({ where: { id: current.id } });
}
