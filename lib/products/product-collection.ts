import { PRODUCT_TYPES } from "@/lib/schemas/product";
import { columnWhere, type CollectionSpec, type FilterOp, type FilterValue } from "@/lib/api/collection-query";

const stringOf = (column: string) => ({ type: "string" as const, where: columnWhere(column) });

/** `price[lt]=N`: products with a price whose amount is below N (contract.md). */
function priceWhere(op: FilterOp, values: FilterValue[]) {
  return { prices: { some: columnWhere("amount")(op, values) } };
}

/** `business.name=...`: a filter on the related business. */
function businessNameWhere(op: FilterOp, values: FilterValue[]) {
  return { business: columnWhere("name")(op, values) };
}

export const PRODUCT_COLLECTION: CollectionSpec = {
  filters: {
    id: stringOf("id"),
    name: stringOf("name"),
    type: { type: "enum", values: PRODUCT_TYPES },
    description: stringOf("description"),
    isActive: { type: "boolean" },
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
    business: stringOf("businessId"),
    "business.name": { type: "string", where: businessNameWhere },
    price: { type: "number", where: priceWhere },
  },
  sortable: ["createdAt", "updatedAt", "name", "type", "id"],
  fields: ["name", "type", "business", "description", "isActive", "environment", "industries", "productCategories", "interfaces", "createdAt", "updatedAt"],
  expand: ["business"],
  // Each term must appear in the lower-cased name or description.
  search: (terms) => ({ AND: terms.map((t) => ({ searchText: { contains: t } })) }),
};
