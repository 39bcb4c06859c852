// Unit tests of the OAuth building blocks: redirect URI rules, secret shapes, the consent form's CSRF token,
// scopes in plain words, and what a role may grant.
import { describe, it, afterEach } from "node:test";
import assert from "node:assert/strict";
import { redirectUriProblem } from "@/lib/schemas/oauth-client";
import { generateSecret, hasSecretShape, isAccessTokenLike } from "@/lib/oauth/token-format";
import { checkConsentToken, consentToken } from "@/lib/oauth/consent-token";
import { describeScope } from "@/lib/oauth/scope-words";
import { grantableScopes } from "@/lib/oauth/approve-authorization";
import { errorRedirectUrl } from "@/lib/oauth/oauth-error";
import { fixedClock, resetClock, setClock } from "@/lib/clock";
import { redactText } from "@/lib/usage/redact";

describe("redirect URIs", () => {
  it("accepts https, loopback http and reverse-DNS schemes", () => {
    for (const ok of [
      "https://app.example/cb",
      "https://app.example/cb?x=1",
      "http://127.0.0.1:8080/cb",
      "http://localhost/cb",
      "http://[::1]:9/cb",
      "com.example.app:/oauth",
    ]) {
      assert.equal(redirectUriProblem(ok), null, ok);
    }
  });
  it("refuses http elsewhere, fragments, script schemes and relative URIs", () => {
    for (const bad of [
      "http://app.example/cb",
      "https://app.example/cb#x",
      "javascript:alert(1)",
      "data:text/html,hi",
      "file:///etc/passwd",
      "/cb",
      "",
      "myapp:/cb",
    ]) {
      assert.notEqual(redirectUriProblem(bad), null, bad);
    }
  });
});

describe("secret shapes", () => {
  it("generates each kind with its prefix and 256 bits", () => {
    for (const kind of ["access", "refresh", "code", "clientSecret"] as const) {
      const s = generateSecret(kind);
      assert.ok(hasSecretShape(kind, s), s);
      assert.equal(s.length - s.indexOf("_") - 1, 43);
    }
    assert.ok(isAccessTokenLike(generateSecret("access")));
    assert.ok(!isAccessTokenLike(generateSecret("refresh")));
    assert.ok(!hasSecretShape("access", generateSecret("refresh")));
    assert.ok(!hasSecretShape("access", `oat_${"a".repeat(42)}!`));
  });
  it("are redacted from request logs", () => {
    const t = generateSecret("access");
    const r = generateSecret("refresh");
    const text = redactText(`{"access_token":"${t}","note":"${r}","client_secret":"x"}`);
    assert.ok(!text.includes(t.slice(4)) && !text.includes(r.slice(4)));
    assert.ok(!text.includes('"client_secret":"x"'));
  });
});

describe("consent CSRF token", () => {
  afterEach(() => resetClock());
  const params: [string, string][] = [
    ["client_id", "oac_1"],
    ["scope", "products:read"],
    ["state", "s"],
  ];
  it("checks for the same user and request only", () => {
    const token = consentToken("usr_a", params);
    assert.ok(checkConsentToken(token, "usr_a", params));
    assert.ok(!checkConsentToken(token, "usr_b", params));
    assert.ok(
      !checkConsentToken(token, "usr_a", [
        ["client_id", "oac_1"],
        ["scope", "products:write"],
        ["state", "s"],
      ]),
    );
    assert.ok(!checkConsentToken(null, "usr_a", params));
    assert.ok(!checkConsentToken(`${Date.now() + 60_000}.${"0".repeat(64)}`, "usr_a", params));
  });
  it("expires after 10 minutes", () => {
    const clock = fixedClock("2026-01-01T00:00:00Z");
    setClock(clock);
    const token = consentToken("usr_a", params);
    clock.advance(9 * 60_000);
    assert.ok(checkConsentToken(token, "usr_a", params));
    clock.advance(60_000);
    assert.ok(!checkConsentToken(token, "usr_a", params));
  });
});

describe("scopes in plain words and by role", () => {
  it("describes scopes", () => {
    assert.equal(describeScope("products:read"), "See your products");
    assert.equal(describeScope("api_keys:write"), "Create and change your API keys");
    assert.match(describeScope("*"), /^Full access/);
  });
  it("a viewer may grant reads only; a developer no audit log; an owner everything", () => {
    assert.deepEqual(grantableScopes(["products:read", "products:write"], "viewer"), {
      granted: ["products:read"],
      withheld: ["products:write"],
    });
    assert.deepEqual(grantableScopes(["products:*", "audit_logs:read"], "developer"), {
      granted: ["products:*"],
      withheld: ["audit_logs:read"],
    });
    assert.deepEqual(grantableScopes(["*"], "owner").withheld, []);
  });
});

describe("error redirects (RFC 6749 §4.1.2.1)", () => {
  it("keeps the client's own query and adds error, state and iss", () => {
    const url = new URL(
      errorRedirectUrl("https://app.example/cb?x=1", { code: "access_denied", description: "no" }, "st", "http://issuer"),
    );
    assert.equal(url.searchParams.get("x"), "1");
    assert.equal(url.searchParams.get("error"), "access_denied");
    assert.equal(url.searchParams.get("state"), "st");
    assert.equal(url.searchParams.get("iss"), "http://issuer");
  });
});
