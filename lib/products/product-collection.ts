import { PRODUCT_TYPES, PRODUCT_VISIBILITIES } from "@/lib/schemas/product";
import { columnWhere, type CollectionSpec, type FilterOp, type FilterValue } from "@/lib/http/collection-query";

const stringOf = (column: string) => ({ type: "string" as const, where: columnWhere(column) });

/** `price[lt]=N`: products with a price whose amount is below N (contract.md). */
function priceWhere(op: FilterOp, values: FilterValue[]) {
  return { prices: { some: columnWhere("amount")(op, values) } };
}

/** `business.name=...`: a filter on the related business. */
function businessNameWhere(op: FilterOp, values: FilterValue[]) {
  return { business: columnWhere("name")(op, values) };
}

// Prisma's `contains` is SQL LIKE and does not escape its wildcards, and SQLite's LIKE has no escape character at
// all: `q=50%` would match "500", `q=_` everything. So the stored search text and the terms both carry LIKE's
// special characters (and PostgreSQL's escape, the backslash) as private-use characters, which LIKE reads literally.
const LIKE_SPECIAL: Record<string, string> = { "%": "\uE000", _: "\uE001", "\\": "\uE002" };

/** Lower-cased text with LIKE's special characters swapped out: the form of `searchText` and of each `q` term. */
export function searchable(text: string): string {
  return text.toLowerCase().replace(/[%_\\]/g, (c) => LIKE_SPECIAL[c]);
}

export const PRODUCT_COLLECTION: CollectionSpec = {
  filters: {
    id: stringOf("id"),
    name: stringOf("name"),
    type: { type: "enum", values: PRODUCT_TYPES },
    description: stringOf("description"),
    isActive: { type: "boolean" },
    visibility: { type: "enum", values: PRODUCT_VISIBILITIES },
    slug: stringOf("slug"),
    createdAt: { type: "date" },
    updatedAt: { type: "date" },
    business: stringOf("businessId"),
    "business.name": { type: "string", where: businessNameWhere },
    price: { type: "number", where: priceWhere },
  },
  sortable: ["createdAt", "updatedAt", "name", "type", "id"],
  fields: [
    "name",
    "type",
    "business",
    "description",
    "isActive",
    "environment",
    "industries",
    "productCategories",
    "interfaces",
    "visibility",
    "slug",
    "api",
    "publishedAt",
    "createdAt",
    "updatedAt",
  ],
  expand: ["business"],
  // Each term must appear in the lower-cased name or description.
  search: (terms) => ({ AND: terms.map((t) => ({ searchText: { contains: searchable(t) } })) }),
};
