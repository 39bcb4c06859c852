// Test and live data are apart (contract.md: Tenancy and environments), and one business never sees another's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, createProduct, expectError, type ApiClient } from "../helpers/api";

/** Every way a client could reach product `id` through `api` must say 404. */
async function assertInvisible(api: ApiClient, id: string) {
  expectError(await api.get(`/v1/products/${id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.patch(`/v1/products/${id}`, { name: "hijacked" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.post(`/v1/products/${id}/deactivate`), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.post(`/v1/products/${id}/activate`), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.get(`/v1/products/${id}/prices`), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.get(`/v1/products/${id}/features`), 404, "RESOURCE_NOT_FOUND");
  expectError(
    await api.post(`/v1/products/${id}/prices`, { name: "p", type: "usage", currency: "USD", amount: 1 }),
    404,
    "RESOURCE_NOT_FOUND",
  );
  expectError(await api.post(`/v1/products/${id}/features`, { name: "f" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await api.delete(`/v1/products/${id}`), 404, "RESOURCE_NOT_FOUND");
  const list = await api.get(`/v1/products?limit=100&id=${id}`);
  assert.equal(list.status, 200);
  assert.equal(list.body.pagination.total, 0);
}

test("a product made with the test key is invisible to the live key", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, { name: "Test-only product" });
  assert.equal(p.environment, "test");
  await assertInvisible(biz.live, p.id);
  const liveList = await biz.live.get("/v1/products");
  assert.deepEqual(liveList.body.data, []);
  assert.equal(liveList.body.pagination.total, 0);
  assert.equal((await biz.live.get("/v1/products?q=test-only")).body.pagination.total, 0);
  // Untouched on its own side.
  const own = await biz.test.get(`/v1/products/${p.id}`);
  assert.equal(own.status, 200);
  assert.equal(own.body.data.name, "Test-only product");
  assert.equal(own.body.data.isActive, true);
});

test("a product made with the live key is invisible to the test key", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.live, { name: "Live product" });
  assert.equal(p.environment, "production");
  await assertInvisible(biz.test, p.id);
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 0);
  const liveList = await biz.live.get("/v1/products");
  assert.deepEqual(
    liveList.body.data.map((x: any) => x.id),
    [p.id],
  );
});

test("each environment lists only its own products", async () => {
  const biz = await seedBusiness("enterprise");
  const t1 = await createProduct(biz.test, { name: "t1" });
  const l1 = await createProduct(biz.live, { name: "l1" });
  const t2 = await createProduct(biz.test, { name: "t2" });
  assert.deepEqual(
    (await biz.test.get("/v1/products")).body.data.map((x: any) => x.id),
    [t2.id, t1.id],
  );
  assert.deepEqual(
    (await biz.live.get("/v1/products")).body.data.map((x: any) => x.id),
    [l1.id],
  );
});

test("prices and features of the other environment are 404", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  const price = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "p", type: "usage", currency: "USD", amount: 1 });
  const feature = await biz.test.post(`/v1/products/${p.id}/features`, { name: "f" });
  for (const path of [`/v1/prices/${price.body.data.id}`, `/v1/features/${feature.body.data.id}`]) {
    expectError(await biz.live.get(path), 404, "RESOURCE_NOT_FOUND");
    expectError(await biz.live.patch(path, { name: "x" }), 404, "RESOURCE_NOT_FOUND");
    expectError(await biz.live.delete(path), 404, "RESOURCE_NOT_FOUND");
    assert.equal((await biz.test.get(path)).body.data.name, path.includes("prices") ? "p" : "f");
  }
});

test("another business's product id is 404 to every key of this business", async () => {
  const mine = await seedBusiness("enterprise");
  const theirs = await seedBusiness("enterprise");
  const p = await createProduct(theirs.test, { name: "Theirs" });
  const price = await theirs.test.post(`/v1/products/${p.id}/prices`, { name: "p", type: "usage", currency: "USD", amount: 1 });
  await assertInvisible(mine.test, p.id);
  await assertInvisible(mine.live, p.id);
  expectError(await mine.test.get(`/v1/prices/${price.body.data.id}`), 404, "RESOURCE_NOT_FOUND");
  // Filtering by the other business gives nothing, not their products.
  assert.equal((await mine.test.get(`/v1/products?business=${theirs.businessId}`)).body.pagination.total, 0);
  // Still whole for its owner.
  const own = await theirs.test.get(`/v1/products/${p.id}`);
  assert.equal(own.status, 200);
  assert.equal(own.body.data.name, "Theirs");
  assert.equal((await theirs.test.get(`/v1/products/${p.id}/prices`)).body.pagination.total, 1);
});
