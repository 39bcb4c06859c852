// Numbers in query strings beyond what a column holds: integer filters past 32 bits (`statusCode[lt]=1e308`),
// fractions on whole-number columns, page sizes and offsets past 64 bits, and forged cursors carrying such numbers.
// Each is a 400 INVALID_PARAMETER (INVALID_CURSOR for a cursor) naming the parameter, on every collection, never a 500.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROUTES } from "@/lib/server/route-table";
import { seedBusiness, createProduct, expectError, type ApiClient } from "../helpers/api";

/** A concrete path for each collection route: parent resources are created on the way. */
async function collectionPaths(api: ApiClient): Promise<string[]> {
  const product = await createProduct(api, { name: "Numbers" });
  const hook = await api.post("/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["product.created"] });
  assert.equal(hook.status, 201, hook.text.slice(0, 300));
  const ids: Record<string, string> = {
    "/v1/products/{id}/prices": product.id,
    "/v1/products/{id}/features": product.id,
    "/v1/webhooks/{id}/deliveries": hook.body.data.id,
  };
  return ROUTES.filter((r) => r.method === "GET" && r.collection).map((r) => r.path.replace("{id}", ids[r.path] ?? "missing"));
}

const cursor = (sort: string, values: unknown[]) =>
  Buffer.from(JSON.stringify({ s: sort, v: values, i: "x" }), "utf8").toString("base64url");

test("integer filters past the column's range or with fractions are a 400 naming the filter, on every collection that has them", async () => {
  const biz = await seedBusiness();
  // The whole-number filters (statusCode, priority, total are 32-bit integer columns).
  const cases: [string, string][] = [
    ["/v1/usage", "statusCode"],
    ["/v1/logs", "statusCode"],
    ["/v1/tasks", "priority"],
    ["/v1/invoices", "total"],
  ];
  for (const [path, field] of cases) {
    for (const q of [
      `${field}[lt]=1e308`,
      `${field}[gte]=-1e308`,
      `${field}=99999999999999999999`,
      `${field}[ne]=2147483648`,
      `${field}[gt]=-2147483649`,
      `${field}=200,1e20`,
      `${field}[lte]=200.5`,
      `${field}=1e-7`,
    ]) {
      const res = await biz.test.get(`${path}?${q}`);
      const e = expectError(res, 400, "INVALID_PARAMETER");
      assert.equal(e.field, field, `${path}?${q}`);
      assert.match(e.message, /whole number/, `${path}?${q}: ${e.message}`);
    }
    // The edges of the range are still numbers a client may send.
    for (const q of [`${field}[lt]=2147483647`, `${field}[gte]=-2147483648`, `${field}=404`]) {
      const res = await biz.test.get(`${path}?${q}`);
      assert.equal(res.status, 200, `${path}?${q}: ${res.text.slice(0, 300)}`);
    }
  }
  // Decimal columns (amounts) hold any finite number: a huge bound is simply a bound.
  const p = await createProduct(biz.test);
  for (const path of [`/v1/products/${p.id}/prices?amount[lt]=1e308`, "/v1/products?price[lt]=1e308", "/v1/products?price[gte]=-1e308"]) {
    const res = await biz.test.get(path);
    assert.equal(res.status, 200, `${path}: ${res.text.slice(0, 300)}`);
  }
});

test("limit and offset past 64 bits (or negative, or fractional) are a 400 naming them on every collection", async () => {
  const biz = await seedBusiness();
  const paths = await collectionPaths(biz.test);
  assert.ok(paths.length >= 15, `only ${paths.length} collections found`);
  for (const path of paths) {
    for (const [q, field] of [
      ["limit=99999999999999999999", "limit"],
      ["offset=99999999999999999999", "offset"],
      ["limit=1e308", "limit"],
      ["offset=-1", "offset"],
      ["limit=2.5", "limit"],
      ["offset=1e3", "offset"],
    ] as const) {
      const res = await biz.test.get(`${path}?${q}`);
      assert.notEqual(res.status, 500, `${path}?${q}: ${res.text.slice(0, 300)}`);
      const e = expectError(res, 400, "INVALID_PARAMETER");
      assert.equal(e.field, field, `${path}?${q}`);
    }
  }
});

test("a forged cursor with numbers a column cannot hold is INVALID_CURSOR, not a 500", async () => {
  const biz = await seedBusiness();
  const probes = [
    ["/v1/invoices", "total,id", [1e308, "x"]],
    ["/v1/invoices", "total,id", [2.5, "x"]],
    ["/v1/invoices", "-total,id", [-1e300, "x"]],
    ["/v1/tasks", "priority,id", [99999999999999999999, "x"]],
    ["/v1/tasks", "priority,id", ["high", "x"]],
    ["/v1/usage", "latency,id", ["slow", "x"]],
    ["/v1/logs", "-latency,-id", [{}, "x"]],
  ] as const;
  for (const [path, sort, values] of probes) {
    const res = await biz.test.get(`${path}?sort=${sort}&cursor=${cursor(sort, [...values])}`);
    assert.notEqual(res.status, 500, `${path} sort=${sort} ${JSON.stringify(values)}: ${res.text.slice(0, 300)}`);
    expectError(res, 400, "INVALID_CURSOR");
  }
});
