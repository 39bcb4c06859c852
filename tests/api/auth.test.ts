// Authentication and the key's own restrictions: how a key is sent, what every malformed or hostile credential
// gets (a 401 or 403 that helps no attacker and never repeats the credential, and an audit entry), IP allow-lists
// with the socket address (X-Forwarded-For only from TRUSTED_PROXIES) and referrer allow-lists.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { assertErrorEnvelope, client, expectError, request, seedBusiness, type ApiClient, type ApiResponse } from "../helpers/api";
import { auditRows, poll, setKeyExpiry } from "../helpers/db";
import { startServer, type TestServer } from "../helpers/server";

async function createKey(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post("/v1/api-keys", { name: "Auth test key", ...body });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  return res.body.data as { id: string; key: string; [k: string]: any };
}

/** A refusal in the error envelope (401 or 403), no 500, and nothing of the credential in the response. */
function assertRefusal(res: ApiResponse, credential: string, what: string) {
  assert.ok(res.status === 401 || res.status === 403, `${what}: expected 401 or 403, got ${res.status} ${res.text.slice(0, 200)}`);
  const e = assertErrorEnvelope(res);
  assert.equal(e.type, res.status === 401 ? "authentication_error" : "authorization_error");
  const probe = credential.trim().slice(0, 40);
  if (probe.length >= 4 && !/^(Bearer|sk_test_|sk_live_)$/i.test(probe)) {
    assert.ok(!res.text.includes(probe), `${what}: the response repeats the credential`);
  }
  assert.ok(!/stack|prisma|sqlite|select |where /i.test(res.text), `${what}: the response shows internals: ${res.text.slice(0, 200)}`);
  return e;
}

let proxied: Promise<TestServer> | undefined;
/** A second server on the same database that trusts X-Forwarded-For from loopback (a proxy in front). */
function proxiedServer(): Promise<TestServer> {
  proxied ??= startServer({
    TRUSTED_PROXIES: "127.0.0.1,::1",
    DATABASE_URL: process.env.DATABASE_URL!,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
  });
  return proxied;
}
after(async () => {
  if (proxied) await (await proxied).stop();
});

test("a key works as 'Authorization: Bearer' and as the api_key query parameter; the header wins", async () => {
  const biz = await seedBusiness("enterprise");
  assert.equal((await biz.test.get("/v1/products")).status, 200);
  assert.equal((await request("GET", `/v1/products?api_key=${encodeURIComponent(biz.testKey)}`)).status, 200);
  assert.equal((await request("GET", "/v1/products", { headers: { authorization: `bearer ${biz.testKey}` } })).status, 200);
  // A bad header is not rescued by a good query parameter.
  expectError(
    await request("GET", `/v1/products?api_key=${encodeURIComponent(biz.testKey)}`, { headers: { authorization: "Bearer nope" } }),
    401,
    "INVALID_API_KEY",
  );
});

test("no key, an unknown key, an expired key and a revoked key are 401 with their own codes", async () => {
  const biz = await seedBusiness("enterprise");
  const none = expectError(await request("GET", "/v1/products"), 401, "INVALID_API_KEY");
  assert.equal(none.type, "authentication_error");
  const unknown = `sk_test_${randomBytes(32).toString("base64url")}`;
  const res = await client(unknown).get("/v1/products");
  expectError(res, 401, "INVALID_API_KEY");
  assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
  const expired = await createKey(biz.test, { scopes: ["products:read"] });
  await setKeyExpiry(expired.id);
  expectError(await client(expired.key).get("/v1/products"), 401, "API_KEY_EXPIRED");
  const revoked = await createKey(biz.test, { scopes: ["products:read"] });
  await biz.test.delete(`/v1/api-keys/${revoked.id}`);
  expectError(await client(revoked.key).get("/v1/products"), 401, "API_KEY_REVOKED");
});

test("malformed Authorization headers are 401 INVALID_API_KEY, never a 500", async () => {
  const biz = await seedBusiness("enterprise");
  const headers = [
    "",
    "Bearer",
    "Bearer ",
    "Bearer    ",
    "Basic dXNlcjpwYXNz",
    "Token " + biz.testKey,
    biz.testKey,
    `Bearer ${biz.testKey} extra`,
    `Bearer ${biz.testKey},${biz.testKey}`,
    `Bearer "${biz.testKey}"`,
    "Bearer \t",
    "Bearer null",
    "Bearer undefined",
    "Bearer {}",
  ];
  for (const authorization of headers) {
    const res = await request("GET", "/v1/products", { headers: { authorization } });
    const e = expectError(res, 401, "INVALID_API_KEY");
    assert.ok(!res.text.includes(biz.testKey.slice(8)), `the response to '${authorization}' repeats the key`);
    assert.equal(e.type, "authentication_error");
  }
});

test("hostile credentials get a 401 or 403 that repeats nothing of them", async () => {
  const biz = await seedBusiness("enterprise");
  const product = (await biz.test.post("/v1/products", { name: "Test-mode product", type: "API" })).body.data;
  const swapped = `sk_live_${biz.testKey.slice(8)}`; // a test key's secret under the live prefix
  const credentials: Array<[string, string]> = [
    ["10 KB key", `sk_test_${"A".repeat(10 * 1024)}`],
    ["Latin-1 key", `sk_test_${"é".repeat(43)}`],
    ["wrong prefix", `pk_test_${randomBytes(32).toString("base64url")}`],
    ["prod prefix", `sk_prod_${randomBytes(32).toString("base64url")}`],
    ["no prefix", randomBytes(32).toString("base64url")],
    ["SQL", "' OR 1=1 --"],
    ["SQL after the prefix", "sk_test_' OR '1'='1' --aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"],
    ["NUL-like", "sk_test_%00%00%00"],
    ["short key", "sk_test_abc"],
    ["key plus one", `${biz.testKey}x`],
    ["key minus one", biz.testKey.slice(0, -1)],
    ["live prefix on a test key's secret", swapped],
  ];
  for (const [what, credential] of credentials) {
    // As a Bearer header (where a header can carry it) and as the query parameter.
    if (/^[\x21-\xff]+$/.test(credential)) {
      assertRefusal(
        await request("GET", `/v1/products/${product.id}`, { headers: { authorization: `Bearer ${credential}` } }),
        credential,
        `${what} (header)`,
      );
    } else {
      assertRefusal(
        await request("GET", `/v1/products/${product.id}`, { headers: { authorization: credential } }),
        credential,
        `${what} (raw header)`,
      );
    }
    assertRefusal(
      await request("GET", `/v1/products/${product.id}?api_key=${encodeURIComponent(credential)}`),
      credential,
      `${what} (query)`,
    );
  }
  // Non-Latin-1 text can travel only in the query string.
  for (const credential of ["sk_test_✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓✓", "sk_test_🔑", "ключ"]) {
    assertRefusal(await request("GET", `/v1/products?api_key=${encodeURIComponent(credential)}`), credential, "non-ASCII (query)");
  }
  // An empty api_key is no key at all.
  expectError(await request("GET", "/v1/products?api_key="), 401, "INVALID_API_KEY");
});

test("a live key never reaches test data: the test record is not found, and the list holds none of it", async () => {
  const biz = await seedBusiness("enterprise");
  const product = (await biz.test.post("/v1/products", { name: "Only in test mode", type: "API" })).body.data;
  const res = await biz.live.get(`/v1/products/${product.id}`);
  expectError(res, 404, "RESOURCE_NOT_FOUND");
  assert.ok(!res.text.includes("Only in test mode") && !res.text.includes(biz.liveKey.slice(8)));
  expectError(await biz.live.patch(`/v1/products/${product.id}`, { name: "hijacked" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.live.delete(`/v1/products/${product.id}`), 404, "RESOURCE_NOT_FOUND");
  const list = await biz.live.get("/v1/products?limit=100");
  assert.equal(list.status, 200);
  assert.ok(!list.body.data.some((p: { id: string }) => p.id === product.id));
  assert.equal((await biz.test.get(`/v1/products/${product.id}`)).body.data.name, "Only in test mode");
});

test("a refused known key is written to the audit log as auth.denied, without the key", async () => {
  const biz = await seedBusiness("enterprise");
  const revoked = await createKey(biz.test, { scopes: ["products:read"] });
  await biz.test.delete(`/v1/api-keys/${revoked.id}`);
  const agent = `auth-test-${randomBytes(4).toString("hex")}`;
  expectError(await request("GET", "/v1/products", { key: revoked.key, headers: { "user-agent": agent } }), 401, "API_KEY_REVOKED");
  const scoped = await createKey(biz.test, { scopes: ["versions:read"] });
  expectError(
    await request("POST", "/v1/products", { key: scoped.key, body: { name: "x", type: "API" }, headers: { "user-agent": agent } }),
    403,
    "INSUFFICIENT_SCOPE",
  );

  const entries = await poll(async () => {
    const res = await biz.test.get(`/v1/audit-logs?action=auth.denied&limit=100`);
    const mine = res.body.data.filter((e: { userAgent: string }) => e.userAgent === agent);
    return mine.length >= 2 ? mine : null;
  });
  assert.ok(entries, "no auth.denied entries within 10 s");
  const byActor = new Map(entries.map((e: any) => [e.actorId, e]));
  const r: any = byActor.get(revoked.id);
  assert.ok(r, "no entry for the revoked key");
  assert.equal(r.actorType, "api_key");
  assert.equal(r.ip, "127.0.0.1");
  assert.equal(r.method, "GET");
  assert.equal(r.path, "/v1/products");
  assert.equal(r.details.code, "API_KEY_REVOKED");
  const s: any = byActor.get(scoped.id);
  assert.ok(s, "no entry for the key without the scope");
  assert.equal(s.method, "POST");
  assert.equal(s.details.code, "INSUFFICIENT_SCOPE");
  const stored = JSON.stringify(await auditRows({ businessId: biz.businessId }));
  for (const k of [revoked.key, scoped.key, biz.testKey]) assert.ok(!stored.includes(k.slice(8)), "an audit entry holds a key");
});

test("unknown and malformed credentials are audited too, from the caller's address", async () => {
  // Behind the trusted proxy each test gets its own client address, so the per-address cap of anonymous
  // entries (a flood guard) cannot hide these.
  const server = await proxiedServer();
  const ip = `198.51.100.${1 + (randomBytes(1)[0] % 250)}`;
  const agent = `hostile-${randomBytes(4).toString("hex")}`;
  const credentials = [`sk_test_${randomBytes(32).toString("base64url")}`, "' OR 1=1 --", `sk_test_${"B".repeat(5000)}`];
  for (const c of credentials) {
    const res = await request("GET", `/v1/products?api_key=${encodeURIComponent(c)}`, {
      base: server.url,
      headers: { "x-forwarded-for": ip, "user-agent": agent },
    });
    assertRefusal(res, c, "unknown credential");
  }
  const rows = await poll(async () => {
    const r = await auditRows({ action: "auth.denied", businessId: null });
    const mine = r.filter((e) => e.userAgent === agent);
    return mine.length >= credentials.length ? mine : null;
  });
  assert.ok(rows, "the refused unknown credentials were not audited within 10 s");
  for (const row of rows) {
    assert.equal(row.actorType, "anonymous");
    assert.equal(row.ip, ip);
    assert.equal(row.path, "/v1/products");
  }
  const stored = JSON.stringify(rows);
  for (const c of credentials) assert.ok(!stored.includes(c.slice(0, 30)), "an audit entry holds the credential");
});

test("IP allow-list: the socket address decides; a spoofed X-Forwarded-For does not get through", async () => {
  const biz = await seedBusiness("enterprise");
  const tenNet = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["10.0.0.0/8"] } });
  const res = await client(tenNet.key).get("/v1/products");
  const e = expectError(res, 403, "IP_NOT_ALLOWED");
  assert.equal(e.type, "authorization_error");
  assert.ok(!res.text.includes("10.0.0.0"), "the refusal shows the allow-list");
  assert.ok(!`${e.message} ${e.suggestion ?? ""}`.includes("127.0.0.1"), "the refusal names the address");
  expectError(await client(tenNet.key).get("/v1/products", { "x-forwarded-for": "10.1.2.3" }), 403, "IP_NOT_ALLOWED");
  expectError(await client(tenNet.key).get("/v1/products", { "x-real-ip": "10.1.2.3", forwarded: "for=10.1.2.3" }), 403, "IP_NOT_ALLOWED");
  // The header the server itself sets from the socket is overwritten, whatever a client sends.
  expectError(await client(tenNet.key).get("/v1/products", { "x-platform-client-ip": "10.1.2.3" }), 403, "IP_NOT_ALLOWED");

  const loopback = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["127.0.0.1/32", "::1"] } });
  assert.equal((await client(loopback.key).get("/v1/products")).status, 200);
  const single = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["127.0.0.1"] } });
  assert.equal((await client(single.key).get("/v1/products")).status, 200);
  const v6 = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["2001:db8::/32"] } });
  expectError(await client(v6.key).get("/v1/products"), 403, "IP_NOT_ALLOWED");

  // The allow-list is checked before the scope: a refused address learns nothing about the key's scopes.
  expectError(await client(tenNet.key).post("/v1/products", { name: "x", type: "API" }), 403, "IP_NOT_ALLOWED");
});

test("changing a key's IP allow-list takes effect on the next request", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"] });
  const api = client(k.key);
  assert.equal((await api.get("/v1/products")).status, 200);
  await biz.test.patch(`/v1/api-keys/${k.id}`, { restrictions: { ipWhitelist: ["10.0.0.0/8"] } });
  expectError(await api.get("/v1/products"), 403, "IP_NOT_ALLOWED");
  await biz.test.patch(`/v1/api-keys/${k.id}`, { restrictions: { ipWhitelist: ["10.0.0.0/8", "127.0.0.0/8", "::1/128"] } });
  assert.equal((await api.get("/v1/products")).status, 200);
});

test("behind a trusted proxy, X-Forwarded-For names the client, and only its last untrusted hop counts", async () => {
  const server = await proxiedServer();
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["10.0.0.0/8"] } });
  const get = (headers: Record<string, string>) => request("GET", "/v1/products", { key: k.key, headers, base: server.url });
  assert.equal((await get({ "x-forwarded-for": "10.1.2.3" })).status, 200);
  assert.equal((await get({ "x-forwarded-for": "10.1.2.3, 127.0.0.1" })).status, 200, "a trusted proxy hop is skipped");
  // A client that prepends a spoofed address: the proxy appends the real one, which is the one believed.
  expectError(await get({ "x-forwarded-for": "10.1.2.3, 192.0.2.7" }), 403, "IP_NOT_ALLOWED");
  expectError(await get({}), 403, "IP_NOT_ALLOWED");
  expectError(await get({ "x-forwarded-for": "not-an-address" }), 403, "IP_NOT_ALLOWED");
  // IPv6 clients through the proxy.
  const v6 = await createKey(biz.test, { scopes: ["products:read"], restrictions: { ipWhitelist: ["2001:db8::/32"] } });
  assert.equal(
    (await request("GET", "/v1/products", { key: v6.key, headers: { "x-forwarded-for": "2001:db8::42" }, base: server.url })).status,
    200,
  );
  expectError(
    await request("GET", "/v1/products", { key: v6.key, headers: { "x-forwarded-for": "2001:db9::42" }, base: server.url }),
    403,
    "IP_NOT_ALLOWED",
  );

  // The refusal is audited with the forwarded address.
  const rows = await poll(async () => {
    const r = await auditRows({ action: "auth.denied", actorId: k.id });
    return r.some((x) => x.ip === "192.0.2.7") ? r : null;
  });
  assert.ok(rows, "the IP refusal was not audited with the client's address");
});

test("referrer allow-list: host patterns with wildcards, from Referer or Origin", async () => {
  const biz = await seedBusiness("enterprise");
  const k = await createKey(biz.test, { scopes: ["products:read"], restrictions: { referrerWhitelist: ["*.example.com"] } });
  const get = (headers: Record<string, string> = {}) => client(k.key).get("/v1/products", headers);
  assert.equal((await get({ referer: "https://app.example.com/x" })).status, 200);
  assert.equal((await get({ referer: "https://a.b.example.com/" })).status, 200);
  assert.equal((await get({ origin: "https://app.example.com" })).status, 200);
  for (const referer of [
    "https://evil.com/",
    "https://example.com.evil.com/",
    "https://evilexample.com/",
    "https://example.com/",
    "not a url",
  ]) {
    const res = await get({ referer });
    expectError(res, 403, "REFERRER_NOT_ALLOWED");
    assert.ok(!res.text.includes("example.com"), "the refusal shows the allow-list");
  }
  expectError(await get(), 403, "REFERRER_NOT_ALLOWED");

  const exact = await createKey(biz.test, { scopes: ["products:read"], restrictions: { referrerWhitelist: ["https://shop.example.org"] } });
  assert.equal((await client(exact.key).get("/v1/products", { referer: "https://shop.example.org/cart" })).status, 200);
  expectError(await client(exact.key).get("/v1/products", { referer: "https://www.shop.example.org/" }), 403, "REFERRER_NOT_ALLOWED");
});
