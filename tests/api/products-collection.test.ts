// GET /v1/products as a collection: paging (offset and cursor), filters, q, sort, fields, expand, and the
// pagination block's values.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { seedBusiness, createProduct, collectAll, expectError, type ApiClient } from "../helpers/api";
import { db } from "../helpers/db";

/** n products created one after another; returns their ids oldest first. */
async function createMany(api: ApiClient, n: number, name = (i: number) => `Item ${String(i).padStart(3, "0")}`) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await createProduct(api, { name: name(i) })).id);
  return ids;
}

const ids = (res: { body: any }) => res.body.data.map((p: { id: string }) => p.id);

test("the default page is 10 products, newest first, with correct pagination", async () => {
  const biz = await seedBusiness("enterprise");
  const created = await createMany(biz.test, 12);
  const res = await biz.test.get("/v1/products");
  assert.equal(res.status, 200);
  assert.deepEqual(ids(res), created.slice().reverse().slice(0, 10));
  const pg = res.body.pagination;
  assert.equal(pg.total, 12);
  assert.equal(pg.limit, 10);
  assert.equal(pg.offset, 0);
  assert.equal(pg.hasMore, true);
  assert.equal(typeof pg.nextCursor, "string");
  assert.ok(pg.nextCursor.length > 0);
  assert.equal(typeof res.body.meta.requestId, "string");
});

test("an empty collection has total 0, hasMore false and no cursor", async () => {
  const biz = await seedBusiness("enterprise");
  const res = await biz.test.get("/v1/products");
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data, []);
  assert.deepEqual(res.body.pagination, { total: 0, limit: 10, offset: 0, hasMore: false, nextCursor: null });
});

test("limit and offset page through the newest-first order", async () => {
  const biz = await seedBusiness("enterprise");
  const newest = (await createMany(biz.test, 7)).reverse();
  const a = await biz.test.get("/v1/products?limit=3");
  assert.deepEqual(ids(a), newest.slice(0, 3));
  assert.equal(a.body.pagination.hasMore, true);
  const b = await biz.test.get("/v1/products?limit=3&offset=3");
  assert.deepEqual(ids(b), newest.slice(3, 6));
  assert.equal(b.body.pagination.offset, 3);
  assert.equal(b.body.pagination.hasMore, true);
  const c = await biz.test.get("/v1/products?limit=3&offset=6");
  assert.deepEqual(ids(c), newest.slice(6));
  assert.equal(c.body.pagination.hasMore, false);
  assert.equal(c.body.pagination.nextCursor, null);
  assert.equal(c.body.pagination.total, 7);
  const past = await biz.test.get("/v1/products?offset=50");
  assert.deepEqual(past.body.data, []);
  assert.equal(past.body.pagination.total, 7);
  assert.equal(past.body.pagination.hasMore, false);
  const exact = await biz.test.get("/v1/products?limit=7");
  assert.equal(exact.body.data.length, 7);
  assert.equal(exact.body.pagination.hasMore, false);
  assert.equal(exact.body.pagination.nextCursor, null);
  const max = await biz.test.get("/v1/products?limit=100");
  assert.equal(max.status, 200);
  assert.equal(max.body.pagination.limit, 100);
});

test("limit outside 1..100 or not a number is 400 INVALID_PARAMETER on limit", async () => {
  const biz = await seedBusiness("enterprise");
  for (const bad of ["0", "101", "abc", "-1", "1.5", "", "1e2"]) {
    const err = expectError(await biz.test.get(`/v1/products?limit=${bad}`), 400, "INVALID_PARAMETER");
    assert.equal(err.type, "validation_error");
    assert.equal(err.field, "limit", `limit=${bad}`);
  }
  const err = expectError(await biz.test.get("/v1/products?offset=-5"), 400, "INVALID_PARAMETER");
  assert.equal(err.field, "offset");
});

test("following nextCursor visits every product once, in order", async () => {
  const biz = await seedBusiness("enterprise");
  const created = await createMany(biz.test, 23);
  const walk = await collectAll(biz.test, "/v1/products?limit=5");
  assert.deepEqual(walk.ids, created.slice().reverse());
  assert.equal(walk.pages.length, 5);
  assert.deepEqual(
    walk.pages.map((p) => p.data.length),
    [5, 5, 5, 5, 3],
  );
  for (const page of walk.pages) {
    assert.equal(page.pagination.total, 23);
    assert.equal(page.pagination.offset, 0);
  }
  assert.equal(walk.pages.at(-1).pagination.nextCursor, null);
});

test("a cursor stays stable when products are created between pages", async () => {
  const biz = await seedBusiness("enterprise");
  const created = await createMany(biz.test, 12);
  const first = await biz.test.get("/v1/products?limit=5");
  assert.deepEqual(ids(first), created.slice().reverse().slice(0, 5));
  // New products arrive while the client is paging.
  const inserted = await createMany(biz.test, 4, (i) => `Late ${i}`);
  const seen = [...ids(first)];
  let cursor = first.body.pagination.nextCursor;
  while (cursor) {
    const page = await biz.test.get(`/v1/products?limit=5&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(page.status, 200);
    seen.push(...ids(page));
    cursor = page.body.pagination.nextCursor;
  }
  assert.deepEqual(seen, created.slice().reverse(), "every original row once, in order");
  for (const id of inserted) assert.ok(!seen.includes(id), "rows created after page 1 do not appear later");
  // A fresh walk sees the new ones first.
  const fresh = await collectAll(biz.test, "/v1/products?limit=5");
  assert.deepEqual(fresh.ids, [...inserted.slice().reverse(), ...created.slice().reverse()]);
});

test("a cursor with sort=name walks every product once when rows are added mid-walk", async () => {
  const biz = await seedBusiness("enterprise");
  const names = ["delta", "alpha", "hotel", "charlie", "golf", "bravo", "foxtrot", "echo", "india"];
  const byName = new Map<string, string>();
  for (const n of names) byName.set(n, (await createProduct(biz.test, { name: n })).id);
  const first = await biz.test.get("/v1/products?sort=name&limit=4");
  assert.deepEqual(
    first.body.data.map((p: any) => p.name),
    ["alpha", "bravo", "charlie", "delta"],
  );
  // One row sorts before the cursor (must not appear), one after it.
  await createProduct(biz.test, { name: "aardvark" });
  await createProduct(biz.test, { name: "zulu" });
  const seen = first.body.data.map((p: any) => p.name);
  let cursor = first.body.pagination.nextCursor;
  while (cursor) {
    const page = await biz.test.get(`/v1/products?sort=name&limit=4&cursor=${encodeURIComponent(cursor)}`);
    assert.equal(page.status, 200);
    seen.push(...page.body.data.map((p: any) => p.name));
    cursor = page.body.pagination.nextCursor;
  }
  assert.deepEqual(seen, ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "zulu"]);
});

test("products with equal sort values are neither repeated nor skipped across cursor pages", async () => {
  const biz = await seedBusiness("enterprise");
  const created = await createMany(biz.test, 9, () => "same name");
  const walk = await collectAll(biz.test, "/v1/products?sort=name&limit=2");
  assert.equal(walk.ids.length, 9);
  assert.deepEqual(walk.ids.slice().sort(), created.slice().sort());
  const desc = await collectAll(biz.test, "/v1/products?sort=-name&limit=4");
  assert.deepEqual(desc.ids.slice().sort(), created.slice().sort());
});

test("a malformed cursor is 400 INVALID_CURSOR", async () => {
  const biz = await seedBusiness("enterprise");
  await createMany(biz.test, 3);
  const forged = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const bad = [
    "garbage!!",
    "abc",
    "%00",
    "x".repeat(3000),
    forged({ hello: "world" }),
    forged({ s: "-createdAt,-id", v: "nope", i: "x" }),
    // Forged cursors of the right sort but with values that do not fit it.
    forged({ s: "-createdAt,-id", v: ["not a date", "prod_x"], i: "prod_x" }),
    forged({ s: "-createdAt,-id", v: [1e300, 5], i: "prod_x" }),
    forged({ s: "-createdAt,-id", v: [], i: "prod_x" }),
    forged({ s: "-createdAt,-id", v: ["2026-01-01T00:00:00.000Z"], i: "prod_x" }),
    forged({ s: "name,id", v: [5, "prod_x"], i: "prod_x" }),
  ];
  for (const c of bad) {
    const sort = c === bad.at(-1) ? "&sort=name" : "";
    const err = expectError(await biz.test.get(`/v1/products?cursor=${encodeURIComponent(c)}${sort}`), 400, "INVALID_CURSOR");
    assert.equal(err.type, "validation_error");
  }
});

test("a cursor used with another sort is 400 INVALID_CURSOR", async () => {
  const biz = await seedBusiness("enterprise");
  await createMany(biz.test, 4);
  const first = await biz.test.get("/v1/products?limit=2");
  const cursor = encodeURIComponent(first.body.pagination.nextCursor);
  expectError(await biz.test.get(`/v1/products?limit=2&sort=name&cursor=${cursor}`), 400, "INVALID_CURSOR");
  expectError(await biz.test.get(`/v1/products?limit=2&sort=createdAt&cursor=${cursor}`), 400, "INVALID_CURSOR");
  // The same sort written out explicitly is the same sort.
  assert.equal((await biz.test.get(`/v1/products?limit=2&sort=-createdAt&cursor=${cursor}`)).status, 200);
});

test("cursor together with offset is 400 INVALID_PARAMETER", async () => {
  const biz = await seedBusiness("enterprise");
  await createMany(biz.test, 3);
  const first = await biz.test.get("/v1/products?limit=1");
  const err = expectError(
    await biz.test.get(`/v1/products?offset=1&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`),
    400,
    "INVALID_PARAMETER",
  );
  assert.equal(err.type, "validation_error");
});

test("type filter: exact match, and a comma list is OR", async () => {
  const biz = await seedBusiness("enterprise");
  const api = await createProduct(biz.test, { name: "a", type: "API" });
  const saas = await createProduct(biz.test, { name: "b", type: "SaaS" });
  const data = await createProduct(biz.test, { name: "c", type: "Data" });
  const one = await biz.test.get("/v1/products?type=API");
  assert.deepEqual(ids(one), [api.id]);
  assert.equal(one.body.pagination.total, 1);
  const two = await biz.test.get("/v1/products?type=API,SaaS");
  assert.deepEqual(ids(two).sort(), [api.id, saas.id].sort());
  assert.equal(two.body.pagination.total, 2);
  assert.deepEqual(ids(await biz.test.get("/v1/products?type[ne]=Data")).sort(), [api.id, saas.id].sort());
  assert.deepEqual(ids(await biz.test.get("/v1/products?type=Headless")), []);
  assert.ok(!ids(two).includes(data.id));
});

test("isActive filter", async () => {
  const biz = await seedBusiness("enterprise");
  const on = await createProduct(biz.test, { name: "on" });
  const off = await createProduct(biz.test, { name: "off", isActive: false });
  assert.deepEqual(ids(await biz.test.get("/v1/products?isActive=false")), [off.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?isActive=true")), [on.id]);
  const err = expectError(await biz.test.get("/v1/products?isActive=maybe"), 400, "INVALID_PARAMETER");
  assert.equal(err.field, "isActive");
});

test("createdAt[gte] and createdAt[lt] split the products at a moment", async () => {
  const biz = await seedBusiness("enterprise");
  const early: string[] = [];
  for (let i = 0; i < 2; i++) {
    early.push((await createProduct(biz.test, { name: `early ${i}` })).id);
    await sleep(15);
  }
  const pivot = await createProduct(biz.test, { name: "pivot" });
  await sleep(15);
  const late = (await createProduct(biz.test, { name: "late" })).id;
  const at = encodeURIComponent(pivot.createdAt);
  const gte = await biz.test.get(`/v1/products?createdAt[gte]=${at}`);
  assert.deepEqual(ids(gte), [late, pivot.id]);
  const lt = await biz.test.get(`/v1/products?createdAt[lt]=${at}`);
  assert.deepEqual(ids(lt), early.slice().reverse());
  const both = await biz.test.get(
    `/v1/products?createdAt[gte]=${encodeURIComponent(pivot.createdAt)}&createdAt[lt]=${encodeURIComponent(new Date(Date.parse(pivot.createdAt) + 1).toISOString())}`,
  );
  assert.deepEqual(ids(both), [pivot.id]);
  assert.equal((await biz.test.get("/v1/products?createdAt[gte]=2000-01-01")).body.pagination.total, 4);
  assert.equal((await biz.test.get("/v1/products?createdAt[lt]=2000-01-01")).body.pagination.total, 0);
  const err = expectError(await biz.test.get("/v1/products?createdAt[gte]=yesterday"), 400, "INVALID_PARAMETER");
  assert.equal(err.field, "createdAt");
});

test("name[ne] excludes the named product", async () => {
  const biz = await seedBusiness("enterprise");
  const a = await createProduct(biz.test, { name: "alpha" });
  const b = await createProduct(biz.test, { name: "beta" });
  const c = await createProduct(biz.test, { name: "gamma" });
  assert.deepEqual(ids(await biz.test.get("/v1/products?name[ne]=beta")), [c.id, a.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?name=beta")), [b.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?name[ne]=alpha,gamma")), [b.id]);
});

test("business.name filters on the owning business's name", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const name = (await biz.test.get(`/v1/products/${p.id}?expand=business`)).body.data.business.name;
  assert.equal(typeof name, "string");
  assert.deepEqual(ids(await biz.test.get(`/v1/products?business.name=${encodeURIComponent(name)}`)), [p.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?business.name=Somebody%20else")), []);
});

test("price[lt]=N lists products with a price whose amount is below N, each once", async () => {
  const biz = await seedBusiness("enterprise");
  const cheap = await createProduct(biz.test, { name: "cheap" });
  const dear = await createProduct(biz.test, { name: "dear" });
  const mixed = await createProduct(biz.test, { name: "mixed" });
  const free = await createProduct(biz.test, { name: "no prices" });
  const price = (id: string, amount: number) =>
    biz.test.post(`/v1/products/${id}/prices`, { name: `at ${amount}`, type: "usage", currency: "USD", amount });
  for (const [id, amount] of [
    [cheap.id, 5],
    [dear.id, 50],
    [mixed.id, 1],
    [mixed.id, 2],
    [mixed.id, 100],
  ] as const) {
    assert.equal((await price(id, amount)).status, 201);
  }
  const under10 = await biz.test.get("/v1/products?price[lt]=10");
  assert.deepEqual(ids(under10).sort(), [cheap.id, mixed.id].sort());
  assert.equal(under10.body.pagination.total, 2);
  assert.deepEqual(ids(await biz.test.get("/v1/products?price[lt]=1")), []);
  assert.deepEqual(ids(await biz.test.get("/v1/products?price[gte]=50")).sort(), [dear.id, mixed.id].sort());
  assert.ok(!ids(await biz.test.get("/v1/products?price[lt]=1000")).includes(free.id));
  expectError(await biz.test.get("/v1/products?price[lt]=cheap"), 400, "INVALID_PARAMETER");
});

test("q searches name and description, case-insensitively, every term", async () => {
  const biz = await seedBusiness("enterprise");
  const weather = await createProduct(biz.test, { name: "Weather Forecast", description: "Global METEO data" });
  const maps = await createProduct(biz.test, { name: "Maps", description: "Tiles for weather dashboards" });
  await createProduct(biz.test, { name: "Payments", description: "Cards and wallets" });
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=weather")).sort(), [weather.id, maps.id].sort());
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=WEATHER")).sort(), [weather.id, maps.id].sort());
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=meteo")), [weather.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=weather%20tiles")), [maps.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=blockchain")), []);
  assert.equal((await biz.test.get("/v1/products?q=FORECAST&type=API")).body.pagination.total, 1);
});

test("q matches % and _ literally", async () => {
  const biz = await seedBusiness("enterprise");
  const pct = await createProduct(biz.test, { name: "Save 50% today" });
  await createProduct(biz.test, { name: "Save 500 today" });
  const under = await createProduct(biz.test, { name: "snake_case tools" });
  await createProduct(biz.test, { name: "snakeXcase tools" });
  const back = await createProduct(biz.test, { name: "path\\to\\file" });
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=50%25")), [pct.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=%25")), [pct.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=snake_case")), [under.id]);
  assert.deepEqual(ids(await biz.test.get("/v1/products?q=_")), [under.id]);
  assert.deepEqual(ids(await biz.test.get(`/v1/products?q=${encodeURIComponent("\\")}`)), [back.id]);
  assert.deepEqual(ids(await biz.test.get(`/v1/products?q=${encodeURIComponent("h\\t")}`)), [back.id]);
});

test("an unknown filter field is 400 INVALID_FILTER naming the field", async () => {
  const biz = await seedBusiness("enterprise");
  for (const field of ["color", "foo[gte]", "constructor", "toString", "business.plan", "a.b.c"]) {
    const err = expectError(await biz.test.get(`/v1/products?${field}=x`), 400, "INVALID_FILTER");
    assert.equal(err.type, "validation_error");
    assert.equal(err.field, field);
    assert.ok(err.message.includes(field), err.message);
  }
});

test("a bad enum value in a filter is 400 INVALID_PARAMETER with a suggestion", async () => {
  const biz = await seedBusiness("enterprise");
  for (const q of ["type=Robot", "type=API,Robot", "type=api"]) {
    const err = expectError(await biz.test.get(`/v1/products?${q}`), 400, "INVALID_PARAMETER");
    assert.equal(err.field, "type");
    for (const t of ["SaaS", "API", "Data", "Headless"]) assert.ok(err.suggestion?.includes(t), err.suggestion);
  }
  const op = expectError(await biz.test.get("/v1/products?name[like]=x"), 400, "INVALID_PARAMETER");
  assert.equal(op.field, "name[like]");
  expectError(await biz.test.get("/v1/products?type[gt]=API"), 400, "INVALID_PARAMETER");
});

test("sort=name and sort=-name order by name", async () => {
  const biz = await seedBusiness("enterprise");
  for (const n of ["charlie", "alpha", "echo", "bravo", "delta"]) await createProduct(biz.test, { name: n });
  const asc = await biz.test.get("/v1/products?sort=name");
  assert.deepEqual(
    asc.body.data.map((p: any) => p.name),
    ["alpha", "bravo", "charlie", "delta", "echo"],
  );
  const desc = await biz.test.get("/v1/products?sort=-name");
  assert.deepEqual(
    desc.body.data.map((p: any) => p.name),
    ["echo", "delta", "charlie", "bravo", "alpha"],
  );
  const oldest = await biz.test.get("/v1/products?sort=createdAt&limit=1");
  assert.equal(oldest.body.data[0].name, "charlie");
});

test("sort on an unknown field is 400 INVALID_PARAMETER on sort", async () => {
  const biz = await seedBusiness("enterprise");
  for (const s of ["color", "-color", "name,color", "", "name,name"]) {
    const err = expectError(await biz.test.get(`/v1/products?sort=${s}`), 400, "INVALID_PARAMETER");
    assert.equal(err.field, "sort", `sort=${s}`);
  }
});

test("fields picks or drops keys of each item; id is always kept", async () => {
  const biz = await seedBusiness("enterprise");
  await createProduct(biz.test, { name: "one", description: "d1" });
  await createProduct(biz.test, { name: "two", description: "d2" });
  const picked = await biz.test.get("/v1/products?fields=name,type");
  assert.equal(picked.status, 200);
  assert.equal(picked.body.data.length, 2);
  for (const p of picked.body.data) assert.deepEqual(Object.keys(p).sort(), ["id", "name", "type"]);
  const withId = await biz.test.get("/v1/products?fields=id,name");
  assert.equal(withId.status, 200);
  for (const p of withId.body.data) assert.deepEqual(Object.keys(p).sort(), ["id", "name"]);
  const dropped = await biz.test.get("/v1/products?fields=-description");
  for (const p of dropped.body.data) {
    assert.ok(!("description" in p));
    for (const k of ["id", "name", "type", "business", "isActive", "createdAt"]) assert.ok(k in p, k);
  }
  expectError(await biz.test.get("/v1/products?fields=name,-type"), 400, "INVALID_PARAMETER");
  assert.equal(expectError(await biz.test.get("/v1/products?fields=secret"), 400, "INVALID_PARAMETER").field, "fields");
});

test("expand=business gives the business as {id, name}", async () => {
  const biz = await seedBusiness("enterprise");
  await createProduct(biz.test);
  const plain = await biz.test.get("/v1/products");
  assert.equal(plain.body.data[0].business, biz.businessId);
  const res = await biz.test.get("/v1/products?expand=business");
  assert.equal(res.status, 200);
  const b = res.body.data[0].business;
  assert.deepEqual(Object.keys(b).sort(), ["id", "name"]);
  assert.equal(b.id, biz.businessId);
  assert.match(b.name, /^Test business/);
  const both = await biz.test.get("/v1/products?expand=business&fields=business");
  assert.deepEqual(Object.keys(both.body.data[0]).sort(), ["business", "id"]);
  assert.equal(both.body.data[0].business.id, biz.businessId);
  assert.equal(expectError(await biz.test.get("/v1/products?expand=prices"), 400, "INVALID_PARAMETER").field, "expand");
});

test("total counts the filtered set and cursor pages keep the filter", async () => {
  const biz = await seedBusiness("enterprise");
  const apis: string[] = [];
  for (let i = 0; i < 7; i++) {
    apis.push((await createProduct(biz.test, { name: `api ${i}`, type: "API" })).id);
    await createProduct(biz.test, { name: `saas ${i}`, type: "SaaS" });
  }
  const walk = await collectAll(biz.test, "/v1/products?type=API&limit=3");
  assert.deepEqual(walk.ids, apis.slice().reverse());
  assert.deepEqual(
    walk.pages.map((p) => p.pagination.total),
    [7, 7, 7],
  );
  assert.deepEqual(
    walk.pages.map((p) => p.pagination.hasMore),
    [true, true, false],
  );
});

test("a list item is the single read's product, field for field (JSON columns, api block, dates, expand)", async () => {
  const biz = await seedBusiness("enterprise");
  const full = await biz.test.post("/v1/products", {
    name: 'Tides "quoted" \\ API ✓',
    type: "API",
    description: "Line one\nline two, with a tab\tand ünïcödé",
    isActive: false,
    industries: ["Maritime", "Ports"],
    productCategories: ["Data feeds"],
    interfaces: { hasAPI: true, hasRPC: false, hasMCP: true, hasSDK: false, hasCLI: false },
    api: { upstreamUrl: "http://127.0.0.1:9/v1", timeoutMs: 2500, secretHeaders: { "X-Upstream-Key": "upstream-secret-value" } },
  });
  assert.equal(full.status, 201);
  const bare = await createProduct(biz.test, { name: "Bare" });
  for (const query of ["", "?expand=business"]) {
    const list = await biz.test.get(`/v1/products${query}`);
    assert.equal(list.status, 200);
    for (const id of [full.body.data.id, bare.id]) {
      const single = await biz.test.get(`/v1/products/${id}${query}`);
      assert.deepEqual(
        list.body.data.find((p: { id: string }) => p.id === id),
        single.body.data,
      );
    }
  }
  const listed = (await biz.test.get("/v1/products")).body.data.find((p: { id: string }) => p.id === full.body.data.id);
  assert.deepEqual(listed.api.secretHeaderNames, ["X-Upstream-Key"]);
  assert.equal(listed.api.timeoutMs, 2500);
  assert.equal(JSON.stringify(listed).includes("upstream-secret-value"), false);
});

test("a page asked again shows at once what was written since, through the API or by another process", async () => {
  const biz = await seedBusiness("enterprise");
  const [older, newer] = await createMany(biz.test, 2, (i) => `Before ${i}`);
  const names = async () => (await biz.test.get("/v1/products")).body.data.map((p: { name: string }) => p.name);
  assert.deepEqual(await names(), ["Before 1", "Before 0"]);
  assert.deepEqual(await names(), ["Before 1", "Before 0"]);
  // Written by this test's process straight into the database: the server's memory of the page must not hide it.
  await db.product.update({ where: { id: newer }, data: { name: "Renamed elsewhere" } });
  assert.deepEqual(await names(), ["Renamed elsewhere", "Before 0"]);
  assert.equal((await biz.test.patch(`/v1/products/${older}`, { name: "Renamed through the API" })).status, 200);
  assert.deepEqual(await names(), ["Renamed elsewhere", "Renamed through the API"]);
  assert.deepEqual(await names(), ["Renamed elsewhere", "Renamed through the API"]);
});
