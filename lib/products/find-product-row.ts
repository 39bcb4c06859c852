import { db } from "@/lib/db/client";
import {
  ADAPTER_DATE_GLOB,
  directSqlite,
  readUnchanged,
  type DirectSqlite,
  fromSqliteDate,
  fromSqliteJson,
  sqliteDateToIso,
  statement,
} from "@/lib/db/sqlite-direct";
import { batchedById, directPostgres } from "@/lib/db/pg-direct";
import { sqliteOrderBy, sqliteWhere, type TableShape } from "@/lib/db/sqlite-where";
import type { Product as ProductRow } from "@/generated/prisma-sqlite";
import type { AuthContext } from "@/lib/http/auth-context";
import { tenantWhere } from "@/lib/http/tenant";
import { RawJson } from "@/lib/http/envelope";
import { WIRE_COLUMNS, type SerializableProduct } from "./serialize";

// One product row of the caller's business and environment, the hot read of the API (GET /v1/products/{id},
// and every feature/price call checks its product first). On SQLite it is one prepared statement on the plain
// connection (lib/db/sqlite-direct.ts), a few microseconds instead of Prisma's ~1 ms of CPU; on PostgreSQL one
// named statement on a plain `pg` pool (lib/db/pg-direct.ts). Both return Prisma's row shape.

export type ProductWithBusiness = ProductRow & { business?: { id: string; name: string } };

const COLUMNS = [
  "id",
  "businessId",
  "environment",
  "name",
  "type",
  "description",
  "isActive",
  "industries",
  "productCategories",
  "interfaces",
  "searchText",
  "visibility",
  "slug",
  "api",
  "apiSecretHeaders",
  "publishedAt",
  "gatewaySecret",
  "previousGatewaySecret",
  "previousGatewaySecretExpiresAt",
  "createdAt",
  "updatedAt",
] as const;

const SELECTED = COLUMNS.map((c) => `p."${c}"`).join(", ");

const SELECT_WITH_BUSINESS = `SELECT ${SELECTED}, b."name" AS "businessName"
  FROM "Product" p JOIN "Business" b ON b."id" = p."businessId"`;
/** SQLite: one product of the caller's tenant. */
const SELECT_SQL = `${SELECT_WITH_BUSINESS} WHERE p."id" = ? AND p."businessId" = ? AND p."environment" = ?`;
// PostgreSQL: the products asked for in one turn of the event loop, in one query; each caller checks its tenant.
const pgRowById = batchedById<Record<string, unknown> & { id: string }>(
  "find-product-rows",
  `${SELECT_WITH_BUSINESS} WHERE p."id" = ANY($1::text[])`,
);

// Rows come back as arrays (better-sqlite3's raw mode): about half the cost of an object per row with named
// columns, which was most of a list page's read. C maps a column to its place; the business name comes last.
const C = Object.fromEntries(COLUMNS.map((c, i) => [c, i])) as Record<(typeof COLUMNS)[number], number>;
const BUSINESS_NAME = COLUMNS.length;

function fromSqlite(r: unknown[], expandBusiness: boolean): ProductWithBusiness {
  const row: ProductWithBusiness = {
    id: r[C.id] as string,
    businessId: r[C.businessId] as string,
    environment: r[C.environment] as string,
    name: r[C.name] as string,
    type: r[C.type] as string,
    description: (r[C.description] as string | null) ?? null,
    isActive: r[C.isActive] === 1 || r[C.isActive] === true,
    industries: fromSqliteJson(r[C.industries]),
    productCategories: fromSqliteJson(r[C.productCategories]),
    interfaces: fromSqliteJson(r[C.interfaces]),
    searchText: r[C.searchText] as string,
    visibility: r[C.visibility] as string,
    slug: (r[C.slug] as string | null) ?? null,
    api: fromSqliteJson(r[C.api]),
    apiSecretHeaders: (r[C.apiSecretHeaders] as string | null) ?? null,
    publishedAt: r[C.publishedAt] == null ? null : fromSqliteDate(r[C.publishedAt]),
    gatewaySecret: (r[C.gatewaySecret] as string | null) ?? null,
    previousGatewaySecret: (r[C.previousGatewaySecret] as string | null) ?? null,
    previousGatewaySecretExpiresAt:
      r[C.previousGatewaySecretExpiresAt] == null ? null : fromSqliteDate(r[C.previousGatewaySecretExpiresAt]),
    createdAt: fromSqliteDate(r[C.createdAt]),
    updatedAt: fromSqliteDate(r[C.updatedAt]),
  };
  if (expandBusiness) row.business = { id: row.businessId, name: r[BUSINESS_NAME] as string };
  return row;
}

export async function findProductRow(auth: AuthContext, id: string, expandBusiness = false): Promise<ProductWithBusiness | null> {
  const sqlite = directSqlite();
  if (sqlite) {
    const r = statement(sqlite, SELECT_SQL).raw(true).get(id, auth.businessId, auth.environment) as unknown[] | undefined;
    return r ? fromSqlite(r, expandBusiness) : null;
  }
  const pool = directPostgres();
  if (pool) {
    // pg returns timestamps as Dates, JSON parsed and booleans as booleans: Prisma's shape already.
    const r = await pgRowById(pool, id);
    if (!r || r.businessId !== auth.businessId || r.environment !== auth.environment) return null;
    const { businessName, ...row } = r;
    return {
      ...(row as ProductRow),
      ...(expandBusiness ? { business: { id: row.businessId as string, name: businessName as string } } : {}),
    };
  }
  return db.product.findFirst({
    where: { id, ...tenantWhere(auth) },
    include: expandBusiness ? { business: { select: { id: true, name: true } } } : undefined,
  });
}

const PRODUCT_SHAPE: TableShape = {
  alias: "p",
  columns: new Set(COLUMNS),
  nullable: new Set([
    "description",
    "slug",
    "api",
    "apiSecretHeaders",
    "publishedAt",
    "gatewaySecret",
    "previousGatewaySecret",
    "previousGatewaySecretExpiresAt",
  ]),
};

// A list page reads only what the wire shape shows (not the search text or the gateway's secrets), and keeps its
// dates as ISO text: the page is 21 rows, and each column and Date per row was most of its CPU. SQLite writes each
// row as JSON: for most rows the wire shape itself (WIRE_JSON, serializeProduct's output to the byte, which
// tests/unit/product-wire-json.test.ts holds it to), which goes into the envelope as it is; for the others (an API
// product's `api` block, whose secret header names come from the sealed column, or a date not in the adapter's
// form) one JSON array of the columns, its JSON columns nested as JSON (json()), parsed and serialized here.
const LIST_COLUMNS = [...WIRE_COLUMNS, "publishedAt", "createdAt", "updatedAt"] as const;
const L = Object.fromEntries(LIST_COLUMNS.map((c, i) => [c, i])) as Record<(typeof LIST_COLUMNS)[number], number>;
const JSON_COLUMNS: ReadonlySet<string> = new Set(["industries", "productCategories", "interfaces", "api"]);
const LIST_ARRAY_ITEMS = LIST_COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? `json(p."${c}")` : `p."${c}"`)).join(", ");

// A date in the adapter's text (ADAPTER_DATE_GLOB) is the wire's ISO form once "+00:00" is "Z".
const wireDate = (c: string) => `substr(p."${c}", 1, 23) || 'Z'`;
/** A stored JSON list or object, or `empty` when the column holds nothing (SQL NULL or JSON null), as serializeProduct. */
const wireJsonColumn = (c: string, empty: string) =>
  `CASE WHEN p."${c}" IS NULL OR p."${c}" = 'null' THEN json('${empty}') ELSE json(p."${c}") END`;
/** Rows whose wire shape SQLite writes: no api block, and dates in the adapter's form. */
const PLAIN_ROW = `(p."api" IS NULL OR p."api" = 'null') AND p."createdAt" GLOB ${ADAPTER_DATE_GLOB} AND p."updatedAt" GLOB ${ADAPTER_DATE_GLOB}
  AND (p."publishedAt" IS NULL OR p."publishedAt" GLOB ${ADAPTER_DATE_GLOB})`;
const wireJson = (business: string) => `json_object('id', p."id", 'name', p."name", 'type', p."type", 'business', ${business},
  'description', p."description", 'isActive', json(iif(p."isActive", 'true', 'false')), 'environment', p."environment",
  'industries', ${wireJsonColumn("industries", "[]")}, 'productCategories', ${wireJsonColumn("productCategories", "[]")},
  'interfaces', ${wireJsonColumn("interfaces", "{}")}, 'visibility', p."visibility", 'slug', p."slug", 'api', NULL,
  'publishedAt', iif(p."publishedAt" IS NULL, NULL, ${wireDate("publishedAt")}),
  'createdAt', ${wireDate("createdAt")}, 'updatedAt', ${wireDate("updatedAt")})`;
const WIRE_JSON = wireJson(`p."businessId"`);
const WIRE_JSON_EXPANDED = wireJson(`json_object('id', p."businessId", 'name', b."name")`);
// After the JSON text: what the cursor of the page's last row reads (the sortable columns).
const CURSOR_COLUMNS = ["id", "name", "type", "createdAt", "updatedAt"] as const;
const CURSOR_SELECTED = CURSOR_COLUMNS.map((c) => `p."${c}"`).join(", ");

/** A list row SQLite wrote in its wire shape: the text, and the columns a cursor may be made of. */
export interface WireProductRow {
  wire: RawJson;
  id: string;
  name: string;
  type: string;
  createdAt: string;
  updatedAt: string;
}

export type ListedProduct = SerializableProduct | WireProductRow;

/** A list row from its JSON array (JSON columns already parsed); the business's name follows when expanded. */
function listRowFromSqlite(r: unknown[], expandBusiness: boolean): SerializableProduct {
  const row: SerializableProduct = {
    id: r[L.id] as string,
    name: r[L.name] as string,
    type: r[L.type] as string,
    businessId: r[L.businessId] as string,
    description: (r[L.description] as string | null) ?? null,
    isActive: r[L.isActive] === 1 || r[L.isActive] === true,
    environment: r[L.environment] as string,
    industries: (r[L.industries] ?? null) as SerializableProduct["industries"],
    productCategories: (r[L.productCategories] ?? null) as SerializableProduct["productCategories"],
    interfaces: (r[L.interfaces] ?? null) as SerializableProduct["interfaces"],
    visibility: r[L.visibility] as string,
    slug: (r[L.slug] as string | null) ?? null,
    api: (r[L.api] ?? null) as SerializableProduct["api"],
    apiSecretHeaders: (r[L.apiSecretHeaders] as string | null) ?? null,
    publishedAt: r[L.publishedAt] == null ? null : sqliteDateToIso(r[L.publishedAt]),
    createdAt: sqliteDateToIso(r[L.createdAt]),
    updatedAt: sqliteDateToIso(r[L.updatedAt]),
  };
  if (expandBusiness) row.business = { id: row.businessId, name: r[LIST_COLUMNS.length] as string };
  return row;
}

const OPEN_BRACE = 0x7b;

/** One selected row: [wire JSON (an object) | column array JSON (an array), ...CURSOR_COLUMNS]. */
function listedFromSqlite(r: unknown[], expandBusiness: boolean): ListedProduct {
  const text = r[0] as string;
  if (text.charCodeAt(0) !== OPEN_BRACE) return listRowFromSqlite(JSON.parse(text) as unknown[], expandBusiness);
  return {
    wire: new RawJson(text),
    id: r[1] as string,
    name: r[2] as string,
    type: r[3] as string,
    createdAt: sqliteDateToIso(r[4]),
    updatedAt: sqliteDateToIso(r[5]),
  };
}

/**
 * A list page of products (the collection rules' `findMany` arguments) on the plain SQLite connection: one prepared
 * statement instead of Prisma's ~1 ms of CPU per page. With `asWireJson`, rows SQLite can write in their wire shape
 * come as WireProductRow, and the page is kept while nothing is committed to the database (readUnchanged: shared, so
 * not to be changed). Null when not on SQLite, or when the arguments use anything the translation does not cover
 * (lib/db/sqlite-where.ts); the caller then asks Prisma.
 */
export function findProductRowsDirect(
  args: { where?: unknown; orderBy?: unknown; take?: number; skip?: number },
  expandBusiness: boolean,
  asWireJson = false,
): ListedProduct[] | null {
  const sqlite = directSqlite();
  if (!sqlite) return null;
  // The API's pages (their rows are only ever written out) are kept while the database is unchanged: clients
  // asking for the same page between two commits share one read.
  if (asWireJson)
    return readUnchanged(sqlite, `products\u0000${expandBusiness}\u0000${JSON.stringify(args, tagDates)}`, () =>
      readProductRows(sqlite, args, expandBusiness, true),
    );
  return readProductRows(sqlite, args, expandBusiness, false);
}

/** JSON.stringify's replacer for a key that tells a Date from its ISO text (they translate to different SQL). */
function tagDates(this: Record<string, unknown>, key: string, value: unknown) {
  return this[key] instanceof Date ? { date: value } : value;
}

function readProductRows(
  sqlite: DirectSqlite,
  args: { where?: unknown; orderBy?: unknown; take?: number; skip?: number },
  expandBusiness: boolean,
  asWireJson: boolean,
): ListedProduct[] | null {
  const where = sqliteWhere(args.where, PRODUCT_SHAPE);
  const order = sqliteOrderBy(args.orderBy, PRODUCT_SHAPE);
  if (!where || order === null) return null;
  // The LIMIT as a literal (an integer the collection rules computed, limit + 1): a bound LIMIT feeds SQLite's
  // planner, so each run with a new binding prepared the whole statement again, a quarter of its cost.
  const limit = args.take !== undefined && Number.isSafeInteger(args.take) && args.take >= 0 ? args.take : -1;
  // The business's name only when the page expands it: otherwise the join is a lookup per row for nothing.
  const from = expandBusiness ? `"Product" p JOIN "Business" b ON b."id" = p."businessId"` : `"Product" p`;
  const array = `json_array(${LIST_ARRAY_ITEMS}${expandBusiness ? `, b."name"` : ""})`;
  const tail = `FROM ${from} WHERE ${where.sql} ${order} LIMIT ${limit} OFFSET ?`;
  if (!asWireJson) {
    const rows = statement(sqlite, `SELECT ${array} ${tail}`)
      .pluck(true)
      .all(...where.params, args.skip ?? 0) as string[];
    return rows.map((text) => listRowFromSqlite(JSON.parse(text) as unknown[], expandBusiness));
  }
  const wire = expandBusiness ? WIRE_JSON_EXPANDED : WIRE_JSON;
  // One column, the row's test evaluated once: json_object's text starts with "{", json_array's with "[".
  const sql = `SELECT iif(${PLAIN_ROW}, ${wire}, ${array}), ${CURSOR_SELECTED} ${tail}`;
  const rows = statement(sqlite, sql)
    .raw(true)
    .all(...where.params, args.skip ?? 0) as unknown[][];
  return rows.map((r) => listedFromSqlite(r, expandBusiness));
}

/**
 * A list's total on the plain SQLite connection (a third of Prisma's CPU for 100,000 rows: its count wraps the rows
 * in a subquery). Null when not on SQLite or when the filter does not translate; the caller then asks Prisma.
 */
export function countProductRowsDirect(args: { where?: unknown }): number | null {
  const sqlite = directSqlite();
  if (!sqlite) return null;
  const where = sqliteWhere(args.where, PRODUCT_SHAPE);
  if (!where) return null;
  return statement(sqlite, `SELECT COUNT(*) FROM "Product" p WHERE ${where.sql}`)
    .pluck(true)
    .get(...where.params) as number;
}
