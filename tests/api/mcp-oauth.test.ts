// OAuth for MCP clients, over real HTTP against the real server: an MCP client that knows only {base}/mcp/{slug}
// finds the protected resource metadata (RFC 9728) and the authorization server's metadata, registers itself
// (RFC 7591), is authorized with PKCE and a resource indicator (RFC 8707) on the consent page, and gets tokens bound
// to that product: refused on /v1 and on another product's gateway, accepted on the product's own /gw; refresh keeps
// the binding; an unknown resource is invalid_target.
import { describe, it, before, after } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, expectError, seedBusiness } from "../helpers/api";
import { db } from "../helpers/db";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { bearer, decide, oauth, openConsent, portalUser, postForm, REDIRECT_URI, type PortalUser } from "../helpers/oauth";
import { startServer, type TestServer } from "../helpers/server";

let upstream: JsonUpstream;
let provider: Awaited<ReturnType<typeof seedBusiness>>;
let weather: Awaited<ReturnType<typeof publishApiProduct>>;
let other: Awaited<ReturnType<typeof publishApiProduct>>;
// Registrations are limited per client address, and every test here registers from 127.0.0.1: they register through
// a second server on the same database that trusts X-Forwarded-For from loopback, each from an address of its own.
let proxied: TestServer;
let addresses = 0;
const freshAddress = () => `198.51.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

before(async () => {
  proxied = await startServer({
    TRUSTED_PROXIES: "127.0.0.1,::1",
    DATABASE_URL: process.env.DATABASE_URL!,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
  });
  upstream = await startJsonUpstream();
  provider = await seedBusiness();
  weather = await publishApiProduct(provider.test, { upstreamUrl: upstream.url, name: `MCP Weather ${Date.now().toString(36)}` });
  other = await publishApiProduct(provider.test, { upstreamUrl: upstream.url });
});
after(async () => {
  upstream.close();
  await proxied.stop();
});

const resourceOf = (slug: string) => `${BASE_URL}/mcp/${slug}`;

async function getJson(path: string) {
  const res = await fetch(`${BASE_URL}${path}`);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

async function register(body: Record<string, unknown>, from = freshAddress()) {
  const res = await fetch(`${proxied.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

async function registerMcpClient(name = "Claude-like agent") {
  const res = await register({ client_name: name, redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.client_id as string;
}

/** A consumer business subscribed (test environment) to `priceIds`, and its owner signed in to the portal. */
async function consumer(priceIds: string[]) {
  const b = await seedBusiness();
  for (const id of priceIds) await subscribe(b.test, id);
  const user = await portalUser({ businessId: b.businessId });
  return { b, user };
}

async function authorizeUrl(clientId: string, extra: Record<string, string | null> = {}) {
  const verifier = oauth.generateRandomCodeVerifier();
  const url = new URL(`${BASE_URL}/oauth/authorize`);
  const params: Record<string, string | null> = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    state: "st-123",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    resource: resourceOf(weather.slug),
    ...extra,
  };
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  return { url, verifier };
}

/** Authorize with consent (paying project chosen as `target`), then exchange the code. */
async function boundTokens(clientId: string, user: PortalUser, target: string, extra: Record<string, string | null> = {}) {
  const { url, verifier } = await authorizeUrl(clientId, extra);
  const consent = await openConsent(user, url);
  assert.ok(consent.fields, `no consent page: ${consent.first.status} ${consent.location}`);
  consent.fields.set("target", target);
  const { location } = await decide(user, consent.fields, "approve");
  const callback = new URL(location!);
  const code = callback.searchParams.get("code");
  assert.ok(code, `no code: ${location}`);
  const res = await postForm("/oauth/token", {
    grant_type: "authorization_code",
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: clientId,
    resource: resourceOf(weather.slug),
  });
  assert.equal(res.status, 200, res.text);
  return { tokens: res.body as { access_token: string; refresh_token: string; scope: string }, html: consent.html! };
}

const gw = (slug: string, token: string) =>
  fetch(`${BASE_URL}/gw/${slug}/forecast?city=Oslo`, { headers: { authorization: `Bearer ${token}` } });

async function envelope(res: Response) {
  return { status: res.status, headers: res.headers, body: JSON.parse(await res.text()), text: "" };
}

describe("discovery", () => {
  it("serves protected resource metadata for a public API product's MCP server", async () => {
    const res = await getJson(`/.well-known/oauth-protected-resource/mcp/${weather.slug}`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      resource: resourceOf(weather.slug),
      authorization_servers: [BASE_URL],
      scopes_supported: [`call:${weather.product.id}`],
      bearer_methods_supported: ["header"],
      resource_name: weather.product.name,
      resource_documentation: `${BASE_URL}/p/${weather.slug}`,
    });
  });

  it("answers 404 in the error envelope for an unknown or private product", async () => {
    const unknown = await getJson("/.well-known/oauth-protected-resource/mcp/no-such-product-here");
    expectError(unknown, 404, "RESOURCE_NOT_FOUND");
    const hidden = await publishApiProduct(provider.test, { upstreamUrl: upstream.url });
    assert.equal((await getJson(`/.well-known/oauth-protected-resource/mcp/${hidden.slug}`)).status, 200);
    const made = await provider.test.patch(`/v1/products/${hidden.product.id}`, { visibility: "private" });
    assert.equal(made.status, 200, made.text);
    expectError(await getJson(`/.well-known/oauth-protected-resource/mcp/${hidden.slug}`), 404, "RESOURCE_NOT_FOUND");
  });

  it("advertises registration and S256 in the authorization server metadata, also at the MCP server's path", async () => {
    for (const path of ["/.well-known/oauth-authorization-server", `/.well-known/oauth-authorization-server/mcp/${weather.slug}`]) {
      const res = await getJson(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.body.issuer, BASE_URL);
      assert.equal(res.body.registration_endpoint, `${BASE_URL}/oauth/register`);
      assert.deepEqual(res.body.code_challenge_methods_supported, ["S256"]);
      assert.ok(res.body.token_endpoint_auth_methods_supported.includes("none"));
    }
  });
});

describe("dynamic client registration (RFC 7591)", () => {
  it("registers a public client with loopback and https redirect URIs", async () => {
    const uris = [
      "http://127.0.0.1:33418/callback",
      "http://localhost:6274/oauth/callback",
      "http://[::1]:9000/cb",
      "https://agent.example.com/cb",
    ];
    const res = await register({ client_name: "Inspector", redirect_uris: uris, grant_types: ["authorization_code", "refresh_token"] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.client_id, /^oac_[0-9A-Z]{26}$/);
    assert.equal(typeof res.body.client_id_issued_at, "number");
    assert.ok(Math.abs(res.body.client_id_issued_at - Date.now() / 1000) < 600);
    assert.deepEqual(res.body.redirect_uris, uris);
    assert.deepEqual(res.body.grant_types, ["authorization_code", "refresh_token"]);
    assert.deepEqual(res.body.response_types, ["code"]);
    assert.equal(res.body.token_endpoint_auth_method, "none");
    assert.equal(res.body.client_name, "Inspector");
    assert.equal(res.body.client_secret, undefined);
    const row = await db.oAuthClient.findUniqueOrThrow({ where: { id: res.body.client_id } });
    assert.equal(row.businessId, null);
    assert.equal(row.registration, "dynamic");
    assert.equal(row.clientType, "public");
    // No business lists it, or can read it.
    const b = await seedBusiness();
    const list = await b.test.get("/v1/oauth-clients?limit=100");
    assert.equal(list.status, 200);
    assert.ok(!list.body.data.some((c: { id: string }) => c.id === res.body.client_id));
    expectError(await b.test.get(`/v1/oauth-clients/${res.body.client_id}`), 404, "RESOURCE_NOT_FOUND");
  });

  it("refuses redirect URIs that are not https or loopback http", async () => {
    for (const uri of [
      "http://example.com/callback",
      "http://192.0.2.10/callback",
      "http://10.0.0.1/cb",
      "http://localhost.example.com/cb",
      "com.example.app:/callback",
      "javascript:alert(1)",
      "https://agent.example.com/cb#frag",
      "https://user:pw@agent.example.com/cb",
      "not a url",
    ]) {
      const res = await register({ client_name: "x", redirect_uris: [REDIRECT_URI, uri] });
      assert.equal(res.status, 400, uri);
      assert.equal(res.body.error, "invalid_redirect_uri", uri);
      assert.equal(typeof res.body.error_description, "string");
    }
    for (const body of [{ client_name: "no uris" }, { redirect_uris: [] }, { redirect_uris: "http://127.0.0.1/cb" }]) {
      const res = await register(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error, "invalid_redirect_uri", JSON.stringify(body));
    }
  });

  it("refuses confidential clients and other grant or response types as invalid_client_metadata", async () => {
    for (const extra of [
      { token_endpoint_auth_method: "client_secret_basic" },
      { token_endpoint_auth_method: "client_secret_post" },
      { grant_types: ["client_credentials"] },
      { grant_types: ["authorization_code", "implicit"] },
      { response_types: ["token"] },
      { client_name: 42 },
    ]) {
      const res = await register({ redirect_uris: [REDIRECT_URI], ...extra });
      assert.equal(res.status, 400, JSON.stringify(extra));
      assert.equal(res.body.error, "invalid_client_metadata", JSON.stringify(extra));
    }
    const form = await fetch(`${proxied.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": freshAddress() },
      body: `redirect_uris=${encodeURIComponent(REDIRECT_URI)}`,
    });
    assert.equal(form.status, 400);
    assert.equal(((await form.json()) as { error: string }).error, "invalid_client_metadata");
  });

  it("limits registrations per client address: the eleventh at once is a 429 with Retry-After", async () => {
    const from = "203.0.113.77";
    const good = { client_name: "burst", redirect_uris: [REDIRECT_URI] };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await register(good, from)).status);
    assert.deepEqual(statuses, Array(10).fill(201));
    const refused = await register(good, from);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, "too_many_requests");
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    // Another address is not affected.
    assert.equal((await register(good, "203.0.113.78")).status, 201);
  });

  it("is also answered by the suite's server (no proxy in front)", async () => {
    const res = await fetch(`${BASE_URL}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://example.com/cb"] }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, "invalid_redirect_uri");
  });
});

describe("authorization bound to a product's MCP server (RFC 8707)", () => {
  it("issues tokens bound to the product: refused on /v1 and another product's gateway, accepted on its own", async () => {
    const clientId = await registerMcpClient();
    const { b, user } = await consumer([weather.price.id, other.price.id]);
    const { tokens, html } = await boundTokens(clientId, user, `${b.projectId}:test`);
    // The consent page named the product, the paying subscription and its plan.
    assert.ok(html.includes(weather.product.name), "the consent page names the product");
    assert.ok(html.includes("Basic"), "the consent page names the plan");
    assert.ok(html.includes("registered itself"), "the consent page says the client registered itself");
    assert.ok(!html.includes('data-testid="consent-unsubscribed"'));

    assert.equal(tokens.scope, `call:${weather.product.id}`);
    const grant = await db.oAuthGrant.findFirstOrThrow({ where: { clientId } });
    assert.equal(grant.resource, resourceOf(weather.slug));
    assert.equal(grant.projectId, b.projectId);
    assert.equal(grant.environment, "test");
    assert.deepEqual(grant.scopes, [`call:${weather.product.id}`]);
    const stored = await db.oAuthToken.findMany({ where: { grantId: grant.id } });
    assert.equal(stored.length, 2);
    assert.ok(stored.every((t) => t.resource === resourceOf(weather.slug)));
    assert.equal((await db.oAuthCode.findFirstOrThrow({ where: { clientId } })).resource, resourceOf(weather.slug));

    const onApi = expectError(await bearer(tokens.access_token).get("/v1/products"), 401, "TOKEN_AUDIENCE_MISMATCH");
    assert.match(onApi.message, /bound to/);
    const own = await gw(weather.slug, tokens.access_token);
    assert.equal(own.status, 200, await own.clone().text());
    assert.deepEqual(await own.json(), { path: "/forecast?city=Oslo" });
    const elsewhere = await envelope(await gw(other.slug, tokens.access_token));
    expectError(elsewhere, 401, "TOKEN_AUDIENCE_MISMATCH");
    assert.match(elsewhere.headers.get("www-authenticate") ?? "", /invalid_token/);
    // The consumer's own key still calls the other product: the refusal was the token's binding.
    const byKey = await fetch(`${BASE_URL}/gw/${other.slug}/x`, { headers: { authorization: `Bearer ${b.testKey}` } });
    assert.equal(byKey.status, 200);
  });

  it("refresh keeps the binding; naming another resource on refresh is invalid_target", async () => {
    const clientId = await registerMcpClient();
    const { b, user } = await consumer([weather.price.id]);
    const { tokens } = await boundTokens(clientId, user, `${b.projectId}:test`);
    const wrong = await postForm("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: tokens.refresh_token,
      client_id: clientId,
      resource: resourceOf(other.slug),
    });
    assert.equal(wrong.status, 400, wrong.text);
    assert.equal(wrong.body.error, "invalid_target");
    const res = await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    assert.equal(res.status, 200, res.text);
    assert.notEqual(res.body.access_token, tokens.access_token);
    assert.equal(res.body.scope, `call:${weather.product.id}`);
    expectError(await bearer(res.body.access_token).get("/v1/products"), 401, "TOKEN_AUDIENCE_MISMATCH");
    assert.equal((await gw(weather.slug, res.body.access_token)).status, 200);
    expectError(await envelope(await gw(other.slug, res.body.access_token)), 401, "TOKEN_AUDIENCE_MISMATCH");
    const again = await postForm("/oauth/token", {
      grant_type: "refresh_token",
      refresh_token: res.body.refresh_token,
      client_id: clientId,
      resource: resourceOf(weather.slug),
    });
    assert.equal(again.status, 200, again.text);
    const grant = await db.oAuthGrant.findFirstOrThrow({ where: { clientId } });
    const all = await db.oAuthToken.findMany({ where: { grantId: grant.id } });
    assert.equal(all.length, 6, "three pairs: the code's and two refreshes");
    assert.ok(all.every((t) => t.resource === resourceOf(weather.slug)));
  });

  it("an unknown resource, or one on another host, is invalid_target at the authorization endpoint", async () => {
    const clientId = await registerMcpClient();
    for (const resource of [
      resourceOf("no-such-product-here"),
      `https://evil.example/mcp/${weather.slug}`,
      `${BASE_URL}/gw/${weather.slug}`,
      `${BASE_URL}/mcp/${weather.slug}/extra`,
      "not a url",
    ]) {
      const { url } = await authorizeUrl(clientId, { resource });
      const res = await fetch(url, { redirect: "manual" });
      assert.equal(res.status, 302, resource);
      const location = new URL(res.headers.get("location")!);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI, resource);
      assert.equal(location.searchParams.get("error"), "invalid_target", resource);
      assert.equal(location.searchParams.get("state"), "st-123");
    }
  });

  it("a self-registered client must name a resource", async () => {
    const clientId = await registerMcpClient();
    const { url } = await authorizeUrl(clientId, { resource: null, scope: "products:read" });
    const res = await fetch(url, { redirect: "manual" });
    assert.equal(res.status, 302);
    const location = new URL(res.headers.get("location")!);
    assert.equal(location.searchParams.get("error"), "invalid_request");
    assert.match(location.searchParams.get("error_description")!, /resource is required/);
  });

  it("the token endpoint refuses a resource other than the code's as invalid_target", async () => {
    const clientId = await registerMcpClient();
    const { b, user } = await consumer([weather.price.id]);
    const { url, verifier } = await authorizeUrl(clientId);
    const consent = await openConsent(user, url);
    consent.fields!.set("target", `${b.projectId}:test`);
    const { location } = await decide(user, consent.fields!, "approve");
    const code = new URL(location!).searchParams.get("code")!;
    const res = await postForm("/oauth/token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      client_id: clientId,
      resource: resourceOf(other.slug),
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.error, "invalid_target");
    assert.equal(await db.oAuthGrant.count({ where: { clientId } }), 0);
  });

  it("without a subscription the consent page says so and links to the product portal; calls are refused until subscribed", async () => {
    const clientId = await registerMcpClient();
    const { b, user } = await consumer([]);
    const { tokens, html } = await boundTokens(clientId, user, `${b.projectId}:test`);
    assert.ok(html.includes('data-testid="consent-unsubscribed"'), "the page says there is no subscription");
    assert.ok(html.includes(`href="/p/${weather.slug}"`), "the page links to the product portal to subscribe");
    expectError(await envelope(await gw(weather.slug, tokens.access_token)), 403, "PRODUCT_NOT_SUBSCRIBED");
    await subscribe(b.test, weather.price.id);
    assert.equal((await gw(weather.slug, tokens.access_token)).status, 200);
  });

  it("the OAuth job deletes self-registered clients nobody authorized within a week, and keeps the others", async () => {
    const unused = await registerMcpClient("never used");
    const used = await registerMcpClient("used");
    const { b, user } = await consumer([weather.price.id]);
    await boundTokens(used, user, `${b.projectId}:test`);
    const fresh = await registerMcpClient("fresh");
    const old = new Date(Date.now() - 8 * 86_400_000);
    await db.oAuthClient.updateMany({ where: { id: { in: [unused, used] } }, data: { createdAt: old } });
    const { purgeExpiredOAuth } = await import("@/lib/oauth/purge-expired");
    const purged = await purgeExpiredOAuth();
    assert.ok(purged.clients >= 1, JSON.stringify(purged));
    assert.equal(await db.oAuthClient.findUnique({ where: { id: unused } }), null);
    assert.ok(await db.oAuthClient.findUnique({ where: { id: used } }));
    assert.ok(await db.oAuthClient.findUnique({ where: { id: fresh } }));
  });
});
