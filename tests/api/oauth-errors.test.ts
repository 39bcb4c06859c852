// Bad input to the OAuth endpoints: each is the RFC's error (RFC 6749 §4.1.2.1 on the redirect, §5.2 in the
// token endpoint's body), no token is issued, and the refusal is in the audit log.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL } from "../helpers/api";
import { auditRows, db, poll } from "../helpers/db";
import {
  authorizationUrl,
  authorizeCode,
  basic,
  decide,
  insecure,
  oauth,
  openConsent,
  portalUser,
  postForm,
  registerClient,
  REDIRECT_URI,
  type RegisteredClient,
} from "../helpers/oauth";

/** The audit entries of `action` for a business, once at least one has been flushed. */
async function audited(businessId: string, action: string, reason?: (d: Record<string, unknown>) => boolean) {
  const rows = await poll(async () => {
    const all = await auditRows({ businessId, action });
    const hits = reason ? all.filter((a) => reason((a.details ?? {}) as Record<string, unknown>)) : all;
    return hits.length ? hits : null;
  }, 3_000);
  assert.ok(rows?.length, `no audit entry ${action} for ${businessId}`);
  return rows!;
}

const tokenCount = (clientId: string) => db.oAuthGrant.count({ where: { clientId } });

/** An RFC 6749 §5.2 error body: JSON, no-store, `error` as expected, no token. */
function assertTokenError(res: { status: number; headers: Headers; body: any; text: string }, status: number, error: string) {
  assert.equal(res.status, status, res.text);
  assert.equal(res.body?.error, error, res.text);
  assert.equal(typeof res.body.error_description, "string");
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.ok(!("access_token" in res.body) && !res.text.includes("oat_"), "a token was issued");
}

async function ownerBusinessOf(c: RegisteredClient): Promise<string> {
  const { businessId } = await db.oAuthClient.findUniqueOrThrow({ where: { id: c.id } });
  if (!businessId) throw new Error(`client ${c.id} has no owner`);
  return businessId;
}

describe("GET /oauth/authorize: errors never redirected", () => {
  it("unknown client_id → 400 page, no redirect", async () => {
    const c = await registerClient();
    const { url } = await authorizationUrl(c, { client_id: "oac_01JD2Y7X3Q9W6E8R4T5Y7U9I0P" });
    const res = await fetch(url, { redirect: "manual" });
    assert.equal(res.status, 400);
    assert.equal(res.headers.get("location"), null);
    assert.match(await res.text(), /not registered/);
  });

  it("a redirect_uri that is not registered exactly → 400 page, no redirect, audited", async () => {
    const c = await registerClient();
    for (const uri of [
      "http://127.0.0.1:9/callback/",
      "http://127.0.0.1:9/callback?x=1",
      "https://evil.example/callback",
      "http://127.0.0.1:9/CALLBACK",
    ]) {
      const { url } = await authorizationUrl(c, { redirect_uri: uri });
      const res = await fetch(url, { redirect: "manual" });
      assert.equal(res.status, 400, uri);
      assert.equal(res.headers.get("location"), null, uri);
    }
    await audited(await ownerBusinessOf(c), "oauth.authorize_denied", (d) => d.redirected === false);
  });
});

describe("GET /oauth/authorize: errors redirected with error and state (RFC 6749 §4.1.2.1)", () => {
  const cases: [string, Record<string, string | null>, string, Record<string, unknown>?][] = [
    ["missing response_type", { response_type: null }, "invalid_request"],
    ["response_type=token", { response_type: "token" }, "unsupported_response_type"],
    ["a scope wider than the client's", { scope: "products:read webhooks:write" }, "invalid_scope"],
    ["'*' for a client allowed less", { scope: "*" }, "invalid_scope"],
    ["a malformed scope", { scope: "products:admin" }, "invalid_scope"],
    ["code_challenge_method=plain", { code_challenge_method: "plain" }, "invalid_request"],
    ["a challenge without a method", { code_challenge_method: null }, "invalid_request"],
    ["a short code_challenge", { code_challenge: "abc" }, "invalid_request"],
    ["no PKCE from a public client", { code_challenge: null, code_challenge_method: null }, "invalid_request", { clientType: "public" }],
  ];
  for (const [name, extra, error, clientBody] of cases) {
    it(`${name} → ${error}`, async () => {
      const c = await registerClient(clientBody ?? {});
      const { url, state } = await authorizationUrl(c, extra);
      const res = await fetch(url, { redirect: "manual" });
      assert.equal(res.status, 302);
      const location = new URL(res.headers.get("location")!);
      assert.equal(`${location.origin}${location.pathname}`, REDIRECT_URI);
      assert.equal(location.searchParams.get("error"), error);
      assert.equal(location.searchParams.get("state"), state);
      assert.equal(location.searchParams.get("iss"), BASE_URL);
      assert.equal(location.searchParams.get("code"), null);
      // oauth4webapi reads it as an authorization error response.
      assert.throws(
        () => oauth.validateAuthResponse(c.as, c.client, location, state),
        (e: oauth.AuthorizationResponseError) => e.error === error,
      );
      await audited(await ownerBusinessOf(c), "oauth.authorize_denied", (d) => d.error === error);
    });
  }
});

describe("the consent decision", () => {
  it("deny → access_denied with the state, no code, audited", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { url, state } = await authorizationUrl(c);
    const { fields, html } = await openConsent(user, url);
    assert.ok(fields && html);
    assert.match(html!, /Acme Analytics/);
    assert.match(html!, /See your products/);
    assert.match(html!, /Create and change your products/);
    const { res, location } = await decide(user, fields!, "deny");
    assert.equal(res.status, 303);
    const back = new URL(location!);
    assert.equal(back.searchParams.get("error"), "access_denied");
    assert.equal(back.searchParams.get("state"), state);
    assert.equal(back.searchParams.get("code"), null);
    assert.equal(await db.oAuthCode.count({ where: { clientId: c.id } }), 0);
    await audited(user.businessId, "oauth.consent_denied");
  });

  it("a missing or forged CSRF token → 403, no code", async () => {
    const c = await registerClient();
    const user = await portalUser();
    const { url } = await authorizationUrl(c);
    const { fields } = await openConsent(user, url);
    const noToken = new URLSearchParams(fields!);
    noToken.delete("csrf_token");
    assert.equal((await decide(user, noToken, "approve")).res.status, 403);
    const forged = new URLSearchParams(fields!);
    forged.set("csrf_token", `${Date.now() + 60_000}.${"0".repeat(64)}`);
    assert.equal((await decide(user, forged, "approve")).res.status, 403);
    // The token covers the request: a wider scope with the same token is refused.
    const widened = new URLSearchParams(fields!);
    widened.set("scope", "products:read");
    assert.equal((await decide(user, widened, "approve")).res.status, 403);
    assert.equal(await db.oAuthCode.count({ where: { clientId: c.id } }), 0);
  });

  it("another user's consent form, a cross-origin post, or no session → refused", async () => {
    const c = await registerClient();
    const alice = await portalUser();
    const mallory = await portalUser();
    const { url } = await authorizationUrl(c);
    const { fields } = await openConsent(alice, url);
    // Mallory replays Alice's form with her own session: the token is bound to Alice.
    const asMallory = new URLSearchParams(fields!);
    assert.equal((await decide(mallory, asMallory, "approve")).res.status, 403);
    // Mallory's own form naming Alice's business: not a member.
    const own = await openConsent(mallory, url);
    const otherBusiness = new URLSearchParams(own.fields!);
    otherBusiness.set("business_id", alice.businessId);
    assert.equal((await decide(mallory, otherBusiness, "approve")).res.status, 403);
    assert.equal((await decide(alice, fields!, "approve", { origin: "https://evil.example" })).res.status, 403);
    assert.equal((await decide({ ...alice, cookie: "" }, fields!, "approve")).res.status, 401);
    assert.equal(await db.oAuthCode.count({ where: { clientId: c.id } }), 0);
  });

  it("the consent page needs a signed-in user: sign-in first, then back", async () => {
    const c = await registerClient();
    const { url } = await authorizationUrl(c);
    const first = await fetch(url, { redirect: "manual" });
    const consent = new URL(first.headers.get("location")!, BASE_URL);
    const res = await fetch(consent, { redirect: "manual" });
    assert.ok([302, 307].includes(res.status), String(res.status));
    const signin = new URL(res.headers.get("location")!, BASE_URL);
    assert.equal(signin.pathname, "/signin");
    assert.equal(signin.searchParams.get("callbackUrl"), consent.pathname + consent.search);
  });
});

describe("POST /oauth/token: bad requests issue nothing (RFC 6749 §5.2)", () => {
  /** A fresh code for a confidential client, and what its exchange needs. */
  async function freshCode(clientBody: Record<string, unknown> = {}, extra: Record<string, string | null> = {}) {
    const c = await registerClient(clientBody);
    const user = await portalUser();
    const { callback, verifier } = await authorizeCode(c, user, extra);
    const code = callback.searchParams.get("code")!;
    const form = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    return { c, user, code, verifier, form, auth: basic(c.id, c.secret ?? "") };
  }

  it("the wrong redirect_uri → invalid_grant", async () => {
    const { c, user, form, auth } = await freshCode();
    assertTokenError(
      await postForm("/oauth/token", { ...form, redirect_uri: "http://127.0.0.1:9/other" }, { headers: auth }),
      400,
      "invalid_grant",
    );
    assert.equal(await tokenCount(c.id), 0);
    await audited(user.businessId, "oauth.token_denied", (d) => d.reason === "redirect_uri_mismatch");
  });

  it("a missing or wrong PKCE verifier → invalid_grant", async () => {
    const { c, user, form, auth } = await freshCode();
    const { code_verifier: _, ...noVerifier } = form;
    assertTokenError(await postForm("/oauth/token", noVerifier, { headers: auth }), 400, "invalid_grant");
    assertTokenError(
      await postForm("/oauth/token", { ...form, code_verifier: oauth.generateRandomCodeVerifier() }, { headers: auth }),
      400,
      "invalid_grant",
    );
    assert.equal(await tokenCount(c.id), 0);
    await audited(user.businessId, "oauth.token_denied", (d) => d.reason === "pkce_missing");
    await audited(user.businessId, "oauth.token_denied", (d) => d.reason === "pkce_mismatch");
  });

  it("a verifier for a code issued without a challenge → invalid_grant (downgrade)", async () => {
    const { c, form, auth } = await freshCode({}, { code_challenge: null, code_challenge_method: null });
    assertTokenError(await postForm("/oauth/token", form, { headers: auth }), 400, "invalid_grant");
    const { code_verifier: _, ...plain } = form;
    const ok = await postForm("/oauth/token", plain, { headers: auth });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(await tokenCount(c.id), 1);
  });

  it("a replayed code → invalid_grant, and the tokens it issued are revoked", async () => {
    const { user, form, auth } = await freshCode();
    const first = await postForm("/oauth/token", form, { headers: auth });
    assert.equal(first.status, 200, first.text);
    assert.equal((await fetch(`${BASE_URL}/v1/products`, { headers: { authorization: `Bearer ${first.body.access_token}` } })).status, 200);
    assertTokenError(await postForm("/oauth/token", form, { headers: auth }), 400, "invalid_grant");
    const after = await fetch(`${BASE_URL}/v1/products`, { headers: { authorization: `Bearer ${first.body.access_token}` } });
    assert.equal(after.status, 401);
    assert.equal(((await after.json()) as any).error.code, "ACCESS_TOKEN_REVOKED");
    assertTokenError(
      await postForm("/oauth/token", { grant_type: "refresh_token", refresh_token: first.body.refresh_token }, { headers: auth }),
      400,
      "invalid_grant",
    );
    await audited(user.businessId, "oauth.token_denied", (d) => d.reason === "code_replayed");
  });

  it("two exchanges of one code at once: one token set, the other refused", async () => {
    const { form, auth } = await freshCode();
    const results = await Promise.all([
      postForm("/oauth/token", form, { headers: auth }),
      postForm("/oauth/token", form, { headers: auth }),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400]);
  });

  it("an expired code (older than 10 minutes) → invalid_grant", async () => {
    const { c, user, code, form, auth } = await freshCode();
    const row = await db.oAuthCode.findFirstOrThrow({ where: { clientId: c.id } });
    assert.ok(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 600_000) < 1000, "codes live 10 minutes");
    assert.ok(!JSON.stringify(row).includes(code), "the code itself is not stored");
    await db.oAuthCode.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    assertTokenError(await postForm("/oauth/token", form, { headers: auth }), 400, "invalid_grant");
    assert.equal(await tokenCount(c.id), 0);
    await audited(user.businessId, "oauth.token_denied", (d) => d.reason === "code_expired");
  });

  it("a wrong client secret → 401 invalid_client with a Basic challenge", async () => {
    const { c, form } = await freshCode();
    const wrong = `ocs_${"A".repeat(43)}`;
    const res = await postForm("/oauth/token", form, { headers: basic(c.id, wrong) });
    assertTokenError(res, 401, "invalid_client");
    assert.match(res.headers.get("www-authenticate") ?? "", /^Basic/);
    assertTokenError(await postForm("/oauth/token", { ...form, client_id: c.id, client_secret: wrong }), 401, "invalid_client");
    assertTokenError(await postForm("/oauth/token", { ...form, client_id: c.id }), 401, "invalid_client");
    assert.equal(await tokenCount(c.id), 0);
    await audited(await ownerBusinessOf(c), "oauth.token_denied", (d) => d.error === "invalid_client");
  });

  it("a code issued to another client → invalid_grant", async () => {
    const { form } = await freshCode();
    const other = await registerClient();
    assertTokenError(await postForm("/oauth/token", form, { headers: basic(other.id, other.secret!) }), 400, "invalid_grant");
  });

  it("grant types we do not support → unsupported_grant_type; none → invalid_request", async () => {
    const { c, auth } = await freshCode();
    for (const grant_type of ["client_credentials", "password", "implicit", "urn:ietf:params:oauth:grant-type:device_code"]) {
      assertTokenError(
        await postForm("/oauth/token", { grant_type, username: "a", password: "b" }, { headers: auth }),
        400,
        "unsupported_grant_type",
      );
    }
    assertTokenError(await postForm("/oauth/token", {}, { headers: auth }), 400, "invalid_request");
    assert.equal(await tokenCount(c.id), 0);
    await audited(await ownerBusinessOf(c), "oauth.token_denied", (d) => d.error === "unsupported_grant_type");
  });

  it("malformed requests → invalid_request", async () => {
    const { form, auth } = await freshCode();
    const repeated = await fetch(`${BASE_URL}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...auth },
      body: `${new URLSearchParams(form)}&code=again`,
    });
    assert.equal(repeated.status, 400);
    assert.equal(((await repeated.json()) as any).error, "invalid_request");
    const text = await fetch(`${BASE_URL}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "text/plain", ...auth },
      body: "grant_type=authorization_code",
    });
    assert.equal(((await text.json()) as any).error, "invalid_request");
    assertTokenError(
      await postForm("/oauth/token", { grant_type: "authorization_code", redirect_uri: REDIRECT_URI }, { headers: auth }),
      400,
      "invalid_request",
    );
  });

  it("JSON bodies work as well as form-encoded ones", async () => {
    const { c, form } = await freshCode();
    const res = await postForm("/oauth/token", { ...form, client_id: c.id, client_secret: c.secret! }, { json: true });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.token_type, "Bearer");
    assert.equal(res.headers.get("cache-control"), "no-store");
  });

  it("a refresh scope wider than the grant → invalid_scope", async () => {
    const { form, auth } = await freshCode({}, { scope: "products:read" });
    const t = await postForm("/oauth/token", form, { headers: auth });
    assertTokenError(
      await postForm(
        "/oauth/token",
        { grant_type: "refresh_token", refresh_token: t.body.refresh_token, scope: "products:write" },
        { headers: auth },
      ),
      400,
      "invalid_scope",
    );
  });

  it("oauth4webapi surfaces the errors as ResponseBodyError", async () => {
    const c = await registerClient();
    const { callback, verifier, state } = await authorizeCode(c, await portalUser());
    const params = oauth.validateAuthResponse(c.as, c.client, callback, state);
    const res = await oauth.authorizationCodeGrantRequest(c.as, c.client, c.auth, params, REDIRECT_URI, `${verifier}x`, insecure);
    await assert.rejects(
      oauth.processAuthorizationCodeResponse(c.as, c.client, res),
      (e: oauth.ResponseBodyError) => e.error === "invalid_grant" && e.status === 400,
    );
  });
});

describe("POST /oauth/revoke", () => {
  it("needs client authentication and a token", async () => {
    const c = await registerClient();
    assertTokenError(await postForm("/oauth/revoke", { token: "oat_x" }), 401, "invalid_client");
    assertTokenError(await postForm("/oauth/revoke", {}, { headers: basic(c.id, c.secret!) }), 400, "invalid_request");
  });

  it("a client cannot revoke another client's tokens", async () => {
    const c = await registerClient();
    const { callback, verifier } = await authorizeCode(c, await portalUser());
    const form = {
      grant_type: "authorization_code",
      code: callback.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    const t = await postForm("/oauth/token", form, { headers: basic(c.id, c.secret!) });
    assert.equal(t.status, 200, t.text);
    const other = await registerClient();
    const res = await postForm("/oauth/revoke", { token: t.body.access_token }, { headers: basic(other.id, other.secret!) });
    assert.equal(res.status, 200);
    assert.equal((await fetch(`${BASE_URL}/v1/products`, { headers: { authorization: `Bearer ${t.body.access_token}` } })).status, 200);
  });
});
