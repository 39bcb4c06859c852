import { ApiError, invalidParameter } from "./errors";
import { decodeCursor, type CursorValue } from "./cursor";

// The spec's collection query language, parsed once for every list route:
//   ?type=API,SaaS  ?createdAt[gte]=...  ?business.name=...  ?price[lt]=10  ?q=  ?limit=&offset=  ?cursor=
//   ?sort=-createdAt,name  ?fields=name,type | -description  ?expand=business

export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];
/** "integer": a whole-number column (Prisma Int, 32 bits in both databases); "number": a floating-point one. */
export type FieldType = "string" | "enum" | "boolean" | "date" | "number" | "integer";
export type FilterValue = string | number | boolean | Date;

export interface FilterField {
  type: FieldType;
  values?: readonly string[];
  /** Prisma where fragment for one filter; defaults to a plain column filter on the field's own name. */
  where?: (op: FilterOp, values: FilterValue[]) => Record<string, unknown>;
}

export interface CollectionSpec {
  filters: Record<string, FilterField>;
  /** Non-null columns a client may sort by (id is always the final tie-breaker). */
  sortable: string[];
  /** Names a client may pick with `fields`. */
  fields: string[];
  expand?: string[];
  /** Prisma where for the `q` terms (each term must match); absent when the resource has no text search. */
  search?: (terms: string[]) => Record<string, unknown>;
  /** Query parameters a route reads itself (not filters). */
  extraParams?: string[];
  /** Sort when the client names none (default -createdAt). */
  defaultSort?: string;
}

export interface SortKey {
  field: string;
  dir: "asc" | "desc";
}

export interface CollectionQuery {
  limit: number;
  offset: number;
  cursor: CursorValue | null;
  sort: SortKey[];
  sortKey: string;
  fields: { mode: "include" | "exclude"; names: Set<string> } | null;
  expand: Set<string>;
  q: string[];
  filters: Record<string, unknown>[];
}

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;
const MAX_OFFSET = 10_000_000;
const RESERVED = new Set(["limit", "offset", "cursor", "sort", "fields", "expand", "q", "api_key", "version", "api-version"]);
/** The range of Prisma's Int (SQLite's INTEGER is wider, PostgreSQL's integer is not): what an integer filter may hold. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
const PARAM = /^([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)?)(?:\[([a-z]+)\])?$/;

function integer(name: string, raw: string, min: number, max: number): number {
  if (!/^\d{1,9}$/.test(raw)) throw invalidParameter(name, `'${name}' must be a whole number from ${min} to ${max}.`);
  const n = Number(raw);
  if (n < min || n > max) throw invalidParameter(name, `'${name}' must be a whole number from ${min} to ${max}.`);
  return n;
}

function names(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function parseValue(field: string, def: FilterField, raw: string): FilterValue {
  switch (def.type) {
    case "number": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) throw invalidParameter(field, `'${field}' must be a number.`);
      return n;
    }
    case "integer": {
      // Beyond 32 bits (or a fraction) the database driver would refuse the query with a 500; refused here instead.
      const n = /^[+-]?\d{1,10}$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isInteger(n) || n < INT32_MIN || n > INT32_MAX) {
        throw invalidParameter(field, `'${field}' must be a whole number from ${INT32_MIN} to ${INT32_MAX}.`);
      }
      return n;
    }
    case "boolean":
      if (raw !== "true" && raw !== "false") throw invalidParameter(field, `'${field}' must be true or false.`);
      return raw === "true";
    case "date": {
      const t = Date.parse(raw);
      // Year 0 parses in JavaScript but PostgreSQL's timestamp has no year 0.
      if (!/^\d{4}-\d{2}-\d{2}/.test(raw) || Number.isNaN(t) || new Date(t).getUTCFullYear() < 1)
        throw invalidParameter(field, `'${field}' must be an ISO 8601 date such as 2026-01-31 or 2026-01-31T12:00:00Z.`);
      return new Date(t);
    }
    case "enum":
      if (!def.values!.includes(raw))
        throw invalidParameter(field, `'${raw}' is not a valid value for '${field}'.`, `Use one of: ${def.values!.join(", ")}.`);
      return raw;
    default:
      if (raw.length > 500) throw invalidParameter(field, `'${field}' is longer than 500 characters.`);
      return raw;
  }
}

export function columnWhere(column: string) {
  return (op: FilterOp, values: FilterValue[]): Record<string, unknown> => {
    // Prisma has no `in` / `notIn` on booleans: a list of them is spelt out.
    if (values.length > 1 && typeof values[0] === "boolean") {
      return op === "ne" ? { AND: values.map((v) => ({ [column]: { not: v } })) } : { OR: values.map((v) => ({ [column]: v })) };
    }
    if (op === "eq") return { [column]: values.length === 1 ? values[0] : { in: values } };
    if (op === "ne") return { [column]: values.length === 1 ? { not: values[0] } : { notIn: values } };
    return { [column]: { [op]: values[0] } };
  };
}

function parseFilter(spec: CollectionSpec, key: string, raw: string): Record<string, unknown> {
  const m = PARAM.exec(key);
  const field = m?.[1];
  // Own keys only: `constructor` or `toString` must not find Object.prototype's members.
  const def = field && Object.hasOwn(spec.filters, field) ? spec.filters[field] : undefined;
  if (!m || !def) {
    throw new ApiError({
      status: 400,
      type: "validation_error",
      code: "INVALID_FILTER",
      field: key.slice(0, 100),
      message: `'${key.slice(0, 100)}' is not a field you can filter on.`,
      suggestion: `Filter on one of: ${Object.keys(spec.filters).join(", ")}.`,
    });
  }
  const op = (m[2] ?? "eq") as FilterOp;
  if (!FILTER_OPS.includes(op))
    throw invalidParameter(key, `Unknown operator '${m[2]}'.`, `Use one of: ${FILTER_OPS.filter((o) => o !== "eq").join(", ")}.`);
  if ((op === "gt" || op === "gte" || op === "lt" || op === "lte") && (def.type === "boolean" || def.type === "enum")) {
    throw invalidParameter(key, `'${field}' cannot be compared with ${op}.`);
  }
  const parts = op === "eq" || op === "ne" ? raw.split(",") : [raw];
  if (parts.length > 100) throw invalidParameter(key, `At most 100 values may be listed for '${field}'.`);
  const values = parts.map((p) => parseValue(field!, def, p));
  return (def.where ?? columnWhere(field!))(op, values);
}

export function parseCollectionQuery(params: URLSearchParams, spec: CollectionSpec): CollectionQuery {
  // PostgreSQL cannot hold or compare text with NUL in it; refused here, before it reaches a query.
  for (const [key, value] of params) {
    if (key.includes("\0") || value.includes("\0"))
      throw invalidParameter(key.replace(/\0/g, "").slice(0, 100), "Query parameters must not contain NUL characters.");
  }
  const one = (name: string) => {
    const all = params.getAll(name);
    if (all.length > 1) throw invalidParameter(name, `'${name}' may be given only once.`);
    return all[0] ?? null;
  };
  const limit = one("limit") === null ? DEFAULT_LIMIT : integer("limit", one("limit")!, 1, MAX_LIMIT);
  const rawOffset = one("offset");
  const rawCursor = one("cursor");
  if (rawCursor !== null && rawOffset !== null) throw invalidParameter("cursor", "Use either 'cursor' or 'offset', not both.");
  const offset = rawOffset === null ? 0 : integer("offset", rawOffset, 0, MAX_OFFSET);

  const sortRaw = one("sort");
  const sort: SortKey[] = [];
  for (const name of names(sortRaw ?? spec.defaultSort ?? "-createdAt")) {
    const field = name.startsWith("-") ? name.slice(1) : name;
    if (!spec.sortable.includes(field))
      throw invalidParameter("sort", `Cannot sort by '${field.slice(0, 100)}'.`, `Sort by one of: ${spec.sortable.join(", ")}.`);
    if (sort.some((s) => s.field === field)) throw invalidParameter("sort", `'${field}' appears twice in 'sort'.`);
    sort.push({ field, dir: name.startsWith("-") ? "desc" : "asc" });
  }
  if (sort.length === 0) throw invalidParameter("sort", "'sort' names no field.");
  if (!sort.some((s) => s.field === "id")) sort.push({ field: "id", dir: sort[0].dir });
  const sortKey = sort.map((s) => (s.dir === "desc" ? "-" : "") + s.field).join(",");

  const fieldsRaw = one("fields");
  let fields: CollectionQuery["fields"] = null;
  if (fieldsRaw !== null) {
    const list = names(fieldsRaw);
    const excluding = list.filter((n) => n.startsWith("-"));
    if (list.length === 0 || (excluding.length && excluding.length !== list.length)) {
      throw invalidParameter("fields", "'fields' lists names to include, or names each prefixed with '-' to exclude, not both.");
    }
    const bare = list.map((n) => n.replace(/^-/, ""));
    // `id` may be named, though it is always kept.
    const unknown = bare.find((n) => n !== "id" && !spec.fields.includes(n));
    if (unknown) throw invalidParameter("fields", `Unknown field '${unknown.slice(0, 100)}'.`, `Choose from: ${spec.fields.join(", ")}.`);
    fields = { mode: excluding.length ? "exclude" : "include", names: new Set(bare) };
  }

  const expandRaw = one("expand");
  const expand = new Set(expandRaw === null ? [] : names(expandRaw));
  for (const e of expand) {
    if (!spec.expand?.includes(e))
      throw invalidParameter(
        "expand",
        `Cannot expand '${e.slice(0, 100)}'.`,
        spec.expand?.length ? `Expandable: ${spec.expand.join(", ")}.` : "This resource has nothing to expand.",
      );
  }

  const qRaw = one("q");
  let q: string[] = [];
  if (qRaw !== null) {
    if (!spec.search) throw invalidParameter("q", "This collection has no text search.");
    if (qRaw.length > 200) throw invalidParameter("q", "'q' is limited to 200 characters.");
    q = qRaw.toLowerCase().split(/\s+/).filter(Boolean).slice(0, 10);
  }

  const filters: Record<string, unknown>[] = [];
  for (const key of new Set(params.keys())) {
    if (RESERVED.has(key) || spec.extraParams?.includes(key)) continue;
    filters.push(parseFilter(spec, key, params.getAll(key).join(",")));
  }
  rejectInvertedRanges(params, spec);
  if (q.length) filters.push(spec.search!(q));

  return { limit, offset, cursor: rawCursor === null ? null : decodeCursor(rawCursor, sortKey), sort, sortKey, fields, expand, q, filters };
}

/** The first `limit` rows in the default order, as a list route's first page: what the portal's views read. */
export const firstPage = (spec: CollectionSpec, limit: number): CollectionQuery =>
  parseCollectionQuery(new URLSearchParams({ limit: String(limit) }), spec);

/** `createdAt[gte]=B&createdAt[lt]=A` with B after A can match nothing: a mistake worth a 400, not an empty page. */
function rejectInvertedRanges(params: URLSearchParams, spec: CollectionSpec): void {
  for (const [field, def] of Object.entries(spec.filters)) {
    if (def.type !== "date" && def.type !== "number" && def.type !== "integer") continue;
    const read = (op: string) => {
      const raw = params.get(`${field}[${op}]`);
      if (raw === null) return null;
      return def.type === "date" ? Date.parse(raw) : Number(raw);
    };
    const lower = [read("gte"), read("gt")].filter((v): v is number => v !== null);
    const upper = [read("lte"), read("lt")].filter((v): v is number => v !== null);
    if (lower.length && upper.length && Math.max(...lower) > Math.min(...upper)) {
      throw invalidParameter(field, `The range on '${field}' is inverted: its lower bound is after its upper bound.`);
    }
  }
}

/** `fields` applied to one serialised item; `id` is always kept. */
export function pickFields<T extends Record<string, unknown>>(item: T, fields: CollectionQuery["fields"]): Partial<T> {
  if (!fields) return item;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item)) {
    const listed = fields.names.has(k);
    if (k === "id" || (fields.mode === "include" ? listed : !listed)) out[k] = v;
  }
  return out as Partial<T>;
}
