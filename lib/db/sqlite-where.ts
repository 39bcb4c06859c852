import { toSqliteDate } from "./sqlite-direct";

// A Prisma `where` (the subset the collection rules build: equality, in/notIn, not, ranges, contains, AND/OR over a
// model's own columns) as SQLite SQL with `?` parameters, for list pages read on the plain connection. Anything
// outside the subset (a relation filter, a NOT, an unknown operator) answers null and the caller asks Prisma.

export interface SqlFragment {
  sql: string;
  params: unknown[];
}

export interface TableShape {
  alias: string;
  columns: ReadonlySet<string>;
  /** Columns that may hold NULL: `not`/`notIn` on them are left to Prisma (its NULL handling differs from SQL's). */
  nullable: ReadonlySet<string>;
}

const value = (v: unknown): unknown => (v instanceof Date ? toSqliteDate(v) : typeof v === "boolean" ? (v ? 1 : 0) : v);
const isScalar = (v: unknown) => v === null || v instanceof Date || ["string", "number", "boolean"].includes(typeof v);

function columnCondition(col: string, cond: unknown, shape: TableShape): SqlFragment | null {
  const c = `${shape.alias}."${col}"`;
  if (isScalar(cond)) return cond === null ? { sql: `${c} IS NULL`, params: [] } : { sql: `${c} = ?`, params: [value(cond)] };
  if (typeof cond !== "object" || Array.isArray(cond)) return null;
  const parts: SqlFragment[] = [];
  for (const [op, v] of Object.entries(cond as Record<string, unknown>)) {
    const comparison = { gt: ">", gte: ">=", lt: "<", lte: "<=" }[op];
    if (comparison && isScalar(v) && v !== null) parts.push({ sql: `${c} ${comparison} ?`, params: [value(v)] });
    else if (op === "equals" && isScalar(v)) parts.push(columnCondition(col, v, shape)!);
    else if (op === "in" && Array.isArray(v) && v.length > 0 && v.every((x) => isScalar(x) && x !== null))
      parts.push({ sql: `${c} IN (${v.map(() => "?").join(", ")})`, params: v.map(value) });
    else if (op === "not" && isScalar(v) && v !== null && !shape.nullable.has(col)) parts.push({ sql: `${c} <> ?`, params: [value(v)] });
    else if (op === "notIn" && Array.isArray(v) && v.length > 0 && !shape.nullable.has(col) && v.every((x) => isScalar(x) && x !== null))
      parts.push({ sql: `${c} NOT IN (${v.map(() => "?").join(", ")})`, params: v.map(value) });
    else if (op === "contains" && typeof v === "string") parts.push({ sql: `${c} LIKE '%' || ? || '%'`, params: [v] });
    else return null;
  }
  return join(parts, "AND");
}

function join(parts: SqlFragment[], op: "AND" | "OR"): SqlFragment {
  if (parts.length === 0) return { sql: op === "AND" ? "1 = 1" : "1 = 0", params: [] };
  if (parts.length === 1) return parts[0];
  return { sql: parts.map((p) => `(${p.sql})`).join(` ${op} `), params: parts.flatMap((p) => p.params) };
}

export function sqliteWhere(where: unknown, shape: TableShape): SqlFragment | null {
  if (where === undefined || where === null) return { sql: "1 = 1", params: [] };
  if (typeof where !== "object" || Array.isArray(where)) return null;
  const parts: SqlFragment[] = [];
  for (const [key, cond] of Object.entries(where as Record<string, unknown>)) {
    if (key === "AND" || key === "OR") {
      const list = Array.isArray(cond) ? cond : [cond];
      const inner = list.map((w) => sqliteWhere(w, shape));
      if (inner.some((f) => f === null)) return null;
      parts.push(join(inner as SqlFragment[], key));
    } else if (shape.columns.has(key)) {
      const f = columnCondition(key, cond, shape);
      if (!f) return null;
      parts.push(f);
    } else return null;
  }
  return join(parts, "AND");
}

/** `orderBy: [{ createdAt: "desc" }, { id: "desc" }]` as SQL, or null for anything but own columns. */
export function sqliteOrderBy(orderBy: unknown, shape: TableShape): string | null {
  const list = Array.isArray(orderBy) ? orderBy : orderBy ? [orderBy] : [];
  const parts: string[] = [];
  for (const o of list) {
    const entries = Object.entries(o as Record<string, unknown>);
    if (entries.length !== 1) return null;
    const [col, dir] = entries[0];
    if (!shape.columns.has(col) || (dir !== "asc" && dir !== "desc")) return null;
    parts.push(`${shape.alias}."${col}" ${dir.toUpperCase()}`);
  }
  return parts.length ? `ORDER BY ${parts.join(", ")}` : "";
}
