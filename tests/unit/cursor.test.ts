// Opaque keyset cursors: what a page hands out comes back unchanged; anything else is INVALID_CURSOR.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors";
import { encodeCursor, decodeCursor, type CursorValue } from "@/lib/http/cursor";

const SORT = "-createdAt,-id";
const VALUE: CursorValue = { sort: SORT, values: ["2026-05-01T10:00:00.000Z", 42], id: "prod_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" };

function invalid(raw: string, sort = SORT): ApiError {
  try {
    decodeCursor(raw, sort);
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError, got ${e}`);
    assert.equal(e.status, 400);
    assert.equal(e.type, "validation_error");
    assert.equal(e.code, "INVALID_CURSOR");
    assert.equal(e.field, "cursor");
    return e;
  }
  assert.fail(`cursor '${raw.slice(0, 40)}' was accepted`);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), "utf8").toString("base64url");

test("a cursor round-trips to the same sort values and id", () => {
  const raw = encodeCursor(VALUE);
  assert.deepEqual(decodeCursor(raw, SORT), VALUE);
});

test("a cursor is URL-safe and does not show its contents in plain text", () => {
  const raw = encodeCursor(VALUE);
  assert.match(raw, /^[A-Za-z0-9_-]+$/);
  assert.equal(encodeURIComponent(raw), raw);
  assert.ok(!raw.includes("prod_"));
});

test("garbage is INVALID_CURSOR", () => {
  invalid("");
  invalid("!!!not base64!!!");
  invalid("abc def");
  invalid(Buffer.from("plain text, not json").toString("base64url"));
  invalid(b64(null));
  invalid(b64([1, 2, 3]));
});

test("a tampered cursor (truncated, or with its fields changed in type) is INVALID_CURSOR", () => {
  const raw = encodeCursor(VALUE);
  invalid(raw.slice(0, raw.length - 5));
  invalid(b64({ s: SORT, v: "2026-05-01", i: "prod_1" }));
  invalid(b64({ s: SORT, v: [{ $gt: "" }], i: "prod_1" }));
  invalid(b64({ s: SORT, v: [], i: 7 }));
  invalid(b64({ v: [], i: "prod_1" }));
});

test("an oversized cursor is refused before it is decoded", () => {
  invalid("A".repeat(2049));
  const padded = encodeCursor({ sort: SORT, values: ["x".repeat(3000)], id: "prod_1" });
  invalid(padded);
});

test("a cursor from another sort order is INVALID_CURSOR and says why", () => {
  const raw = encodeCursor(VALUE);
  const e = invalid(raw, "name,id");
  assert.match(e.message, /sort/);
});
