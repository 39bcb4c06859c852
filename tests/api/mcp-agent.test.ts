// Issue 38's "done when": an agent built on the MCP SDK's client, given only {base}/mcp/{slug}, registers itself,
// sends its user through consent, lists the product's tools and calls one; the call is in both sides' records, rated,
// and on the subscriber's invoice. The SDK does the whole OAuth dance itself (its StreamableHTTPClientTransport with
// an OAuthClientProvider: protected-resource discovery from the 401, authorization-server metadata, dynamic client
// registration, PKCE, the resource parameter, the code exchange); the test plays the user on the consent page.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { BASE_URL, seedBusiness } from "../helpers/api";
import { db, poll } from "../helpers/db";
import { startJsonUpstream } from "../helpers/json-upstream";
import { AgentAuth, FORECAST_DOCUMENT } from "../helpers/mcp-agent";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { decide, openConsent, portalUser, REDIRECT_URI } from "../helpers/oauth";

const upstream = await startJsonUpstream(undefined, (req) => ({
  city: decodeURIComponent((req.url ?? "").split("/").pop() ?? ""),
  tempC: 7,
}));
after(() => upstream.close());

test("an SDK agent given only the MCP URL registers, is authorized by its user, lists the tools and calls one, billed", async () => {
  const provider = await seedBusiness();
  const { product, price, slug } = await publishApiProduct(provider.test, {
    api: { upstreamUrl: upstream.url, openapiDocument: FORECAST_DOCUMENT },
    name: `Agent forecasts ${Date.now().toString(36)}`,
  });
  const b = await seedBusiness();
  const sub = await subscribe(b.test, price.id);
  const user = await portalUser({ businessId: b.businessId });

  const auth = new AgentAuth(REDIRECT_URI, "SDK test agent");
  const url = new URL(`${BASE_URL}/mcp/${slug}`);
  // First contact: 401, then discovery and registration, then the user is sent to the authorization page.
  const agent = new Client({ name: "sdk-agent", version: "1.0.0" });
  const first = new StreamableHTTPClientTransport(url, { authProvider: auth });
  await assert.rejects(agent.connect(first), UnauthorizedError);
  assert.ok(auth.client?.client_id, "the agent registered itself");
  assert.ok(auth.sentUserTo, "the agent sent its user to authorize");
  assert.equal(auth.sentUserTo.searchParams.get("resource"), url.href, "the authorization names this MCP server");
  assert.equal(auth.sentUserTo.searchParams.get("code_challenge_method"), "S256");

  // The user consents for the project that pays; the code comes back to the agent's redirect URI.
  const consent = await openConsent(user, auth.sentUserTo);
  assert.ok(consent.fields, `no consent page: ${consent.first.status} ${consent.location}`);
  assert.ok(consent.html!.includes(product.name), "the consent page names the product");
  consent.fields.set("target", `${b.projectId}:test`);
  const { location } = await decide(user, consent.fields, "approve");
  const code = new URL(location!).searchParams.get("code");
  assert.ok(code, `no code in ${location}`);
  await first.finishAuth(code);
  assert.ok(auth.saved?.access_token.startsWith("oat_"));

  // Connected with its token: the tools, and a call.
  const connected = new Client({ name: "sdk-agent", version: "1.0.0" });
  await connected.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
  const { tools } = await connected.listTools();
  assert.deepEqual(
    tools.map((t) => t.name),
    ["getForecast"],
  );
  const result = await connected.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(result.structuredContent, { city: "Oslo", tempC: 7 });
  await connected.close();

  // The token is this MCP server's only: the platform's API refuses it.
  const v1 = await fetch(`${BASE_URL}/v1/products`, { headers: { authorization: `Bearer ${auth.saved!.access_token}` } });
  assert.equal(v1.status, 401);
  assert.equal((await v1.json()).error.code, "TOKEN_AUDIENCE_MISMATCH");

  // In both sides' records and on the subscriber's invoice.
  const event = await poll(() => db.usageEvent.findFirst({ where: { subscriptionId: sub.id, endpoint: `/mcp/${slug}` } }));
  assert.ok(event, "the call was metered");
  assert.equal(event.path, `/mcp/${slug}/tools/getForecast`);
  assert.equal(event.providerId, provider.businessId);
  const providerLogs = await provider.test.get(`/v1/products/${product.id}/call-stats`);
  assert.equal(providerLogs.status, 200, providerLogs.text);
  const upcoming = await poll(async () => {
    const r = await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`);
    return r.status === 200 && r.body.data.lines[0]?.quantity === 1 ? r.body.data : null;
  });
  assert.ok(upcoming, "the call is on the subscriber's invoice");
  assert.equal(upcoming.lines[0].exactAmount, "0.01");
});
