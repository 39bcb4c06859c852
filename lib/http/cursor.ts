import { ApiError } from "./errors";

// Opaque keyset cursors: base64url JSON of the last row's sort values and id, plus the sort they belong to.
// A keyset (not an offset) is what keeps pages stable while rows are inserted, and deep pages fast.

export interface CursorValue {
  sort: string;
  values: (string | number)[];
  id: string;
}

export function encodeCursor(c: CursorValue): string {
  return Buffer.from(JSON.stringify({ s: c.sort, v: c.values, i: c.id }), "utf8").toString("base64url");
}

export const invalidCursor = (message = "The cursor is not valid. Use pagination.nextCursor from a previous page unchanged.") =>
  new ApiError({ status: 400, type: "validation_error", code: "INVALID_CURSOR", field: "cursor", message });

export function decodeCursor(raw: string, sort: string): CursorValue {
  if (raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  const p = parsed as { s?: unknown; v?: unknown; i?: unknown };
  if (
    !p ||
    typeof p !== "object" ||
    typeof p.s !== "string" ||
    typeof p.i !== "string" ||
    !Array.isArray(p.v) ||
    !p.v.every((x) => typeof x === "string" || typeof x === "number")
  )
    throw invalidCursor();
  if (p.s !== sort)
    throw invalidCursor(
      "The cursor belongs to another sort order. Repeat the same `sort` as the first page, or start again without a cursor.",
    );
  return { sort: p.s, values: p.v as (string | number)[], id: p.i };
}
