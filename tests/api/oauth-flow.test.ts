// The OAuth 2.0 authorization-code flow end to end, driven by oauth4webapi (a standards-compliant client):
// discovery (RFC 8414), authorization with PKCE and consent, code exchange, the token on /v1 like a key,
// refresh with rotation, revocation (RFC 7009), and the public-client variant.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, createProduct, expectError, seedBusiness } from "../helpers/api";
import { auditRows, db, poll } from "../helpers/db";
import {
  authorizationServer,
  authorizationUrl,
  bearer,
  insecure,
  oauth,
  openConsent,
  portalUser,
  registerClient,
  REDIRECT_URI,
  tokensFor,
  authorizeCode,
} from "../helpers/oauth";

describe("authorization server metadata", () => {
  it("is served at /.well-known/oauth-authorization-server and accepted by oauth4webapi", async () => {
    const as = await authorizationServer();
    assert.equal(as.issuer, BASE_URL);
    assert.equal(as.token_endpoint, `${BASE_URL}/oauth/token`);
    assert.equal(as.revocation_endpoint, `${BASE_URL}/oauth/revoke`);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(as.grant_types_supported, ["authorization_code", "refresh_token"]);
    assert.ok((as.scopes_supported as string[]).includes("oauth_clients:read"));
  });

  it("the OpenAPI document declares the oauth2 authorization-code scheme, and each route's scope", async () => {
    const doc = (await (await fetch(`${BASE_URL}/v1/openapi.json`)).json()) as any;
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    assert.equal(flow.authorizationUrl, `${BASE_URL}/oauth/authorize`);
    assert.equal(flow.tokenUrl, `${BASE_URL}/oauth/token`);
    assert.equal(flow.scopes["products:read"], "See your products");
    assert.deepEqual(doc.paths["/v1/products"].get.security.find((s: Record<string, string[]>) => s.oauth2).oauth2, ["products:read"]);
  });
});

describe("authorization-code flow (confidential client, client_secret_basic, PKCE)", () => {
  it("issues a Bearer token that acts on the user's business like a key with the granted scopes", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user);
    assert.equal(tokens.token_type.toLowerCase(), "bearer");
    assert.match(tokens.access_token, /^oat_[A-Za-z0-9_-]{43}$/);
    assert.match(tokens.refresh_token!, /^ort_[A-Za-z0-9_-]{43}$/);
    assert.equal(tokens.expires_in, 3600);
    assert.equal(tokens.scope, "products:read products:write");

    const api = bearer(tokens.access_token);
    const created = await api.post("/v1/products", { name: "Made by an app", type: "API" });
    assert.equal(created.status, 201, created.text);
    // It landed in the authorizing user's business, test environment, and nowhere else.
    const row = await db.product.findUnique({ where: { id: created.body.data.id } });
    assert.equal(row?.businessId, user.businessId);
    assert.equal(row?.environment, "test");
    const list = await api.get("/v1/products");
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((p: { id: string }) => p.id),
      [created.body.data.id],
    );
    assert.ok(list.headers.get("x-ratelimit-limit"), "rate-limit headers are sent");
    // A scope the grant lacks is refused like a key's.
    expectError(await api.get("/v1/webhooks"), 403, "INSUFFICIENT_SCOPE");
  });

  it("records usage and logs attributed to the client and the user who authorized it", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user);
    const res = await bearer(tokens.access_token).get("/v1/products?limit=1");
    assert.equal(res.status, 200);
    const requestId = res.headers.get("x-request-id")!;
    const log = await poll(() => db.requestLog.findFirst({ where: { id: requestId } }), 5_000);
    assert.ok(log, "a request log was written");
    assert.equal(log.apiKey, c.id);
    assert.equal(log.businessId, user.businessId);
    assert.ok(!JSON.stringify(log.requestHeaders).includes(tokens.access_token), "the token is redacted from the log");
    const usage = await poll(() => db.usageEvent.findFirst({ where: { businessId: user.businessId, apiKey: c.id } }), 5_000);
    assert.equal(usage?.userId, user.userId);
    // The grant's lastUsed moves, not some API key's.
    const grant = await poll(() => db.oAuthGrant.findFirst({ where: { clientId: c.id, lastUsed: { not: null } } }), 5_000);
    assert.ok(grant);
  });

  it("refresh rotates the refresh token; the old one replayed revokes the whole grant", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user);
    const r1 = await oauth.processRefreshTokenResponse(
      c.as,
      c.client,
      await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, insecure),
    );
    assert.notEqual(r1.refresh_token, tokens.refresh_token);
    assert.notEqual(r1.access_token, tokens.access_token);
    assert.equal((await bearer(r1.access_token).get("/v1/products")).status, 200);
    // The first refresh token again: refused, and every token of the grant stops working.
    const replay = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, insecure);
    await assert.rejects(
      oauth.processRefreshTokenResponse(c.as, c.client, replay),
      (e: oauth.ResponseBodyError) => e.error === "invalid_grant",
    );
    expectError(await bearer(r1.access_token).get("/v1/products"), 401, "ACCESS_TOKEN_REVOKED");
    const again = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, r1.refresh_token!, insecure);
    await assert.rejects(
      oauth.processRefreshTokenResponse(c.as, c.client, again),
      (e: oauth.ResponseBodyError) => e.error === "invalid_grant",
    );
    const audits = await poll(
      async () =>
        (await auditRows({ businessId: user.businessId, action: "oauth.token_denied" })).length >= 2
          ? auditRows({ businessId: user.businessId, action: "oauth.token_denied" })
          : null,
      3_000,
    );
    assert.ok(audits?.some((a) => (a.details as { reason?: string }).reason === "refresh_token_replayed"));
  });

  it("refresh with a narrower scope narrows the new access token only", async () => {
    const c = await registerClient();
    const { tokens } = await tokensFor(c, await portalUser());
    const res = await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, {
      ...insecure,
      additionalParameters: { scope: "products:read" },
    });
    const r = await oauth.processRefreshTokenResponse(c.as, c.client, res);
    assert.equal(r.scope, "products:read");
    const api = bearer(r.access_token);
    assert.equal((await api.get("/v1/products")).status, 200);
    expectError(await api.post("/v1/products", { name: "x", type: "API" }), 403, "INSUFFICIENT_SCOPE");
  });

  it("revocation (RFC 7009): an access token alone, or a refresh token with its whole grant", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user);
    await oauth.processRevocationResponse(await oauth.revocationRequest(c.as, c.client, c.auth, tokens.access_token, insecure));
    expectError(await bearer(tokens.access_token).get("/v1/products"), 401, "ACCESS_TOKEN_REVOKED");
    // The refresh token still works, and gives a working access token.
    const r = await oauth.processRefreshTokenResponse(
      c.as,
      c.client,
      await oauth.refreshTokenGrantRequest(c.as, c.client, c.auth, tokens.refresh_token!, insecure),
    );
    assert.equal((await bearer(r.access_token).get("/v1/products")).status, 200);
    await oauth.processRevocationResponse(await oauth.revocationRequest(c.as, c.client, c.auth, r.refresh_token!, insecure));
    expectError(await bearer(r.access_token).get("/v1/products"), 401, "ACCESS_TOKEN_REVOKED");
    // Unknown tokens are answered 200 as well (nothing to reveal).
    await oauth.processRevocationResponse(await oauth.revocationRequest(c.as, c.client, c.auth, "oat_unknown", insecure));
  });

  it("an expired access token is a 401 ACCESS_TOKEN_EXPIRED", async () => {
    const c = await registerClient();
    const { tokens } = await tokensFor(c, await portalUser());
    // Expired in the database before its first use, so no server cache holds the older expiry.
    const grant = await db.oAuthGrant.findFirstOrThrow({ where: { clientId: c.id } });
    await db.oAuthToken.updateMany({ where: { grantId: grant.id, kind: "access" }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expectError(await bearer(tokens.access_token).get("/v1/products"), 401, "ACCESS_TOKEN_EXPIRED");
  });
});

describe("the grant's environment is the client's", () => {
  it("a client registered with a live key acts on the user's live data, and says so on the consent page", async () => {
    const owner = await seedBusiness();
    const c = await registerClient({}, { api: owner.live, key: owner.liveKey });
    const user = await portalUser();
    const { url } = await authorizationUrl(c);
    const consent = await openConsent(user, url);
    assert.match(consent.html ?? "", /live data/);
    const { tokens } = await tokensFor(c, user);
    const made = await bearer(tokens.access_token).post("/v1/products", { name: "Live by an app", type: "API" });
    assert.equal(made.status, 201, made.text);
    assert.equal((await db.product.findUnique({ where: { id: made.body.data.id } }))?.environment, "production");
    assert.equal((await db.oAuthGrant.findFirstOrThrow({ where: { clientId: c.id } })).environment, "production");
  });
});

describe("rate limits count per grant", () => {
  it("a free-plan business's token meets the plan's burst; another authorization has its own bucket", async () => {
    const c = await registerClient({ scopes: ["products:read"] });
    const user = await portalUser();
    await db.business.update({ where: { id: user.businessId }, data: { plan: "free" } });
    const first = await tokensFor(c, user, { scope: "products:read" });
    const second = await tokensFor(c, user, { scope: "products:read" });
    const api = bearer(first.tokens.access_token);
    const statuses: number[] = [];
    for (let i = 0; i < 25 && !statuses.includes(429); i++) statuses.push((await api.get("/v1/products?limit=1")).status);
    assert.equal(statuses.at(-1), 429, statuses.join(","));
    assert.ok(statuses.length >= 20, `refused after ${statuses.length - 1} requests`);
    assert.equal((await bearer(second.tokens.access_token).get("/v1/products?limit=1")).status, 200);
  });
});

describe("housekeeping and browser clients", () => {
  it("the jobs purge codes and tokens a day past expiry, keeping the grant", async () => {
    const c = await registerClient();
    await tokensFor(c, await portalUser());
    const grant = await db.oAuthGrant.findFirstOrThrow({ where: { clientId: c.id } });
    const old = new Date(Date.now() - 2 * 86_400_000);
    await db.oAuthCode.updateMany({ where: { clientId: c.id }, data: { expiresAt: old } });
    await db.oAuthToken.updateMany({ where: { grantId: grant.id }, data: { expiresAt: old } });
    const { purgeExpiredOAuth } = await import("@/lib/oauth/purge-expired");
    const purged = await purgeExpiredOAuth();
    assert.ok(purged.codes >= 1 && purged.tokens >= 2, JSON.stringify(purged));
    assert.equal(await db.oAuthCode.count({ where: { clientId: c.id } }), 0);
    assert.equal(await db.oAuthToken.count({ where: { grantId: grant.id } }), 0);
    assert.ok(await db.oAuthGrant.findUnique({ where: { id: grant.id } }));
  });

  it("the token endpoint answers CORS preflights, for browser apps", async () => {
    const res = await fetch(`${BASE_URL}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://spa.example", "access-control-request-method": "POST" },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-allow-headers") ?? "", /Authorization/);
  });
});

describe("public client (no secret, PKCE required)", () => {
  it("completes the flow with token_endpoint_auth_method none", async () => {
    const c = await registerClient({ clientType: "public", scopes: ["products:read"] });
    assert.equal(c.secret, null);
    const user = await portalUser();
    const { tokens } = await tokensFor(c, user, { scope: "products:read" });
    const owned = await createProduct((await seedBusiness()).test);
    const res = await bearer(tokens.access_token).get(`/v1/products/${owned.id}`);
    expectError(res, 404, "RESOURCE_NOT_FOUND");
    assert.equal((await bearer(tokens.access_token).get("/v1/products")).status, 200);
  });

  it("omitting scope grants the client's allowed scopes", async () => {
    const c = await registerClient({ clientType: "public", scopes: ["products:read", "usage:read"] });
    const { tokens } = await tokensFor(c, await portalUser(), { scope: null });
    assert.equal(tokens.scope, "products:read usage:read");
  });
});

describe("consent by a user whose role is narrower than the request", () => {
  it("a viewer grants only the read scopes", async () => {
    const owner = await portalUser();
    const viewer = await portalUser({ businessId: owner.businessId, role: "viewer" });
    const c = await registerClient();
    const { callback, verifier, state } = await authorizeCode(c, viewer);
    const params = oauth.validateAuthResponse(c.as, c.client, callback, state);
    const t = await oauth.processAuthorizationCodeResponse(
      c.as,
      c.client,
      await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, REDIRECT_URI, verifier, insecure),
    );
    assert.equal(t.scope, "products:read");
  });
});
