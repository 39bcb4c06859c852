import { encodeCursor, invalidCursor } from "./cursor";
import { INT32_MAX, INT32_MIN, pickFields, type CollectionQuery, type CollectionSpec } from "./collection-query";
import { RawJson, type Pagination } from "./envelope";
import type { CollectionResult } from "./route";

type Where = Record<string, unknown>;

/**
 * Where the rows come from: a Prisma model delegate as it is (`db.product`, `db.apiKey`, …). The arguments are
 * built from the collection spec, which only names the model's own columns, so they are typed loosely here
 * once rather than cast at every call.
 */
export interface CollectionSource {
  findMany(args: any): Promise<unknown[]>;

  count(args: any): Promise<number>;
}

interface ListOptions<Row> {
  spec: CollectionSpec;
  query: CollectionQuery;
  /** Tenant scope: business, environment, parent resource. */
  baseWhere: Where;
  from: CollectionSource;
  /** The row's wire shape; a RawJson (its JSON text, made by the database) only when the query names no fields. */
  serialize: (row: Row) => Record<string, unknown> | RawJson;
}

function wireItem(item: Record<string, unknown> | RawJson, fields: CollectionQuery["fields"]) {
  if (!(item instanceof RawJson)) return pickFields(item, fields);
  if (fields) throw new Error("A list row given as JSON text cannot be narrowed to the requested fields.");
  return item;
}

function cursorValue(v: unknown): string | number {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number" || typeof v === "string") return v;
  return String(v);
}

/**
 * A cursor value as the column's type. A cursor is only base64 JSON, so a forged one may carry anything: a value
 * that does not fit its column is INVALID_CURSOR here, not an error from the database.
 */
function typedValue(value: string | number, type: string | undefined): string | number | Date {
  if (typeof value === "string" && value.includes("\0")) throw invalidCursor();
  if (type === "date") {
    const d = typeof value === "string" ? new Date(value) : null;
    if (!d || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1) throw invalidCursor();
    return d;
  }
  if (type === "number" && (typeof value !== "number" || !Number.isFinite(value))) throw invalidCursor();
  if (type === "integer" && (typeof value !== "number" || !Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX))
    throw invalidCursor();
  if ((type === "string" || type === "enum") && typeof value !== "string") throw invalidCursor();
  return value;
}

/** Rows strictly after the cursor in the sort order: (a > x) OR (a = x AND b > y) OR ... */
function keysetWhere(query: CollectionQuery, spec: CollectionSpec): Where | null {
  if (!query.cursor) return null;
  const values = query.cursor.values;
  if (values.length !== query.sort.length) throw invalidCursor();
  const typed = query.sort.map((s, i) =>
    typedValue(values[i], Object.hasOwn(spec.filters, s.field) ? spec.filters[s.field].type : undefined),
  );
  const ors: Where[] = [];
  for (let i = 0; i < query.sort.length; i++) {
    const and: Where[] = [];
    for (let j = 0; j < i; j++) and.push({ [query.sort[j].field]: typed[j] });
    and.push({ [query.sort[i].field]: { [query.sort[i].dir === "asc" ? "gt" : "lt"]: typed[i] } });
    ors.push({ AND: and });
  }
  // The OR alone makes the database scan the index from the start; a bound on the leading sort column lets it
  // start at the cursor, so a page at depth 100,000 costs about what the first page does.
  const lead = query.sort[0];
  return { AND: [{ [lead.field]: { [lead.dir === "asc" ? "gte" : "lte"]: typed[0] } }, { OR: ors }] };
}

export async function listCollection<Row>(o: ListOptions<Row>): Promise<CollectionResult> {
  const { query } = o;
  const filtered: Where = { AND: [o.baseWhere, ...query.filters] };
  const keyset = keysetWhere(query, o.spec);
  const [rows, total] = (await Promise.all([
    o.from.findMany({
      where: keyset ? { AND: [filtered, keyset] } : filtered,
      orderBy: query.sort.map((s) => ({ [s.field]: s.dir })),
      take: query.limit + 1,
      skip: query.cursor ? 0 : query.offset,
    }),
    o.from.count({ where: filtered }),
  ])) as [Row[], number];
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1) as Record<string, unknown> | undefined;
  return {
    data: page.map((row) => wireItem(o.serialize(row), query.fields)),
    pagination: {
      total,
      limit: query.limit,
      offset: query.cursor ? 0 : query.offset,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor({ sort: query.sortKey, values: query.sort.map((s) => cursorValue(last[s.field])), id: String(last.id) })
          : null,
    },
  };
}

type Sortable = string | number;

/** -1, 0 or 1 as a row's sort values come before, with or after another's in the query's order. */
function compareTuples(a: Sortable[], b: Sortable[], query: CollectionQuery): number {
  for (let i = 0; i < query.sort.length; i++) {
    if (a[i] === b[i]) continue;
    const asc = a[i] < b[i] ? -1 : 1;
    return query.sort[i].dir === "asc" ? asc : -asc;
  }
  return 0;
}

/**
 * A collection held in memory (a registry, or groups made in code from several rows) as one page of the spec's
 * envelope: sorted by the query's sort, after its cursor or from its offset, `limit` long. `valuesOf` gives a row's
 * value of each sortable field; `id` is the final tie-breaker, as in the database's lists.
 */
export function listInMemory<Row>(
  rows: Row[],
  query: CollectionQuery,
  valuesOf: (row: Row) => Record<string, Sortable> & { id: string },
): { data: Row[]; pagination: Pagination } {
  const tupleOf = (row: Row) => {
    const values = valuesOf(row);
    return query.sort.map((s) => values[s.field]);
  };
  const sorted = rows.map((row) => ({ row, tuple: tupleOf(row) })).sort((a, b) => compareTuples(a.tuple, b.tuple, query));
  let start = query.offset;
  if (query.cursor) {
    const after = query.cursor.values;
    if (after.length !== query.sort.length) throw invalidCursor();
    const index = sorted.findIndex((r) => compareTuples(r.tuple, after, query) > 0);
    start = index < 0 ? sorted.length : index;
  }
  const page = sorted.slice(start, start + query.limit);
  const hasMore = start + query.limit < sorted.length;
  const last = page.at(-1);
  return {
    data: page.map((r) => r.row),
    pagination: {
      total: sorted.length,
      limit: query.limit,
      offset: query.cursor ? 0 : query.offset,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ sort: query.sortKey, values: last.tuple, id: String(valuesOf(last.row).id) }) : null,
    },
  };
}
