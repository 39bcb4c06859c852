// Idempotency-Key on POST (spec: Idempotency; contract.md: Idempotency): a repeat replays, a changed body is
// refused, concurrent repeats create one resource, and keys are scoped to business and environment.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, createProduct, expectError } from "../helpers/api";

const BODY = { name: "Idempotent product", type: "API", description: "made once" };

test("a repeat with the same key and body replays the first result with 200 and Idempotent-Replayed", async () => {
  const biz = await seedBusiness("enterprise");
  const headers = { "Idempotency-Key": "create-weather-1" };
  const first = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(first.status, 201);
  assert.equal(first.headers.get("idempotent-replayed"), null);
  const again = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(again.status, 200);
  assert.equal(again.headers.get("idempotent-replayed"), "true");
  assert.equal(again.body.data.id, first.body.data.id);
  assert.deepEqual(again.body.data, first.body.data);
  const third = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(third.status, 200);
  assert.equal(third.body.data.id, first.body.data.id);

  const list = await biz.test.get("/v1/products");
  assert.equal(list.body.pagination.total, 1);
  assert.deepEqual(
    list.body.data.map((p: any) => p.id),
    [first.body.data.id],
  );
});

test("without a key, two identical POSTs create two products", async () => {
  const biz = await seedBusiness("enterprise");
  const a = await biz.test.post("/v1/products", BODY);
  const b = await biz.test.post("/v1/products", BODY);
  assert.equal(a.status, 201);
  assert.equal(b.status, 201);
  assert.notEqual(a.body.data.id, b.body.data.id);
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 2);
});

test("reusing a key with another body is 422 IDEMPOTENCY_KEY_REUSED and creates nothing", async () => {
  const biz = await seedBusiness("enterprise");
  const headers = { "Idempotency-Key": "reused-key" };
  const first = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(first.status, 201);
  const other = await biz.test.post("/v1/products", { ...BODY, name: "Something else" }, headers);
  expectError(other, 422, "IDEMPOTENCY_KEY_REUSED");
  assert.equal(other.headers.get("idempotent-replayed"), null);
  // The same key on another path is another request too.
  const price = await biz.test.post(
    `/v1/products/${first.body.data.id}/prices`,
    { name: "p", type: "usage", currency: "USD", amount: 1 },
    headers,
  );
  expectError(price, 422, "IDEMPOTENCY_KEY_REUSED");
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 1);
  assert.equal((await biz.test.get(`/v1/products/${first.body.data.id}/prices`)).body.pagination.total, 0);
  // The original is still replayed.
  const replay = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(replay.status, 200);
  assert.equal(replay.body.data.id, first.body.data.id);
});

test("ten concurrent requests with one key create exactly one product", async () => {
  const biz = await seedBusiness("enterprise");
  const headers = { "Idempotency-Key": "concurrent-key" };
  const results = await Promise.all(Array.from({ length: 10 }, () => biz.test.post("/v1/products", BODY, headers)));
  const statuses = results.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 201).length, 1, `exactly one 201 among ${statuses}`);
  const created = results.find((r) => r.status === 201)!.body.data.id;
  for (const r of results) {
    if (r.status === 201) continue;
    if (r.status === 200) {
      assert.equal(r.headers.get("idempotent-replayed"), "true");
      assert.equal(r.body.data.id, created);
    } else {
      expectError(r, 409, "IDEMPOTENCY_KEY_IN_USE");
    }
  }
  const list = await biz.test.get("/v1/products");
  assert.equal(list.body.pagination.total, 1);
  assert.equal(list.body.data[0].id, created);
  // Once the first has finished, a repeat is a replay.
  const later = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(later.status, 200);
  assert.equal(later.body.data.id, created);
});

test("a key longer than 255 characters is 400; 255 is fine", async () => {
  const biz = await seedBusiness("enterprise");
  const long = await biz.test.post("/v1/products", BODY, { "Idempotency-Key": "k".repeat(256) });
  const err = expectError(long, 400, "INVALID_PARAMETER");
  assert.equal(err.type, "validation_error");
  assert.equal(err.field, "Idempotency-Key");
  assert.equal((await biz.test.get("/v1/products")).body.pagination.total, 0);
  const max = await biz.test.post("/v1/products", BODY, { "Idempotency-Key": "k".repeat(255) });
  assert.equal(max.status, 201);
  const replay = await biz.test.post("/v1/products", BODY, { "Idempotency-Key": "k".repeat(255) });
  assert.equal(replay.status, 200);
  assert.equal(replay.body.data.id, max.body.data.id);
});

test("the same key from another business, or the other environment, is independent", async () => {
  const a = await seedBusiness("enterprise");
  const b = await seedBusiness("enterprise");
  const headers = { "Idempotency-Key": "shared-key-value" };
  const fromA = await a.test.post("/v1/products", BODY, headers);
  const fromB = await b.test.post("/v1/products", BODY, headers);
  assert.equal(fromA.status, 201);
  assert.equal(fromB.status, 201);
  assert.notEqual(fromA.body.data.id, fromB.body.data.id);
  assert.equal(fromB.headers.get("idempotent-replayed"), null);
  // A different body under the same key in business B is B's own first request, not a reuse of A's.
  const bOther = await b.test.post("/v1/products", BODY, { "Idempotency-Key": "only-in-a" });
  assert.equal(bOther.status, 201);
  const live = await a.live.post("/v1/products", BODY, headers);
  assert.equal(live.status, 201);
  assert.equal(live.body.data.environment, "production");
  assert.notEqual(live.body.data.id, fromA.body.data.id);
  assert.equal((await a.test.get("/v1/products")).body.pagination.total, 1);
  assert.equal((await a.live.get("/v1/products")).body.pagination.total, 1);
  assert.equal((await b.test.get("/v1/products")).body.pagination.total, 2);
});

test("a request that failed validation does not use up its key", async () => {
  const biz = await seedBusiness("enterprise");
  const headers = { "Idempotency-Key": "fix-and-retry" };
  const bad = await biz.test.post("/v1/products", { type: "API" }, headers);
  expectError(bad, 400, "MISSING_REQUIRED_FIELD");
  const good = await biz.test.post("/v1/products", BODY, headers);
  assert.equal(good.status, 201);
  assert.equal(good.headers.get("idempotent-replayed"), null);
});

test("a request that failed in the handler frees its key for a corrected retry", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test);
  await biz.test.delete(`/v1/products/${p.id}`);
  const headers = { "Idempotency-Key": "price-for-missing-product" };
  const price = { name: "p", type: "usage", currency: "USD", amount: 1 };
  expectError(await biz.test.post(`/v1/products/${p.id}/prices`, price, headers), 404, "RESOURCE_NOT_FOUND");
  // The same request again is answered afresh (still 404), not replayed or refused.
  const again = await biz.test.post(`/v1/products/${p.id}/prices`, price, headers);
  expectError(again, 404, "RESOURCE_NOT_FOUND");
  assert.equal(again.headers.get("idempotent-replayed"), null);
});

test("actions replay too: activate with a key", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await createProduct(biz.test, { isActive: false });
  const headers = { "Idempotency-Key": "activate-once" };
  const first = await biz.test.post(`/v1/products/${p.id}/activate`, undefined, headers);
  assert.equal(first.status, 200);
  assert.equal(first.body.data.isActive, true);
  await biz.test.post(`/v1/products/${p.id}/deactivate`);
  const replay = await biz.test.post(`/v1/products/${p.id}/activate`, undefined, headers);
  assert.equal(replay.status, 200);
  assert.equal(replay.headers.get("idempotent-replayed"), "true");
  // A replay returns the stored result and does not run the action again.
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).body.data.isActive, false);
});
