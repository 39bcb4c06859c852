// Unit tests of OAuth for MCP clients: self-registered redirect URIs and metadata, resource URIs of MCP servers,
// the protected resource metadata's URL and the 401 challenge, where a resource-bound token is accepted, and the
// consent form's choice of project and environment.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { checkDynamicRedirectUri } from "@/lib/oauth/redirect-uri";
import { validateClientMetadata } from "@/lib/oauth/register-client";
import { canonicalResource, mcpResourceUrl, slugOfResource, slugOfStoredResource } from "@/lib/oauth/mcp-resource";
import { bearerChallenge, protectedResourceMetadataUrl, resourceMetadataUrlOf } from "@/lib/oauth/protected-resource";
import { assertTokenForProduct, assertTokenNotBound, assertTokenResource } from "@/lib/oauth/resource-binding";
import { environmentsFor, parseConsentTarget } from "@/lib/oauth/approve-authorization";
import { describeScope } from "@/lib/oauth/scope-words";
import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";

const BASE = "https://api.example.com";

function auth(resource: string | null | undefined, oauth = true): AuthContext {
  return {
    principal: { kind: oauth ? "oauth_grant" : "api_key", id: oauth ? "ogr_1" : "key_1" },
    businessId: "biz_1",
    projectId: "proj_1",
    environment: "test",
    scopes: ["call:prod_0123456789"],
    plan: "free",
    rateLimit: null,
    restrictions: null,
    oauth: oauth ? { clientId: "oac_1", grantId: "ogr_1", userId: "usr_1", resource } : null,
  };
}

const audienceMismatch = (e: unknown) => e instanceof ApiError && e.status === 401 && e.code === "TOKEN_AUDIENCE_MISMATCH";

describe("dynamically registered redirect URIs", () => {
  it("accepts https and loopback http on any port", () => {
    for (const ok of ["https://agent.example/cb", "http://127.0.0.1:33418/cb", "http://localhost/cb", "http://[::1]:9/cb"])
      assert.equal(checkDynamicRedirectUri(ok), null, ok);
  });
  it("refuses other http hosts, private-use schemes, fragments and credentials", () => {
    for (const bad of [
      "http://example.com/cb",
      "http://192.0.2.10/",
      "http://192.168.1.1/cb",
      "http://localhost.evil.example/cb",
      "com.example.app:/cb",
      "javascript:alert(1)",
      "https://agent.example/cb#x",
      "https://u:p@agent.example/cb",
      "/cb",
    ])
      assert.notEqual(checkDynamicRedirectUri(bad), null, bad);
  });
});

describe("client metadata", () => {
  it("keeps the redirect URIs and a clean name", () => {
    const m = validateClientMetadata({ redirect_uris: ["http://127.0.0.1/cb", "http://127.0.0.1/cb"], client_name: "Agent\u0007 X" });
    assert.deepEqual(m, { redirectUris: ["http://127.0.0.1/cb"], clientName: "Agent X" });
    assert.equal(validateClientMetadata({ redirect_uris: ["https://a.example/cb"] }).clientName, "Unnamed MCP client");
  });
  it("refuses confidential clients and unsupported grants with RFC 7591's codes", () => {
    const codeOf = (body: Record<string, unknown>) => {
      try {
        validateClientMetadata(body);
        return null;
      } catch (e) {
        return (e as { code: string }).code;
      }
    };
    assert.equal(codeOf({ redirect_uris: ["http://example.com/cb"] }), "invalid_redirect_uri");
    assert.equal(codeOf({}), "invalid_redirect_uri");
    assert.equal(
      codeOf({ redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "client_secret_basic" }),
      "invalid_client_metadata",
    );
    assert.equal(codeOf({ redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] }), "invalid_client_metadata");
    assert.equal(codeOf({ redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" }), null);
  });
});

describe("MCP resource URIs", () => {
  it("names a product of this server only", () => {
    assert.equal(mcpResourceUrl(`${BASE}/`, "weather-api"), `${BASE}/mcp/weather-api`);
    assert.equal(slugOfResource(`${BASE}/mcp/weather-api`, BASE), "weather-api");
    assert.equal(slugOfResource("HTTPS://API.EXAMPLE.COM:443/mcp/weather-api/", BASE), "weather-api");
    for (const other of [
      "https://evil.example/mcp/weather-api",
      `${BASE}/gw/weather-api`,
      `${BASE}/mcp/weather-api/tools`,
      `${BASE}/mcp/weather-api?x=1`,
      `${BASE}/mcp/weather-api#f`,
      `${BASE}/mcp/Weather_API`,
      "weather-api",
    ])
      assert.equal(slugOfResource(other, BASE), null, other);
    assert.equal(canonicalResource("https://API.example.com/mcp/a-b/"), "https://api.example.com/mcp/a-b");
    assert.equal(slugOfStoredResource(`${BASE}/mcp/weather-api`), "weather-api");
  });

  it("builds the metadata URL and the 401 challenge the MCP endpoint sends", () => {
    assert.equal(protectedResourceMetadataUrl(BASE, "weather-api"), `${BASE}/.well-known/oauth-protected-resource/mcp/weather-api`);
    assert.equal(resourceMetadataUrlOf(`${BASE}/mcp/weather-api`), `${BASE}/.well-known/oauth-protected-resource/mcp/weather-api`);
    assert.equal(
      bearerChallenge(BASE, "weather-api"),
      `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp/weather-api"`,
    );
    assert.equal(
      bearerChallenge(BASE, "weather-api", { error: "invalid_token", description: 'expired "now"' }),
      `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp/weather-api", error="invalid_token", error_description="expired now"`,
    );
  });
});

describe("resource-bound tokens", () => {
  const bound = auth(`${BASE}/mcp/weather-api`);

  it("are refused on /v1; API keys and unbound tokens are not", () => {
    assert.throws(() => assertTokenNotBound(bound), audienceMismatch);
    assertTokenNotBound(auth(null));
    assertTokenNotBound(auth(undefined, false));
  });

  it("call their own product's gateway only", () => {
    assertTokenForProduct(bound, "weather-api");
    assert.throws(() => assertTokenForProduct(bound, "maps-api"), audienceMismatch);
    assertTokenForProduct(auth(null), "maps-api");
  });

  it("are accepted by their own MCP server only; an unbound token by none", () => {
    assertTokenResource(bound, `${BASE}/mcp/weather-api`);
    assertTokenResource(bound, "https://API.example.com/mcp/weather-api/");
    assertTokenResource(auth(undefined, false), `${BASE}/mcp/weather-api`);
    assert.throws(() => assertTokenResource(bound, `${BASE}/mcp/maps-api`), audienceMismatch);
    assert.throws(
      () => assertTokenResource(auth(null), `${BASE}/mcp/weather-api`),
      (e: unknown) =>
        audienceMismatch(e) &&
        (e as ApiError).headers!["WWW-Authenticate"].startsWith(
          `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp/weather-api"`,
        ),
    );
  });
});

describe("the consent form's target", () => {
  it("is a project and an environment", () => {
    assert.deepEqual(parseConsentTarget("proj_ABC123:test"), { projectId: "proj_ABC123", environment: "test" });
    assert.equal(parseConsentTarget("proj_ABC123:live"), null);
    assert.equal(parseConsentTarget("biz_1:test"), null);
    assert.equal(parseConsentTarget(null), null);
  });
  it("offers a self-registered client both environments, a registered one its own", () => {
    assert.deepEqual(environmentsFor({ environment: null }), ["test", "production"]);
    assert.deepEqual(environmentsFor({ environment: "production" }), ["production"]);
  });
});

describe("call scopes in plain words", () => {
  it("say which product and that it is billed", () => {
    assert.equal(describeScope("call:prod_0123456789"), "Call the product prod_0123456789, billed to your project's subscription");
    assert.match(describeScope("call:*"), /Call the products/);
  });
});
