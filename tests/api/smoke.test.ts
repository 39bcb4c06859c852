import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, request } from "../helpers/api";

test("a seeded key creates and reads back a product", async () => {
  const biz = await seedBusiness();
  const created = await biz.test.post("/v1/products", { name: "Weather API", type: "API" });
  assert.equal(created.status, 201);
  assert.match(created.body.data.id, /^prod_/);
  const read = await biz.test.get(`/v1/products/${created.body.data.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.name, "Weather API");
  assert.equal(read.headers.get("x-request-id"), read.body.meta.requestId);
});

test("the health route answers without a key", async () => {
  const res = await request("GET", "/api/health");
  assert.equal(res.status, 200);
  assert.equal(res.body.status, "ok");
});
