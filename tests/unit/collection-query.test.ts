// The collection query language (limit, offset, cursor, sort, fields, expand, q, filters), parsed against the
// products collection the API really serves.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "@/lib/http/errors";
import { parseCollectionQuery, pickFields, DEFAULT_LIMIT, MAX_LIMIT, type CollectionSpec } from "@/lib/http/collection-query";
import { encodeCursor } from "@/lib/http/cursor";
import { PRODUCT_COLLECTION } from "@/lib/products/product-collection";

const parse = (qs: string, spec: CollectionSpec = PRODUCT_COLLECTION) => parseCollectionQuery(new URLSearchParams(qs), spec);

function rejects(qs: string, code: string, field?: string, spec?: CollectionSpec): ApiError {
  try {
    parse(qs, spec);
  } catch (e) {
    assert.ok(e instanceof ApiError, `expected an ApiError for '${qs}', got ${e}`);
    assert.equal(e.status, 400, `${qs}: ${e.message}`);
    assert.equal(e.type, "validation_error");
    assert.equal(e.code, code, `${qs}: ${e.message}`);
    if (field !== undefined) assert.equal(e.field, field, qs);
    return e;
  }
  assert.fail(`expected '${qs}' to be refused with ${code}`);
}

const NO_SEARCH: CollectionSpec = { filters: { name: { type: "string" } }, sortable: ["createdAt", "id"], fields: ["name"] };

test("limit defaults to 10, accepts 1..100 and refuses anything else naming the field", () => {
  assert.equal(DEFAULT_LIMIT, 10);
  assert.equal(MAX_LIMIT, 100);
  assert.equal(parse("").limit, 10);
  assert.equal(parse("limit=1").limit, 1);
  assert.equal(parse("limit=100").limit, 100);
  for (const bad of ["0", "101", "1.5", "abc", "-1", "", "1e2"]) rejects(`limit=${encodeURIComponent(bad)}`, "INVALID_PARAMETER", "limit");
  rejects("limit=5&limit=6", "INVALID_PARAMETER", "limit");
});

test("offset defaults to 0, takes whole numbers and refuses negatives and fractions", () => {
  assert.equal(parse("").offset, 0);
  assert.equal(parse("offset=25").offset, 25);
  for (const bad of ["-1", "2.5", "x"]) rejects(`offset=${bad}`, "INVALID_PARAMETER", "offset");
});

test("cursor together with offset is a 400", () => {
  const cursor = encodeCursor({ sort: "-createdAt,-id", values: ["2026-01-01T00:00:00.000Z"], id: "prod_X" });
  assert.equal(parse(`cursor=${cursor}`).cursor?.id, "prod_X");
  rejects(`cursor=${cursor}&offset=0`, "INVALID_PARAMETER", "cursor");
});

test("a cursor from another sort order, or garbage, is INVALID_CURSOR", () => {
  const cursor = encodeCursor({ sort: "-createdAt,-id", values: ["2026-01-01T00:00:00.000Z"], id: "prod_X" });
  rejects(`sort=name&cursor=${cursor}`, "INVALID_CURSOR", "cursor");
  rejects("cursor=not-a-cursor", "INVALID_CURSOR", "cursor");
});

test("default order is newest first with id as the tie-breaker", () => {
  const q = parse("");
  assert.deepEqual(q.sort, [
    { field: "createdAt", dir: "desc" },
    { field: "id", dir: "desc" },
  ]);
  assert.equal(q.sortKey, "-createdAt,-id");
});

test("sort reads comma-separated names, '-' for descending, and appends id in the first key's direction", () => {
  assert.deepEqual(parse("sort=name").sort, [
    { field: "name", dir: "asc" },
    { field: "id", dir: "asc" },
  ]);
  assert.deepEqual(parse("sort=-name,createdAt").sort, [
    { field: "name", dir: "desc" },
    { field: "createdAt", dir: "asc" },
    { field: "id", dir: "desc" },
  ]);
  assert.equal(parse("sort=-name,createdAt").sortKey, "-name,createdAt,-id");
  // id named explicitly is not appended twice.
  assert.deepEqual(parse("sort=id").sort, [{ field: "id", dir: "asc" }]);
});

test("sort by an unknown or repeated field, or by nothing, is a 400 on sort", () => {
  const e = rejects("sort=price", "INVALID_PARAMETER", "sort");
  assert.match(e.suggestion ?? "", /createdAt/);
  rejects("sort=name,-name", "INVALID_PARAMETER", "sort");
  rejects("sort=,", "INVALID_PARAMETER", "sort");
});

test("fields includes or excludes names, but not both", () => {
  const inc = parse("fields=name,type").fields;
  assert.equal(inc?.mode, "include");
  assert.deepEqual([...inc!.names], ["name", "type"]);
  const exc = parse("fields=-description,-industries").fields;
  assert.equal(exc?.mode, "exclude");
  assert.deepEqual([...exc!.names], ["description", "industries"]);
  assert.equal(parse("").fields, null);
  rejects("fields=name,-type", "INVALID_PARAMETER", "fields");
  rejects("fields=", "INVALID_PARAMETER", "fields");
  rejects("fields=password", "INVALID_PARAMETER", "fields");
  rejects("fields=constructor", "INVALID_PARAMETER", "fields");
});

test("fields may name id, which is always kept anyway", () => {
  const f = parse("fields=id,name").fields;
  assert.equal(f?.mode, "include");
  assert.deepEqual(pickFields({ id: "prod_1", name: "n", type: "API" }, f), { id: "prod_1", name: "n" });
});

test("expand accepts the collection's relations only", () => {
  assert.deepEqual([...parse("expand=business").expand], ["business"]);
  assert.equal(parse("").expand.size, 0);
  const e = rejects("expand=owner", "INVALID_PARAMETER", "expand");
  assert.match(e.suggestion ?? "", /business/);
});

test("q is lower-cased and split into words that all must match", () => {
  const q = parse(`q=${encodeURIComponent("  Weather   API ")}`);
  assert.deepEqual(q.q, ["weather", "api"]);
  assert.deepEqual(q.filters.at(-1), { AND: [{ searchText: { contains: "weather" } }, { searchText: { contains: "api" } }] });
  assert.equal(parse(`q=${"w ".repeat(30)}`).q.length, 10);
  rejects(`q=${"x".repeat(201)}`, "INVALID_PARAMETER", "q");
  rejects("q=anything", "INVALID_PARAMETER", "q", NO_SEARCH);
});

test("a plain filter is an equality; a comma list is an OR (in)", () => {
  assert.deepEqual(parse("type=API").filters, [{ type: "API" }]);
  assert.deepEqual(parse("type=API,SaaS").filters, [{ type: { in: ["API", "SaaS"] } }]);
  // The same parameter repeated reads as one list.
  assert.deepEqual(parse("type=API&type=Data").filters, [{ type: { in: ["API", "Data"] } }]);
  assert.deepEqual(parse("isActive=false").filters, [{ isActive: false }]);
  assert.deepEqual(parse("business.name=Acme").filters, [{ business: { name: "Acme" } }]);
});

test("comparison operators map to the matching where clauses", () => {
  const date = new Date("2026-01-01T00:00:00Z");
  assert.deepEqual(parse("createdAt[gte]=2026-01-01").filters, [{ createdAt: { gte: date } }]);
  assert.deepEqual(parse("createdAt[gt]=2026-01-01T00:00:00Z").filters, [{ createdAt: { gt: date } }]);
  assert.deepEqual(parse("createdAt[lte]=2026-01-01").filters, [{ createdAt: { lte: date } }]);
  assert.deepEqual(parse("price[lt]=10").filters, [{ prices: { some: { amount: { lt: 10 } } } }]);
  assert.deepEqual(parse("type[ne]=API").filters, [{ type: { not: "API" } }]);
  assert.deepEqual(parse("type[ne]=API,SaaS").filters, [{ type: { notIn: ["API", "SaaS"] } }]);
  // Two bounds on one field are two filters (both apply).
  assert.equal(parse("createdAt[gte]=2026-01-01&createdAt[lt]=2026-02-01").filters.length, 2);
});

test("a filter on an unknown field is INVALID_FILTER naming the field", () => {
  const e = rejects("color=red", "INVALID_FILTER", "color");
  assert.match(e.message, /color/);
  assert.match(e.suggestion ?? "", /type/);
  rejects("secret[gte]=1", "INVALID_FILTER", "secret[gte]");
  rejects("name[gte", "INVALID_FILTER");
});

test("names of Object.prototype are unknown filter fields, not filters", () => {
  for (const key of ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf[gte]"]) rejects(`${key}=x`, "INVALID_FILTER", key);
});

test("an unknown operator, or ordering on an enum or boolean, is a 400", () => {
  const e = rejects("name[like]=x", "INVALID_PARAMETER", "name[like]");
  assert.match(e.message, /like/);
  rejects("type[gt]=API", "INVALID_PARAMETER", "type[gt]");
  rejects("isActive[lt]=true", "INVALID_PARAMETER", "isActive[lt]");
});

test("filter values must fit the field's type", () => {
  rejects("createdAt[gte]=yesterday", "INVALID_PARAMETER", "createdAt");
  rejects("createdAt[gte]=2026-13-45", "INVALID_PARAMETER", "createdAt");
  rejects("price[lt]=ten", "INVALID_PARAMETER", "price");
  rejects("price[lt]=", "INVALID_PARAMETER", "price");
  rejects("isActive=yes", "INVALID_PARAMETER", "isActive");
  const e = rejects("type=Widget", "INVALID_PARAMETER", "type");
  assert.match(e.suggestion ?? "", /SaaS, API, Data, Headless/);
  rejects("type=API,Widget", "INVALID_PARAMETER", "type");
});

test("the version and api_key query parameters are not read as filters", () => {
  assert.deepEqual(parse("api_key=sk_test_x&version=v1&api-version=v1").filters, []);
});

test("pickFields applies include and exclude to an item and always keeps id", () => {
  const item = { id: "prod_1", name: "Weather", type: "API", description: "d" };
  assert.deepEqual(pickFields(item, parse("fields=name").fields), { id: "prod_1", name: "Weather" });
  assert.deepEqual(pickFields(item, parse("fields=-description,-type").fields), { id: "prod_1", name: "Weather" });
  assert.deepEqual(pickFields(item, null), item);
});
