// Product CRUD through the public API: create, read, partial update, delete (with its cascade), and the
// activate/deactivate actions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, createProduct, expectError } from "../helpers/api";

const FULL = {
  name: "Weather API",
  type: "API",
  description: "Forecasts for every city",
  isActive: false,
  industries: ["Meteorology", "Agriculture"],
  productCategories: ["Data feeds"],
  interfaces: { hasAPI: true, hasRPC: false, hasMCP: true, hasSDK: true, hasCLI: false },
};

test("POST /v1/products creates a product with every writable field and answers 201", async () => {
  const biz = await seedBusiness("enterprise");
  const res = await biz.test.post("/v1/products", FULL);
  assert.equal(res.status, 201);
  const p = res.body.data;
  assert.match(p.id, /^prod_[0-9A-Z]{26}$/);
  assert.equal(p.name, FULL.name);
  assert.equal(p.type, FULL.type);
  assert.equal(p.description, FULL.description);
  assert.equal(p.isActive, false);
  assert.deepEqual(p.industries, FULL.industries);
  assert.deepEqual(p.productCategories, FULL.productCategories);
  assert.deepEqual(p.interfaces, FULL.interfaces);
  assert.equal(p.business, biz.businessId);
  assert.equal(p.environment, "test");
  assert.ok(!Number.isNaN(Date.parse(p.createdAt)));
  assert.equal(p.createdAt, p.updatedAt);
  assert.equal(res.headers.get("x-request-id"), res.body.meta.requestId);

  // What was stored is what a later read returns.
  const read = await biz.test.get(`/v1/products/${p.id}`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, p);
});

test("a product created with only name and type gets the documented defaults", async () => {
  const biz = await seedBusiness("enterprise");
  const res = await biz.test.post("/v1/products", { name: "Bare", type: "SaaS" });
  assert.equal(res.status, 201);
  const p = res.body.data;
  assert.equal(p.isActive, true);
  assert.equal(p.description, null);
  assert.deepEqual(p.industries, []);
  assert.deepEqual(p.productCategories, []);
  assert.deepEqual(p.interfaces, {});
});

test("every product type of the spec can be created", async () => {
  const biz = await seedBusiness("enterprise");
  for (const type of ["SaaS", "API", "Data", "Headless"]) {
    const p = await createProduct(biz.test, { name: `A ${type} product`, type });
    assert.equal(p.type, type);
  }
});

test("business on create may name the key's own business, and no other", async () => {
  const biz = await seedBusiness("enterprise");
  const other = await seedBusiness("enterprise");
  const own = await biz.test.post("/v1/products", { name: "Mine", type: "API", business: biz.businessId });
  assert.equal(own.status, 201);
  assert.equal(own.body.data.business, biz.businessId);
  const foreign = await biz.test.post("/v1/products", { name: "Theirs", type: "API", business: other.businessId });
  assert.equal(expectError(foreign, 400, "INVALID_FIELD").field, "business");
  const list = await other.test.get("/v1/products");
  assert.equal(list.body.pagination.total, 0);
});

test("GET /v1/products/{id} honours fields and expand", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, { name: "Picky", description: "d" });
  const picked = await biz.test.get(`/v1/products/${p.id}?fields=name`);
  assert.equal(picked.status, 200);
  assert.deepEqual(Object.keys(picked.body.data).sort(), ["id", "name"]);
  const expanded = await biz.test.get(`/v1/products/${p.id}?expand=business`);
  assert.equal(expanded.body.data.business.id, biz.businessId);
  assert.equal(typeof expanded.body.data.business.name, "string");
});

test("PATCH changes only the fields sent and answers 200", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, FULL);
  const res = await biz.test.patch(`/v1/products/${p.id}`, { description: "Now with radar maps" });
  assert.equal(res.status, 200);
  const u = res.body.data;
  assert.equal(u.description, "Now with radar maps");
  assert.equal(u.name, FULL.name);
  assert.equal(u.type, FULL.type);
  assert.equal(u.isActive, false);
  assert.deepEqual(u.industries, FULL.industries);
  assert.deepEqual(u.interfaces, FULL.interfaces);
  assert.equal(u.createdAt, p.createdAt);
  assert.ok(Date.parse(u.updatedAt) >= Date.parse(p.updatedAt));

  const more = await biz.test.patch(`/v1/products/${p.id}`, {
    name: "Weather API v2",
    type: "Data",
    isActive: true,
    industries: ["Energy"],
    productCategories: [],
    interfaces: { hasCLI: true },
    description: null,
  });
  assert.equal(more.status, 200);
  assert.equal(more.body.data.name, "Weather API v2");
  assert.equal(more.body.data.type, "Data");
  assert.equal(more.body.data.isActive, true);
  assert.deepEqual(more.body.data.industries, ["Energy"]);
  assert.deepEqual(more.body.data.productCategories, []);
  assert.deepEqual(more.body.data.interfaces, { hasCLI: true });
  assert.equal(more.body.data.description, null);

  const read = await biz.test.get(`/v1/products/${p.id}`);
  assert.deepEqual(read.body.data, more.body.data);
});

test("PATCH with an empty object changes nothing", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, FULL);
  const res = await biz.test.patch(`/v1/products/${p.id}`, {});
  assert.equal(res.status, 200);
  for (const k of ["name", "type", "description", "isActive", "industries", "productCategories", "interfaces"]) {
    assert.deepEqual(res.body.data[k], p[k], k);
  }
});

test("a renamed product is found by its new name with q, not its old one", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, { name: "Oldname widget" });
  await biz.test.patch(`/v1/products/${p.id}`, { name: "Freshname widget" });
  assert.deepEqual(
    (await biz.test.get("/v1/products?q=freshname")).body.data.map((x: any) => x.id),
    [p.id],
  );
  assert.equal((await biz.test.get("/v1/products?q=oldname")).body.pagination.total, 0);
});

test("DELETE answers 204 with an empty body; the product is then gone", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const keep = await createProduct(biz.test, { name: "Keep me" });
  const del = await biz.test.delete(`/v1/products/${p.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.text, "");
  expectError(await biz.test.get(`/v1/products/${p.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.patch(`/v1/products/${p.id}`, { name: "x" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.delete(`/v1/products/${p.id}`), 404, "RESOURCE_NOT_FOUND");
  const list = await biz.test.get("/v1/products");
  assert.deepEqual(
    list.body.data.map((x: any) => x.id),
    [keep.id],
  );
  assert.equal(list.body.pagination.total, 1);
});

test("deleting a product deletes its features and prices", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const other = await createProduct(biz.test, { name: "Other" });
  const price = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Per call", type: "usage", currency: "USD", amount: 0.01 });
  const feature = await biz.test.post(`/v1/products/${p.id}/features`, { name: "Radar", key: "radar", value: true });
  const otherPrice = await biz.test.post(`/v1/products/${other.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "USD",
    amount: 0.02,
  });
  assert.equal(price.status, 201);
  assert.equal(feature.status, 201);
  assert.equal(otherPrice.status, 201);

  assert.equal((await biz.test.delete(`/v1/products/${p.id}`)).status, 204);
  expectError(await biz.test.get(`/v1/prices/${price.body.data.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/features/${feature.body.data.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/products/${p.id}/prices`), 404, "RESOURCE_NOT_FOUND");
  // Another product's price is untouched.
  assert.equal((await biz.test.get(`/v1/prices/${otherPrice.body.data.id}`)).status, 200);
});

test("deactivate and activate set isActive, and repeating either changes nothing", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  assert.equal(p.isActive, true);

  const off = await biz.test.post(`/v1/products/${p.id}/deactivate`);
  assert.equal(off.status, 200);
  assert.equal(off.body.data.id, p.id);
  assert.equal(off.body.data.isActive, false);
  const offAgain = await biz.test.post(`/v1/products/${p.id}/deactivate`);
  assert.equal(offAgain.status, 200);
  assert.deepEqual(offAgain.body.data, off.body.data);
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).body.data.isActive, false);

  const on = await biz.test.post(`/v1/products/${p.id}/activate`);
  assert.equal(on.status, 200);
  assert.equal(on.body.data.isActive, true);
  const onAgain = await biz.test.post(`/v1/products/${p.id}/activate`);
  assert.equal(onAgain.status, 200);
  assert.deepEqual(onAgain.body.data, on.body.data);
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).body.data.isActive, true);
});

test("activate and deactivate on a missing product are 404", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  await biz.test.delete(`/v1/products/${p.id}`);
  expectError(await biz.test.post(`/v1/products/${p.id}/activate`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.post(`/v1/products/${p.id}/deactivate`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.post("/v1/products/not-an-id/activate"), 404, "RESOURCE_NOT_FOUND");
});

test("PATCH isActive and the actions agree", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  assert.equal((await biz.test.patch(`/v1/products/${p.id}`, { isActive: false })).body.data.isActive, false);
  const on = await biz.test.post(`/v1/products/${p.id}/activate`);
  assert.equal(on.body.data.isActive, true);
  assert.equal((await biz.test.get("/v1/products?isActive=true")).body.pagination.total, 1);
});
