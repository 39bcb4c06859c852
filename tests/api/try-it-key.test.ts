// The docs' try-it key (lib/keys/try-it-key.ts) never shows in GET /v1/api-keys, and nobody can hide a key of
// their own by claiming its metadata purpose.
import { test } from "node:test";
import assert from "node:assert/strict";
import { TRY_IT_METADATA, tryItScopes } from "@/lib/keys/try-it-key";
import { expectError, seedBusiness } from "../helpers/api";
import { db } from "../helpers/db";

test("a try-it key is left out of the key list but can still be read by id", async () => {
  const biz = await seedBusiness();
  const made = await biz.test.post("/v1/api-keys", { name: "Docs try-it probe", scopes: ["products:read"] });
  assert.equal(made.status, 201, made.text.slice(0, 300));
  const visible = await biz.test.post("/v1/api-keys", { name: "Visible", scopes: ["products:read"], metadata: { purpose: "ci" } });
  assert.equal(visible.status, 201, visible.text.slice(0, 300));
  const id = made.body.data.id as string;
  const before = await biz.test.get("/v1/api-keys?limit=100");
  assert.ok(
    before.body.data.some((k: { id: string }) => k.id === id),
    "an ordinary key is listed",
  );

  // What the portal's issueTryItKeyAction writes (through createKeyForCaller with the try-it option).
  await db.apiKey.update({ where: { id }, data: { metadata: TRY_IT_METADATA } });
  const after = await biz.test.get("/v1/api-keys?limit=100");
  const ids = after.body.data.map((k: { id: string }) => k.id);
  assert.ok(!ids.includes(id), "the try-it key is not listed");
  assert.ok(ids.includes(visible.body.data.id), "keys with other metadata still are");
  assert.ok(after.body.data.length >= 2, "keys without metadata still are");
  assert.equal((await biz.test.get(`/v1/api-keys/${id}`)).status, 200);
});

test("the try-it purpose is reserved: create and update refuse it", async () => {
  const biz = await seedBusiness();
  const e = expectError(
    await biz.test.post("/v1/api-keys", { name: "Hidden", scopes: ["products:read"], metadata: { ...TRY_IT_METADATA } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(e.field, "metadata");
  const made = await biz.test.post("/v1/api-keys", { name: "Later hidden", scopes: ["products:read"] });
  const u = expectError(
    await biz.test.patch(`/v1/api-keys/${made.body.data.id}`, { metadata: { ...TRY_IT_METADATA } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(u.field, "metadata");
});

test("a try-it key never holds '*' and cannot make keys", () => {
  const scopes = tryItScopes(["*"]);
  assert.ok(!scopes.includes("*"));
  assert.ok(scopes.includes("products:*"));
  assert.ok(scopes.includes("api_keys:read"));
  assert.ok(!scopes.some((s) => s === "api_keys:*" || s === "api_keys:write" || s === "oauth_clients:write"));
  assert.deepEqual(tryItScopes(["products:read", "logs:read"]), ["products:read", "logs:read"]);
});
