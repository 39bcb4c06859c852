// Events: every product write and every webhook-endpoint write leaves one Event record (id, type, createdAt,
// data, previousAttributes on updates, apiVersion), a failed write leaves none, and GET /v1/events and
// GET /v1/events/{id} read them with the collection parameters and a type filter, per business and environment.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, createProduct, expectError, client, collectAll } from "../helpers/api";
import { createEndpoint } from "../helpers/receiver";

type Ev = {
  id: string;
  type: string;
  createdAt: string;
  timestamp: string;
  apiVersion: string;
  data: any;
  previousAttributes?: any;
  environment: string;
};

async function events(api: ReturnType<typeof client>, query = ""): Promise<Ev[]> {
  const res = await api.get(`/v1/events?limit=100${query ? `&${query}` : ""}`);
  assert.equal(res.status, 200, res.text);
  return res.body.data;
}

test("product create, update, deactivate, activate and delete each emit one event of the right type", async () => {
  const biz = await seedBusiness();
  const p = await createProduct(biz.test, { name: "Evented", description: "first" });
  await biz.test.patch(`/v1/products/${p.id}`, { name: "Evented 2", description: "second" });
  await biz.test.post(`/v1/products/${p.id}/deactivate`);
  await biz.test.post(`/v1/products/${p.id}/deactivate`); // a repeat changes nothing, so emits nothing
  await biz.test.post(`/v1/products/${p.id}/activate`);
  assert.equal((await biz.test.delete(`/v1/products/${p.id}`)).status, 204);

  const list = (await events(biz.test, "type=product.created,product.updated,product.deleted")).reverse(); // oldest first
  assert.deepEqual(
    list.map((e) => e.type),
    ["product.created", "product.updated", "product.updated", "product.updated", "product.deleted"],
  );
  for (const e of list) {
    assert.match(e.id, /^evt_[0-9A-Z]{26}$/);
    assert.equal(e.apiVersion, "v1");
    assert.equal(e.environment, "test");
    assert.equal(e.timestamp, e.createdAt);
    assert.ok(!Number.isNaN(Date.parse(e.createdAt)));
    assert.equal(e.data.object, "product");
    assert.equal(e.data.id, p.id);
  }
  const [created, renamed, deactivated, activated, deleted] = list;
  assert.equal(created.data.name, "Evented");
  assert.equal(created.data.createdAt, p.createdAt);
  assert.equal(created.previousAttributes, undefined);
  assert.equal(renamed.data.name, "Evented 2");
  assert.deepEqual(renamed.previousAttributes, { name: "Evented", description: "first" });
  assert.deepEqual(deactivated.previousAttributes, { isActive: true });
  assert.equal(deactivated.data.isActive, false);
  assert.deepEqual(activated.previousAttributes, { isActive: false });
  assert.equal(deleted.data.name, "Evented 2");
  assert.equal(deleted.previousAttributes, undefined);
});

test("a write that fails emits nothing", async () => {
  const biz = await seedBusiness();
  assert.equal((await biz.test.post("/v1/products", { type: "API" })).status, 400);
  assert.equal((await biz.test.post("/v1/products", { name: "x", type: "Spaceship" })).status, 400);
  assert.equal((await biz.test.patch("/v1/products/prod_00000000000000000000000000", { name: "x" })).status, 404);
  assert.equal((await biz.test.delete("/v1/products/prod_00000000000000000000000000")).status, 404);
  assert.equal((await biz.test.post("/v1/webhooks", { url: "ftp://x", events: ["*"] })).status, 400);
  const p = await createProduct(biz.test);
  assert.equal((await biz.test.patch(`/v1/products/${p.id}`, { type: "Spaceship" })).status, 400);
  assert.deepEqual(
    (await events(biz.test)).map((e) => e.type),
    ["product.created"],
  );
});

test("webhook endpoint writes emit resource.created, resource.updated and resource.deleted without the secret", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: "http://127.0.0.1:9/e", events: ["payment.failed"] });
  await biz.test.patch(`/v1/webhooks/${w.id}`, { description: "now described", events: ["payment.*"] });
  await biz.test.delete(`/v1/webhooks/${w.id}`);
  const list = (await events(biz.test)).reverse();
  assert.deepEqual(
    list.map((e) => e.type),
    ["resource.created", "resource.updated", "resource.deleted"],
  );
  for (const e of list) {
    assert.equal(e.data.object, "webhook");
    assert.equal(e.data.id, w.id);
    assert.equal(e.data.secret, `whsec_…${w.secret.slice(-4)}`);
  }
  assert.ok(!JSON.stringify(list).includes(w.secret.slice(6, 30)), "an event carries the signing secret");
  assert.deepEqual(list[1].previousAttributes, { description: null, events: ["payment.failed"] });
  assert.deepEqual(list[1].data.events, ["payment.*"]);
});

// contract.md: resource.* come from "automation resources, API keys and webhooks".
test("API key writes emit resource events too (contract: automation resources, API keys and webhooks)", async () => {
  const biz = await seedBusiness();
  const made = await biz.test.post("/v1/api-keys", { name: "events", scopes: ["products:read"] });
  assert.equal(made.status, 201, made.text);
  const list = await events(biz.test, "type=resource.created");
  const ev = list.find((e) => e.data?.id === made.body.data.id);
  assert.ok(ev, `no resource.created event for the new key: ${JSON.stringify(list)}`);
  assert.ok(!JSON.stringify(ev).includes(made.body.data.key), "the event carries the full key");
});

test("GET /v1/events/{id} returns the event; other businesses, the other environment and bad ids get 404", async () => {
  const biz = await seedBusiness();
  const stranger = await seedBusiness();
  await createProduct(biz.test);
  const [e] = await events(biz.test);
  const one = await biz.test.get(`/v1/events/${e.id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.data, e);
  expectError(await stranger.test.get(`/v1/events/${e.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.live.get(`/v1/events/${e.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get("/v1/events/evt_00000000000000000000000000"), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get("/v1/events/prod_00000000000000000000000000"), 404, "RESOURCE_NOT_FOUND");
  assert.deepEqual(await events(stranger.test), []);
  assert.deepEqual(await events(biz.live), []);
  // Live writes are live events, seen by live keys only.
  await createProduct(biz.live);
  const live = await events(biz.live);
  assert.deepEqual(
    live.map((x) => [x.type, x.environment]),
    [["product.created", "production"]],
  );
  assert.equal((await events(biz.test)).length, 1);
});

test("the list filters by type (one, a comma list, [ne]) and createdAt, and rejects unknown filters", async () => {
  const biz = await seedBusiness();
  const a = await createProduct(biz.test);
  await biz.test.patch(`/v1/products/${a.id}`, { name: "changed" });
  const b = await createProduct(biz.test);
  await biz.test.delete(`/v1/products/${b.id}`);
  const types = async (q: string) => (await events(biz.test, q)).map((e) => e.type);
  assert.deepEqual(await types("type=product.created"), ["product.created", "product.created"]);
  assert.deepEqual(await types("type=product.updated,product.deleted"), ["product.deleted", "product.updated"]);
  assert.deepEqual(await types("type[ne]=product.created"), ["product.deleted", "product.updated"]);
  assert.deepEqual(await types("type=payment.failed"), []);
  const all = await events(biz.test);
  const cut = all[1].createdAt;
  assert.ok((await events(biz.test, `createdAt[gte]=${encodeURIComponent(cut)}`)).every((e) => e.createdAt >= cut));
  expectError(await biz.test.get("/v1/events?color=red"), 400, "INVALID_FILTER");
  expectError(await biz.test.get("/v1/events?createdAt[gte]=yesterday"), 400, "INVALID_PARAMETER");
});

test("the list is newest first and pages with limit and cursor without gaps or repeats; fields selects members", async () => {
  const biz = await seedBusiness();
  for (let i = 0; i < 7; i++) await createProduct(biz.test, { name: `P${i}` });
  const { ids, pages } = await collectAll(biz.test, "/v1/events?limit=3");
  assert.equal(ids.length, 7);
  assert.equal(new Set(ids).size, 7);
  assert.equal(pages.length, 3);
  const all = await events(biz.test);
  assert.deepEqual(
    ids,
    all.map((e) => e.id),
  );
  assert.deepEqual(
    all.map((e) => e.data.name),
    ["P6", "P5", "P4", "P3", "P2", "P1", "P0"],
  );
  const asc = await events(biz.test, "sort=createdAt");
  assert.deepEqual(
    asc.map((e) => e.id),
    [...ids].reverse(),
  );
  const slim = await biz.test.get("/v1/events?limit=1&fields=type");
  assert.deepEqual(Object.keys(slim.body.data[0]).sort(), ["id", "type"]);
  expectError(await biz.test.get("/v1/events?limit=101"), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get("/v1/events?cursor=not-a-cursor"), 400, "INVALID_CURSOR");
});

test("events need the events:read scope", async () => {
  const biz = await seedBusiness();
  await createProduct(biz.test);
  const reader = await biz.test.post("/v1/api-keys", { name: "events reader", scopes: ["events:read"] });
  assert.equal(reader.status, 201, reader.text);
  assert.equal((await client(reader.body.data.key).get("/v1/events")).status, 200);
  const other = await biz.test.post("/v1/api-keys", { name: "products reader", scopes: ["products:read"] });
  expectError(await client(other.body.data.key).get("/v1/events"), 403, "INSUFFICIENT_SCOPE");
  const [e] = await events(biz.test);
  expectError(await client(other.body.data.key).get(`/v1/events/${e.id}`), 403, "INSUFFICIENT_SCOPE");
});
