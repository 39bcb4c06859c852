// API keys: create (the full key once), masked reads, scopes and their wildcards, update, revoke, rotate,
// and what a key may hand out. Each test seeds its own business.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { client, expectError, seedBusiness, type ApiClient } from "../helpers/api";
import { apiKeyRow, poll, setKeyExpiry } from "../helpers/db";

const DAY_MS = 24 * 60 * 60 * 1000;
const KEY_SHAPE = /^sk_test_[A-Za-z0-9_-]{43}$/;

async function createKey(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post("/v1/api-keys", { name: "Test key", ...body });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  return res.body.data as Record<string, any> & { id: string; key: string };
}

async function keyIdNamed(api: ApiClient, name: string): Promise<string> {
  const res = await api.get(`/v1/api-keys?name=${encodeURIComponent(name)}`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  assert.equal(res.body.data.length, 1);
  return res.body.data[0].id;
}

const near = (iso: string | null, expected: number, toleranceMs = 60_000) =>
  iso !== null && Math.abs(Date.parse(iso) - expected) < toleranceMs;

test("a created key carries every field of the spec's API key and its full value, once", async () => {
  const biz = await seedBusiness("enterprise");
  const bootstrapId = await keyIdNamed(biz.test, "Bootstrap test key");
  const expiresAt = new Date(Date.now() + 30 * DAY_MS).toISOString();
  const body = {
    name: "Billing service",
    scopes: ["products:read", "prices:*"],
    rateLimit: 120,
    expiresAt,
    metadata: { team: "billing" },
    restrictions: { ipWhitelist: ["127.0.0.1/32", "::1"], referrerWhitelist: ["*.example.com"] },
    rotation: { strategy: "automatic", maxAge: 90, gracePeriod: 3, notificationDays: [14, 7, 1] },
  };
  const k = await createKey(biz.test, body);
  assert.match(k.id, /^key_/);
  assert.match(k.key, KEY_SHAPE);
  assert.equal(k.type, "test");
  assert.equal(k.prefix, "sk_test_");
  assert.equal(k.environment, "test");
  assert.equal(k.name, "Billing service");
  assert.deepEqual(k.scopes, ["products:read", "prices:*"]);
  assert.deepEqual(k.permissions.resources, ["products", "prices"]);
  assert.deepEqual([...k.permissions.actions].sort(), ["delete", "read", "write"]);
  assert.equal(k.rateLimit, 120);
  assert.equal(Date.parse(k.expiresAt), Date.parse(expiresAt));
  assert.equal(k.lastUsed, null);
  assert.deepEqual(k.metadata, { team: "billing" });
  assert.deepEqual(k.restrictions, body.restrictions);
  assert.deepEqual(k.rotation, body.rotation);
  assert.equal(k.projectId, biz.projectId);
  assert.equal(k.createdBy, bootstrapId);
  assert.equal(k.status, "active");
  assert.ok(near(k.createdAt, Date.now()));

  // Every key is new randomness: 256 bits as 43 base64url characters.
  const other = await createKey(biz.test, { scopes: ["products:read"] });
  assert.notEqual(other.key, k.key);
  assert.notEqual(other.key.slice(8, 20), k.key.slice(8, 20));
});

test("reads show only the masked key: its prefix and last four characters", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  const secret = k.key.slice(8);

  const one = await biz.test.get(`/v1/api-keys/${k.id}`);
  assert.equal(one.status, 200);
  assert.notEqual(one.body.data.key, k.key);
  assert.ok(one.body.data.key.startsWith("sk_test_"));
  assert.ok(one.body.data.key.endsWith(k.key.slice(-4)));
  assert.ok(!one.text.includes(secret), "GET shows the secret");

  const list = await biz.test.get("/v1/api-keys?limit=100");
  assert.equal(list.status, 200);
  const listed = list.body.data.find((x: { id: string }) => x.id === k.id);
  assert.equal(listed.key, one.body.data.key);
  assert.ok(!list.text.includes(secret), "the list shows the secret");
  for (const item of list.body.data)
    assert.ok(!KEY_SHAPE.test(item.key) && !/^sk_live_[A-Za-z0-9_-]{43}$/.test(item.key), `a full key in the list: ${item.id}`);
});

test("the database keeps an HMAC of the key under the server secret, never the key", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"], metadata: { note: "x" } });
  const row = await apiKeyRow(k.id);
  assert.ok(row);
  for (const [column, value] of Object.entries(row)) {
    const text = value instanceof Date ? value.toISOString() : JSON.stringify(value);
    assert.ok(!text?.includes(k.key.slice(8)), `column ${column} holds the key`);
  }
  assert.equal(row.keyHash, createHmac("sha256", process.env.KEY_HASH_SECRET!).update(k.key).digest("hex"));
  assert.notEqual(row.keyHash, createHash("sha256").update(k.key).digest("hex"), "a plain SHA-256 could be checked without the secret");
});

test("the new key works at once, as a Bearer header and as the api_key query parameter", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  assert.equal((await client(k.key).get("/v1/products")).status, 200);
  const viaQuery = await client("").get(`/v1/products?api_key=${encodeURIComponent(k.key)}`);
  assert.equal(viaQuery.status, 200, viaQuery.text.slice(0, 300));
});

test("scope wildcards: resource:* grants every action on it, * grants everything", async () => {
  const biz = await seedBusiness("enterprise");
  const products = client((await createKey(biz.test, { scopes: ["products:*"] })).key);
  const created = await products.post("/v1/products", { name: "Wildcard", type: "API" });
  assert.equal(created.status, 201);
  assert.equal((await products.get(`/v1/products/${created.body.data.id}`)).status, 200);
  assert.equal((await products.delete(`/v1/products/${created.body.data.id}`)).status, 204);
  const denied = expectError(await products.get("/v1/api-keys"), 403, "INSUFFICIENT_SCOPE");
  assert.equal(denied.requiredScope, "api_keys:read");
  expectError(await products.get("/v1/products/x/prices"), 403, "INSUFFICIENT_SCOPE");

  const all = client((await createKey(biz.test, { scopes: ["*"] })).key);
  for (const path of ["/v1/products", "/v1/api-keys", "/v1/audit-logs", "/v1/versions"]) {
    assert.equal((await all.get(path)).status, 200, path);
  }
});

test("a read scope does not grant write or delete", async () => {
  const biz = await seedBusiness("enterprise");
  const product = (await biz.test.post("/v1/products", { name: "P", type: "API" })).body.data;
  const reader = client((await createKey(biz.test, { scopes: ["products:read"] })).key);
  assert.equal((await reader.get(`/v1/products/${product.id}`)).status, 200);
  assert.equal(
    expectError(await reader.post("/v1/products", { name: "P", type: "API" }), 403, "INSUFFICIENT_SCOPE").requiredScope,
    "products:write",
  );
  assert.match(expectError(await reader.delete(`/v1/products/${product.id}`), 403, "INSUFFICIENT_SCOPE").message, /products:delete/);
  assert.equal((await biz.test.get(`/v1/products/${product.id}`)).status, 200);
});

test("the permissions object form means resources × actions, with its restrictions", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { permissions: { resources: ["products"], actions: ["read"] } });
  assert.deepEqual(k.scopes, ["products:read"]);
  assert.deepEqual(k.permissions, { resources: ["products"], actions: ["read"], restrictions: null });
  const api = client(k.key);
  assert.equal((await api.get("/v1/products")).status, 200);
  expectError(await api.post("/v1/products", { name: "P", type: "API" }), 403, "INSUFFICIENT_SCOPE");

  const two = await createKey(biz.test, {
    permissions: {
      resources: ["products", "prices"],
      actions: ["read", "write"],
      restrictions: { referrerWhitelist: ["example.com"], rateLimit: 30 },
    },
  });
  assert.deepEqual([...two.scopes].sort(), ["prices:read", "prices:write", "products:read", "products:write"]);
  assert.deepEqual(two.restrictions.referrerWhitelist, ["example.com"]);
  assert.equal(two.rateLimit, 30);

  // The array form of permissions is the scope list.
  assert.deepEqual((await createKey(biz.test, { permissions: ["versions:read"] })).scopes, ["versions:read"]);
  expectError(
    await biz.test.post("/v1/api-keys", { name: "x", scopes: ["products:read"], permissions: ["products:read"] }),
    400,
    "INVALID_FIELD",
  );
});

test("permissions on every resource ('*') with some actions grant those actions everywhere", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { permissions: { resources: ["*"], actions: ["read"] } });
  const api = client(k.key);
  for (const path of ["/v1/products", "/v1/api-keys", "/v1/versions", "/v1/audit-logs"]) {
    assert.equal((await api.get(path)).status, 200, `${path} with ${JSON.stringify(k.scopes)}`);
  }
  expectError(await api.post("/v1/products", { name: "P", type: "API" }), 403, "INSUFFICIENT_SCOPE");
  const full = await createKey(biz.test, { permissions: { resources: ["*"], actions: ["read", "write", "delete"] } });
  assert.deepEqual(full.scopes, ["*"]);
});

test("a key cannot grant scopes it does not hold, on create or update", async () => {
  const biz = await seedBusiness("enterprise");
  const limited = client((await createKey(biz.test, { scopes: ["api_keys:read", "api_keys:write", "products:read"] })).key);
  assert.equal((await limited.post("/v1/api-keys", { name: "ok", scopes: ["products:read"] })).status, 201);
  for (const scopes of [["products:write"], ["products:*"], ["*"], ["products:read", "prices:read"]]) {
    const e = expectError(await limited.post("/v1/api-keys", { name: "escalate", scopes }), 403, "INSUFFICIENT_SCOPE");
    assert.ok(scopes.includes(e.requiredScope as string), JSON.stringify(e));
  }
  expectError(
    await limited.post("/v1/api-keys", { name: "escalate", permissions: { resources: ["products"], actions: ["delete"] } }),
    403,
    "INSUFFICIENT_SCOPE",
  );
  const own = await limited.post("/v1/api-keys", { name: "mine", scopes: ["products:read"] });
  expectError(await limited.patch(`/v1/api-keys/${own.body.data.id}`, { scopes: ["products:write"] }), 403, "INSUFFICIENT_SCOPE");
  assert.deepEqual((await biz.test.get(`/v1/api-keys/${own.body.data.id}`)).body.data.scopes, ["products:read"]);
});

test("rotating a key that holds more than the caller is refused: rotation hands out the new key", async () => {
  const biz = await seedBusiness("enterprise");
  const limited = client((await createKey(biz.test, { scopes: ["api_keys:read", "api_keys:write"] })).key);
  const bootstrapId = await keyIdNamed(biz.test, "Bootstrap test key");
  const e = expectError(await limited.post(`/v1/api-keys/${bootstrapId}/rotate`, {}), 403, "INSUFFICIENT_SCOPE");
  assert.equal(e.requiredScope, "*");
  const bootstrap = (await biz.test.get(`/v1/api-keys/${bootstrapId}`)).body.data;
  assert.equal(bootstrap.expiresAt, null, "the refused rotation still shortened the key's life");
  const modest = await createKey(biz.test, { scopes: ["api_keys:read"] });
  assert.equal((await limited.post(`/v1/api-keys/${modest.id}/rotate`, {})).status, 201);
});

test("a test key creates test keys only; a live key creates live keys", async () => {
  const biz = await seedBusiness("enterprise");
  assert.equal(
    expectError(await biz.test.post("/v1/api-keys", { name: "live", type: "live", scopes: ["products:read"] }), 400, "INVALID_FIELD").field,
    "type",
  );
  assert.equal(
    expectError(
      await biz.test.post("/v1/api-keys", { name: "live", environment: "production", scopes: ["products:read"] }),
      400,
      "INVALID_FIELD",
    ).field,
    "environment",
  );
  const live = await createKey(biz.live, { scopes: ["products:read"] });
  assert.match(live.key, /^sk_live_[A-Za-z0-9_-]{43}$/);
  assert.equal(live.type, "live");
  assert.equal(live.prefix, "sk_live_");
  assert.equal(live.environment, "production");
  expectError(await biz.live.post("/v1/api-keys", { name: "test", type: "test", scopes: ["products:read"] }), 400, "INVALID_FIELD");
  // Each environment lists only its own keys.
  const testIds = (await biz.test.get("/v1/api-keys?limit=100")).body.data.map((x: { id: string }) => x.id);
  assert.ok(!testIds.includes(live.id));
  expectError(await biz.test.get(`/v1/api-keys/${live.id}`), 404, "RESOURCE_NOT_FOUND");
});

test("invalid keys to create are 400 with the field named", async () => {
  const biz = await seedBusiness("enterprise");
  const post = (body: Record<string, unknown>) => biz.test.post("/v1/api-keys", { name: "x", scopes: ["products:read"], ...body });
  assert.equal(expectError(await post({ scopes: ["products:fly"] }), 400, "INVALID_FIELD").field, "scopes[0]");
  assert.equal(expectError(await post({ scopes: ["products:read", "nothing"] }), 400, "INVALID_FIELD").field, "scopes[1]");
  assert.equal(expectError(await post({ scopes: [] }), 400, "INVALID_FIELD").field, "scopes");
  assert.equal(
    expectError(await post({ restrictions: { ipWhitelist: ["10.0.0.0/33"] } }), 400, "INVALID_FIELD").field,
    "restrictions.ipWhitelist[0]",
  );
  assert.equal(
    expectError(await post({ restrictions: { ipWhitelist: ["not-an-ip"] } }), 400, "INVALID_FIELD").field,
    "restrictions.ipWhitelist[0]",
  );
  assert.equal(
    expectError(await post({ restrictions: { referrerWhitelist: ["exa mple.com"] } }), 400, "INVALID_FIELD").field,
    "restrictions.referrerWhitelist[0]",
  );
  assert.equal(
    expectError(await post({ expiresAt: new Date(Date.now() - DAY_MS).toISOString() }), 400, "INVALID_FIELD").field,
    "expiresAt",
  );
  assert.equal(expectError(await post({ expiresAt: "next week" }), 400, "INVALID_FIELD").field, "expiresAt");
  assert.equal(expectError(await post({ rateLimit: 0 }), 400, "INVALID_FIELD").field, "rateLimit");
  assert.equal(expectError(await post({ rotation: { strategy: "sometimes" } }), 400, "INVALID_FIELD").field, "rotation.strategy");
  assert.equal(expectError(await post({ name: undefined }), 400, "MISSING_REQUIRED_FIELD").field, "name");
  assert.equal(expectError(await biz.test.post("/v1/api-keys", { name: "x" }), 400, "MISSING_REQUIRED_FIELD").field, "scopes");
  assert.equal(expectError(await post({ secret: "mine" }), 400, "INVALID_FIELD").field, "secret");
  assert.equal((await biz.test.get("/v1/api-keys?name=x")).body.data.length, 0);
});

test("expiresInDays sets the expiry; an expired key is listed as expired and refused", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"], expiresInDays: 90 });
  assert.ok(near(k.expiresAt, Date.now() + 90 * DAY_MS));
  await setKeyExpiry(k.id);
  expectError(await client(k.key).get("/v1/products"), 401, "API_KEY_EXPIRED");
  assert.equal((await biz.test.get(`/v1/api-keys/${k.id}`)).body.data.status, "expired");
  const expired = (await biz.test.get("/v1/api-keys?status=expired")).body.data.map((x: { id: string }) => x.id);
  assert.deepEqual(expired, [k.id]);
});

test("PATCH changes name, scopes, restrictions, rate limit, expiry and metadata, effective on the next request", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read", "products:write"] });
  const api = client(k.key);
  assert.equal((await api.post("/v1/products", { name: "before", type: "API" })).status, 201);

  const expiresAt = new Date(Date.now() + 10 * DAY_MS).toISOString();
  const res = await biz.test.patch(`/v1/api-keys/${k.id}`, {
    name: "Renamed",
    scopes: ["products:read"],
    rateLimit: 60,
    expiresAt,
    metadata: { owner: "ops" },
    restrictions: { referrerWhitelist: ["example.com"] },
    rotation: { strategy: "manual", gracePeriod: 1 },
  });
  assert.equal(res.status, 200, res.text.slice(0, 300));
  const d = res.body.data;
  assert.equal(d.name, "Renamed");
  assert.deepEqual(d.scopes, ["products:read"]);
  assert.equal(d.rateLimit, 60);
  assert.equal(Date.parse(d.expiresAt), Date.parse(expiresAt));
  assert.deepEqual(d.metadata, { owner: "ops" });
  assert.deepEqual(d.restrictions, { referrerWhitelist: ["example.com"] });
  assert.deepEqual(d.rotation, { strategy: "manual", gracePeriod: 1 });
  assert.notEqual(d.key, k.key);
  assert.deepEqual((await biz.test.get(`/v1/api-keys/${k.id}`)).body.data, d);

  // The very next request sees the new scopes and the referrer list.
  expectError(
    await api.post("/v1/products", { name: "after", type: "API" }, { referer: "https://example.com/" }),
    403,
    "INSUFFICIENT_SCOPE",
  );
  expectError(await api.get("/v1/products"), 403, "REFERRER_NOT_ALLOWED");
  assert.equal((await api.get("/v1/products", { referer: "https://example.com/page" })).status, 200);

  // null clears restrictions and metadata.
  const cleared = await biz.test.patch(`/v1/api-keys/${k.id}`, { restrictions: null, metadata: null, expiresAt: null });
  assert.equal(cleared.body.data.restrictions, null);
  assert.equal(cleared.body.data.metadata, null);
  assert.equal(cleared.body.data.expiresAt, null);
  assert.equal((await api.get("/v1/products")).status, 200);

  assert.equal(
    expectError(
      await biz.test.patch(`/v1/api-keys/${k.id}`, { expiresAt: new Date(Date.now() - 1000).toISOString() }),
      400,
      "INVALID_FIELD",
    ).field,
    "expiresAt",
  );
  assert.equal(expectError(await biz.test.patch(`/v1/api-keys/${k.id}`, { key: "sk_test_mine" }), 400, "INVALID_FIELD").field, "key");
  expectError(await biz.test.patch("/v1/api-keys/key_00000000000000000000000000", { name: "x" }), 404, "RESOURCE_NOT_FOUND");
});

test("adding a scope takes effect on the next request too", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  const api = client(k.key);
  expectError(await api.get("/v1/versions"), 403, "INSUFFICIENT_SCOPE");
  assert.equal((await biz.test.patch(`/v1/api-keys/${k.id}`, { scopes: ["products:read", "versions:read"] })).status, 200);
  assert.equal((await api.get("/v1/versions")).status, 200);
});

test("DELETE revokes: 204, and the very next request with the key is 401 API_KEY_REVOKED", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  const api = client(k.key);
  assert.equal((await api.get("/v1/products")).status, 200);
  const del = await biz.test.delete(`/v1/api-keys/${k.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.text, "");
  const e = expectError(await api.get("/v1/products"), 401, "API_KEY_REVOKED");
  assert.equal(e.type, "authentication_error");
  assert.ok(!JSON.stringify(e).includes(k.key.slice(8)));
  expectError(await client("").get(`/v1/products?api_key=${k.key}`), 401, "API_KEY_REVOKED");

  const read = (await biz.test.get(`/v1/api-keys/${k.id}`)).body.data;
  assert.equal(read.status, "revoked");
  assert.ok(near(read.revokedAt, Date.now()));
  assert.deepEqual(
    (await biz.test.get("/v1/api-keys?status=revoked")).body.data.map((x: { id: string }) => x.id),
    [k.id],
  );
  // Revoking again changes nothing; a revoked key cannot be changed or rotated.
  assert.equal((await biz.test.delete(`/v1/api-keys/${k.id}`)).status, 204);
  assert.equal((await biz.test.get(`/v1/api-keys/${k.id}`)).body.data.revokedAt, read.revokedAt);
  expectError(await biz.test.patch(`/v1/api-keys/${k.id}`, { name: "back" }), 409, "STATE_CONFLICT");
  expectError(await biz.test.post(`/v1/api-keys/${k.id}/rotate`, {}), 409, "STATE_CONFLICT");
});

test("a key that revokes itself is refused on its next request", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["api_keys:delete", "products:read"] });
  const api = client(k.key);
  assert.equal((await api.delete(`/v1/api-keys/${k.id}`)).status, 204);
  expectError(await api.get("/v1/products"), 401, "API_KEY_REVOKED");
});

test("rotate: a new key named '(rotated)' with the same permissions; the old one works for 7 more days", async () => {
  const biz = await seedBusiness("enterprise");
  const old = await createKey(biz.test, {
    name: "Checkout",
    scopes: ["products:read", "prices:read"],
    rateLimit: 50,
    metadata: { app: "checkout" },
    restrictions: { ipWhitelist: ["127.0.0.1", "::1"] },
  });
  assert.equal((await client(old.key).get("/v1/products")).status, 200);
  const res = await biz.test.post(`/v1/api-keys/${old.id}/rotate`, {});
  assert.equal(res.status, 201, res.text.slice(0, 300));
  const fresh = res.body.data;
  assert.match(fresh.key, KEY_SHAPE);
  assert.notEqual(fresh.key, old.key);
  assert.notEqual(fresh.id, old.id);
  assert.equal(fresh.name, "Checkout (rotated)");
  assert.equal(fresh.environment, "test");
  assert.deepEqual(fresh.scopes, old.scopes);
  assert.deepEqual(fresh.restrictions, old.restrictions);
  assert.equal(fresh.rateLimit, 50);
  assert.deepEqual(fresh.metadata, { app: "checkout" });
  assert.equal(fresh.rotatedFromId, old.id);
  assert.equal(fresh.rotatedFrom.id, old.id);
  assert.ok(near(fresh.rotatedFrom.expiresAt, Date.now() + 7 * DAY_MS), fresh.rotatedFrom.expiresAt);

  const oldRead = (await biz.test.get(`/v1/api-keys/${old.id}`)).body.data;
  assert.equal(oldRead.expiresAt, fresh.rotatedFrom.expiresAt);
  assert.equal(oldRead.status, "active");
  // Both work during the grace period.
  assert.equal((await client(old.key).get("/v1/products")).status, 200);
  assert.equal((await client(fresh.key).get("/v1/products")).status, 200);
  // Reads of the new key are masked like any other.
  assert.ok(!(await biz.test.get(`/v1/api-keys/${fresh.id}`)).text.includes(fresh.key.slice(8)));

  // Rotating the rotated key keeps one marker.
  const again = await biz.test.post(`/v1/api-keys/${fresh.id}/rotate`, {});
  assert.equal(again.body.data.name, "Checkout (rotated)");
});

test("rotation settings are stored per key and their grace period is honoured", async () => {
  const biz = await seedBusiness("enterprise");
  const rotation = { strategy: "automatic", maxAge: 60, gracePeriod: 2, notificationDays: [7, 1] };
  const k = await createKey(biz.test, { scopes: ["products:read"], rotation });
  assert.deepEqual((await biz.test.get(`/v1/api-keys/${k.id}`)).body.data.rotation, rotation);
  const res = await biz.test.post(`/v1/api-keys/${k.id}/rotate`);
  assert.equal(res.status, 201, res.text.slice(0, 300));
  assert.ok(near(res.body.data.rotatedFrom.expiresAt, Date.now() + 2 * DAY_MS), res.body.data.rotatedFrom.expiresAt);
  assert.deepEqual(res.body.data.rotation, rotation);

  // gracePeriodDays in the body wins; 0 ends the old key at once.
  const k2 = await createKey(biz.test, { scopes: ["products:read"], rotation });
  assert.equal((await client(k2.key).get("/v1/products")).status, 200);
  const now2 = await biz.test.post(`/v1/api-keys/${k2.id}/rotate`, { gracePeriodDays: 0 });
  assert.equal(now2.status, 201);
  expectError(await client(k2.key).get("/v1/products"), 401, "API_KEY_EXPIRED");
  assert.equal((await client(now2.body.data.key).get("/v1/products")).status, 200);
  expectError(await biz.test.post(`/v1/api-keys/${k2.id}/rotate`, {}), 409, "STATE_CONFLICT");
  assert.equal(
    expectError(await biz.test.post(`/v1/api-keys/${k.id}/rotate`, { gracePeriodDays: 91 }), 400, "INVALID_FIELD").field,
    "gracePeriodDays",
  );
});

test("a key expiring before the grace period ends keeps its earlier expiry; the new key gets a fresh lifetime", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"], expiresInDays: 3 });
  const res = await biz.test.post(`/v1/api-keys/${k.id}/rotate`, {});
  assert.equal(res.status, 201);
  assert.equal(Date.parse(res.body.data.rotatedFrom.expiresAt), Date.parse(k.expiresAt));
  assert.ok(near(res.body.data.expiresAt, Date.now() + 3 * DAY_MS));
});

test("keys of another business are not found", async () => {
  const a = await seedBusiness("enterprise");
  const b = await seedBusiness("enterprise");
  const k = await createKey(a.test, { scopes: ["products:read"] });
  expectError(await b.test.get(`/v1/api-keys/${k.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.patch(`/v1/api-keys/${k.id}`, { name: "mine" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.delete(`/v1/api-keys/${k.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await b.test.post(`/v1/api-keys/${k.id}/rotate`, {}), 404, "RESOURCE_NOT_FOUND");
  assert.ok(!(await b.test.get("/v1/api-keys?limit=100")).body.data.some((x: { id: string }) => x.id === k.id));
  assert.equal((await client(k.key).get("/v1/products")).status, 200);
});

test("lastUsed is set after a request and written at most once a minute", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  const api = client(k.key);
  const before = Date.now();
  assert.equal((await api.get("/v1/products")).status, 200);
  const read = () => biz.test.get(`/v1/api-keys/${k.id}`).then((r) => r.body.data.lastUsed as string | null);
  const first = await poll(read);
  assert.ok(first, "lastUsed was not set within 10 s");
  assert.ok(Date.parse(first) >= before - 1000 && Date.parse(first) <= Date.now());
  await new Promise((r) => setTimeout(r, 50));
  assert.equal((await api.get("/v1/products")).status, 200);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(await read(), first, "a second request within the minute wrote lastUsed again");
});

test("the list filters by status and name and pages like any collection", async () => {
  const biz = await seedBusiness("enterprise");
  const a = await createKey(biz.test, { name: "alpha", scopes: ["products:read"] });
  const b = await createKey(biz.test, { name: "beta", scopes: ["products:read"] });
  await biz.test.delete(`/v1/api-keys/${b.id}`);
  const active = (await biz.test.get("/v1/api-keys?status=active")).body.data.map((x: { id: string }) => x.id);
  assert.ok(active.includes(a.id) && !active.includes(b.id));
  assert.deepEqual(
    (await biz.test.get("/v1/api-keys?q=alph")).body.data.map((x: { id: string }) => x.id),
    [a.id],
  );
  const page = await biz.test.get("/v1/api-keys?limit=1");
  assert.equal(page.body.data.length, 1);
  assert.equal(page.body.data[0].id, b.id, "newest first");
  assert.equal(page.body.pagination.hasMore, true);
  expectError(await biz.test.get("/v1/api-keys?keyHash=abc"), 400, "INVALID_FILTER");
  expectError(await biz.test.get("/v1/api-keys?status=lost"), 400, "INVALID_PARAMETER");
});
