// /v1/oauth-clients: registering third-party applications. Happy paths, bad input, and what changes to a
// client do to the apps already authorized (deleting revokes, narrowing scopes narrows).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { expectError, seedBusiness } from "../helpers/api";
import { auditRows, db, poll } from "../helpers/db";
import { bearer, portalUser, registerClient, tokensFor } from "../helpers/oauth";

const BODY = {
  name: "Acme Analytics",
  redirectUris: ["https://analytics.example/callback", "http://127.0.0.1:8080/cb"],
  scopes: ["products:read"],
};

describe("POST /v1/oauth-clients", () => {
  it("registers a confidential client: oac_ id, secret shown once and stored as a hash", async () => {
    const { test, businessId } = await seedBusiness();
    const res = await test.post("/v1/oauth-clients", BODY);
    assert.equal(res.status, 201, res.text);
    const c = res.body.data;
    assert.match(c.id, /^oac_[0-9A-Z]{26}$/);
    assert.equal(c.clientType, "confidential");
    assert.match(c.clientSecret, /^ocs_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(c.redirectUris, BODY.redirectUris);
    assert.deepEqual(c.scopes, ["products:read"]);
    assert.equal(c.environment, "test");
    const row = await db.oAuthClient.findUniqueOrThrow({ where: { id: c.id } });
    assert.ok(!JSON.stringify(row).includes(c.clientSecret.slice(4)), "the secret is stored in the clear");
    assert.match(row.secretHash!, /^[0-9a-f]{64}$/);
    const read = await test.get(`/v1/oauth-clients/${c.id}`);
    assert.equal(read.body.data.clientSecret, `ocs_********${c.clientSecret.slice(-4)}`);
    const list = await test.get("/v1/oauth-clients");
    assert.deepEqual(
      list.body.data.map((x: { id: string }) => x.id),
      [c.id],
    );
    assert.ok(!list.text.includes(c.clientSecret));
    await poll(async () => (await auditRows({ businessId, action: "oauth_client.created" })).length > 0, 3_000);
    const events = await test.get("/v1/events?type=resource.created");
    assert.ok(
      events.body.data.some(
        (e: any) => e.data.object === "oauth_client" && e.data.id === c.id && !JSON.stringify(e).includes(c.clientSecret),
      ),
    );
  });

  it("registers a public client without a secret", async () => {
    const { test } = await seedBusiness();
    const res = await test.post("/v1/oauth-clients", { ...BODY, clientType: "public", redirectUris: ["com.example.app:/oauth/callback"] });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.data.clientSecret, null);
  });

  it("refuses unsafe or malformed redirect URIs, naming the field", async () => {
    const { test } = await seedBusiness();
    for (const uri of [
      "http://app.example/cb",
      "https://app.example/cb#frag",
      "javascript:alert(1)",
      "data:text/html,x",
      "/relative",
      "not a url",
    ]) {
      const err = expectError(await test.post("/v1/oauth-clients", { ...BODY, redirectUris: [uri] }), 400, "INVALID_FIELD");
      assert.match(err.field ?? "", /^redirectUris/, uri);
    }
    expectError(await test.post("/v1/oauth-clients", { ...BODY, redirectUris: [] }), 400, "INVALID_FIELD");
    expectError(await test.post("/v1/oauth-clients", { name: "x", scopes: ["products:read"] }), 400, "MISSING_REQUIRED_FIELD");
  });

  it("refuses unknown scopes, and scopes the calling key does not hold", async () => {
    const { test } = await seedBusiness();
    expectError(await test.post("/v1/oauth-clients", { ...BODY, scopes: ["products:admin"] }), 400, "INVALID_FIELD");
    const narrow = await test.post("/v1/api-keys", { name: "narrow", scopes: ["oauth_clients:write", "products:read"] });
    const err = expectError(
      await bearer(narrow.body.data.key).post("/v1/oauth-clients", { ...BODY, scopes: ["products:write"] }),
      403,
      "INSUFFICIENT_SCOPE",
    );
    assert.equal(err.requiredScope, "products:write");
  });

  it("refuses unknown fields and a clientType change", async () => {
    const { test } = await seedBusiness();
    expectError(await test.post("/v1/oauth-clients", { ...BODY, clientSecret: "mine" }), 400, "INVALID_FIELD");
    const c = (await test.post("/v1/oauth-clients", BODY)).body.data;
    expectError(await test.patch(`/v1/oauth-clients/${c.id}`, { clientType: "public" }), 400, "INVALID_FIELD");
  });
});

describe("PATCH and DELETE /v1/oauth-clients/{id}", () => {
  it("updates the name and redirect URIs", async () => {
    const { test } = await seedBusiness();
    const c = (await test.post("/v1/oauth-clients", BODY)).body.data;
    const res = await test.patch(`/v1/oauth-clients/${c.id}`, { name: "Renamed", redirectUris: ["https://new.example/cb"] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.data.name, "Renamed");
    assert.deepEqual(res.body.data.redirectUris, ["https://new.example/cb"]);
  });

  it("narrowing the scopes narrows the apps already authorized", async () => {
    const c = await registerClient();
    const { tokens } = await tokensFor(c, await portalUser());
    const api = bearer(tokens.access_token);
    assert.equal((await api.post("/v1/products", { name: "before", type: "API" })).status, 201);
    const res = await c.owner.patch(`/v1/oauth-clients/${c.id}`, { scopes: ["products:read"] });
    assert.equal(res.status, 200, res.text);
    expectError(await api.post("/v1/products", { name: "after", type: "API" }), 403, "INSUFFICIENT_SCOPE");
    assert.equal((await api.get("/v1/products")).status, 200);
  });

  it("deleting a client revokes every token it holds", async () => {
    const c = await registerClient();
    const { tokens } = await tokensFor(c, await portalUser());
    assert.equal((await bearer(tokens.access_token).get("/v1/products")).status, 200);
    assert.equal((await c.owner.delete(`/v1/oauth-clients/${c.id}`)).status, 204);
    expectError(await bearer(tokens.access_token).get("/v1/products"), 401, "ACCESS_TOKEN_REVOKED");
    expectError(await c.owner.get(`/v1/oauth-clients/${c.id}`), 404, "RESOURCE_NOT_FOUND");
  });

  it("another business cannot see or change the client", async () => {
    const c = await registerClient();
    const other = await seedBusiness();
    expectError(await other.test.get(`/v1/oauth-clients/${c.id}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await other.test.patch(`/v1/oauth-clients/${c.id}`, { name: "mine" }), 404, "RESOURCE_NOT_FOUND");
    expectError(await other.test.delete(`/v1/oauth-clients/${c.id}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await other.test.get("/v1/oauth-clients/oac_bad"), 404, "RESOURCE_NOT_FOUND");
  });
});

describe("OAuth access tokens across /v1", () => {
  it("unknown and malformed tokens are 401 INVALID_ACCESS_TOKEN with an invalid_token challenge", async () => {
    const res = await bearer(`oat_${"x".repeat(43)}`).get("/v1/products");
    expectError(res, 401, "INVALID_ACCESS_TOKEN");
    assert.match(res.headers.get("www-authenticate") ?? "", /error="invalid_token"/);
    expectError(await bearer("oat_short").get("/v1/products"), 401, "INVALID_ACCESS_TOKEN");
    // A refresh token is not an access token.
    const c = await registerClient();
    const { tokens } = await tokensFor(c, await portalUser());
    expectError(await bearer(tokens.refresh_token!).get("/v1/products"), 401, "INVALID_API_KEY");
  });

  it("refusals are audited against the client", async () => {
    const c = await registerClient({ scopes: ["products:read"] });
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user, { scope: "products:read" });
    expectError(await bearer(tokens.access_token).get("/v1/webhooks"), 403, "INSUFFICIENT_SCOPE");
    const rows = await poll(async () => {
      const r = await auditRows({ businessId: user.businessId, action: "auth.denied" });
      return r.length ? r : null;
    }, 3_000);
    assert.equal(rows?.[0].actorType, "oauth_client");
    assert.equal(rows?.[0].actorId, c.id);
  });
});
