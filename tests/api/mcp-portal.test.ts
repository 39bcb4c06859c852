// The portals' side of a product's MCP server (issue 38, item 6): the try-a-tool form's exact request (a JSON-RPC
// tools/call with the browser's headers and the portal's key) answered as JSON with the result and its cost; the
// provider's card saving its choices as the whole stored api block through PATCH /v1/products/{id}, a clash refused
// on its field; the AI agents page's data (tools and access per visitor) and the card's per-tool statistics, read
// in-process from the database the server writes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mcpRequestHeaders, toolCallBody } from "@/lib/mcp/client-snippets";
import { apiUpdateWithMcp, mcpOperationRows, mcpSettingsFromForm } from "@/lib/products/mcp-settings";
import { productToolStats } from "@/lib/gateway/product-stats";
import { projectToolCallStats } from "@/lib/usage/tool-call-stats";
import type { StoredApiBlock } from "@/lib/products/serialize";
import { createUserWithBusiness } from "@/lib/portal/sign-up";
import { createApiKey } from "@/lib/keys/create-api-key";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { db, poll } from "../helpers/usage-db";
import { BASE_URL, client, expectError, seedBusiness } from "../helpers/api";
import { raw, signIn } from "../helpers/portal-session";

// The page's data is read here, in-process: the gateway's product cache is read again on every call, not after 30 s.
process.env.GATEWAY_CACHE_TTL_MS = "0";
const { portalMcpView } = await import("@/lib/apps/portal-mcp");

let upstream: http.Server;
let origin = "";

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1" },
  paths: {
    "/forecasts/{city}": {
      get: {
        operationId: "getForecast",
        summary: "Tomorrow's forecast for a city",
        parameters: [{ name: "city", in: "path", required: true, schema: { type: "string", examples: ["Oslo"] } }],
        responses: { "200": { description: "ok" } },
      },
    },
    "/alerts": { get: { operationId: "listAlerts", summary: "Weather alerts", responses: { "200": { description: "ok" } } } },
    "/boom": { get: { operationId: "boom", responses: { "200": { description: "never" } } } },
  },
};

before(async () => {
  upstream = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/v1/forecasts/"))
      return res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ city: decodeURIComponent(url.slice(14)), high: 21 }));
    if (url === "/v1/alerts") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ alerts: [] }));
    res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded");
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => upstream.close());

/** What the try form sends: POST /mcp/{slug}, the browser's headers, one tools/call. */
async function tryTool(slug: string, key: string, name: string, args: Record<string, unknown>) {
  const res = await fetch(`${BASE_URL}/mcp/${slug}`, {
    method: "POST",
    headers: mcpRequestHeaders(key),
    body: JSON.stringify(toolCallBody(1, name, args)),
  });
  return { status: res.status, type: res.headers.get("content-type") ?? "", body: (await res.json()) as { result?: Record<string, any> } };
}

async function listTools(slug: string, key: string): Promise<string[]> {
  const res = await fetch(`${BASE_URL}/mcp/${slug}`, {
    method: "POST",
    headers: mcpRequestHeaders(key),
    body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }),
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
}

const storedApi = async (id: string) => (await db.product.findUniqueOrThrow({ where: { id } })).api as unknown as StoredApiBlock;

test("the try form's tools/call is answered as JSON with the result and its cost; the card's choices change the tools", async () => {
  const a = await seedBusiness();
  const { product, price, slug } = await publishApiProduct(a.test, { api: { upstreamUrl: `${origin}/v1`, openapiDocument: DOCUMENT } });
  const b = await seedBusiness();
  const stranger = await seedBusiness();

  // The AI agents page before subscribing: the tools offered, and what the visitor has to do.
  const signedOut = await portalMcpView(slug, null);
  assert.equal(signedOut.served, true);
  assert.deepEqual(
    signedOut.tools.map((t) => t.name),
    ["listAlerts", "boom", "getForecast"],
  );
  assert.deepEqual(signedOut.tools.find((t) => t.name === "getForecast")!.example, { city: "Oslo" });
  assert.deepEqual(signedOut.access, { state: "signed-out" });
  const notYet = await portalMcpView(slug, { projectId: stranger.projectId });
  assert.equal(notYet.access.state, "not-subscribed");

  await subscribe(b.test, price.id);
  assert.deepEqual((await portalMcpView(slug, { projectId: b.projectId })).access, { state: "ready", quotaUsedUp: false });

  const ok = await tryTool(slug, b.testKey, "getForecast", { city: "Oslo" });
  assert.equal(ok.status, 200);
  assert.match(ok.type, /application\/json/);
  assert.deepEqual(ok.body.result?.structuredContent, { city: "Oslo", high: 21 });
  assert.equal(ok.body.result?.isError, undefined);
  assert.equal(ok.body.result?._meta?.cost, "0.01 USD");
  const failed = await tryTool(slug, b.testKey, "boom", {});
  assert.equal(failed.body.result?.isError, true);
  assert.match(failed.body.result?.content[0].text, /500: upstream exploded/);

  // The provider's card: listAlerts unticked, getForecast renamed; saved as the whole stored block.
  const rows = mcpOperationRows(await storedApi(product.id));
  assert.deepEqual(
    rows.map((r) => [r.operationId, r.tool]),
    [
      ["listAlerts", true],
      ["boom", true],
      ["getForecast", true],
    ],
  );
  const form = (rename: Record<string, string>, off: string[]) =>
    mcpSettingsFromForm({
      enabled: true,
      operations: rows.map((r) => ({
        operationId: r.operationId,
        tool: !off.includes(r.operationId),
        rename: rename[r.operationId] ?? "",
        description: "",
      })),
    });
  const clash = await a.test.patch(`/v1/products/${product.id}`, {
    api: apiUpdateWithMcp(await storedApi(product.id), form({ getForecast: "boom", boom: "boom" }, [])),
  });
  // Two renames to one name: the second operation's name field (by path: /boom, then /forecasts), where the card shows it.
  assert.equal(expectError(clash, 400, "INVALID_FIELD").field, "api.mcp.tools.getForecast.name");
  const saved = await a.test.patch(`/v1/products/${product.id}`, {
    api: apiUpdateWithMcp(await storedApi(product.id), form({ getForecast: "forecast" }, ["listAlerts"])),
  });
  assert.equal(saved.status, 200, saved.text);
  assert.deepEqual(saved.body.data.api.mcp.exclude, { operations: ["listAlerts"] });
  assert.equal((await storedApi(product.id)).openapiDocument !== null, true, "the document stays");
  assert.equal(await poll(async () => ((await listTools(slug, b.testKey)).join() === "boom,forecast" ? true : null)), true);
  assert.deepEqual(
    (await portalMcpView(slug, { projectId: b.projectId })).tools.map((t) => t.name),
    ["boom", "forecast"],
  );

  // The card's statistics and the consumer's usage: calls, errors and p50 per tool.
  const stats = await poll(async () => {
    const s = await productToolStats({ id: product.id, businessId: a.businessId, slug });
    return s.tools.length === 2 ? s : null;
  });
  assert.ok(stats);
  assert.deepEqual(
    stats.tools.map((t) => [t.tool, t.calls, t.errors]),
    [
      ["boom", 1, 1],
      ["getForecast", 1, 0],
    ],
  );
  assert.ok(stats.tools.every((t) => t.p50Ms !== null && t.p50Ms >= 0));
  const mine = await projectToolCallStats({ projectId: b.projectId, environment: "test" }, 7, [product.id]);
  assert.deepEqual(mine.map((t) => t.tool).sort(), ["boom", "getForecast"]);
  assert.deepEqual(await projectToolCallStats({ projectId: stranger.projectId, environment: "test" }), []);

  // Turned off: no server, and the page says so.
  const off = await a.test.patch(`/v1/products/${product.id}`, {
    api: apiUpdateWithMcp(await storedApi(product.id), mcpSettingsFromForm({ enabled: false, operations: [] })),
  });
  assert.equal(off.status, 200, off.text);
  assert.equal(off.body.data.api.mcp.enabled, false);
  assert.equal(await poll(async () => ((await portalMcpView(slug, null)).served ? null : true)), true);
});

test("the pages render: the portal's AI agents page and nav to anyone, the MCP server card to its provider", async () => {
  const email = `mcp-portal-${process.pid}-${Date.now()}@example.com`;
  const password = "correct horse battery staple";
  const user = await createUserWithBusiness({ email, password, name: "MCP provider" });
  const membership = await db.membership.findFirstOrThrow({ where: { userId: user.id } });
  const project = await db.project.findFirstOrThrow({ where: { businessId: membership.businessId } });
  const { key } = await createApiKey({
    businessId: membership.businessId,
    projectId: project.id,
    type: "test",
    name: "automation",
    scopes: ["*"],
  });
  const { product, slug } = await publishApiProduct(client(key), { api: { upstreamUrl: `${origin}/v1`, openapiDocument: DOCUMENT } });

  const landing = await raw(`${BASE_URL}/p/${slug}`);
  assert.equal(landing.status, 200);
  assert.match(landing.body, new RegExp(`href="/p/${slug}/mcp"[^>]*>AI agents<`));
  const page = await raw(`${BASE_URL}/p/${slug}/mcp`);
  assert.equal(page.status, 200, page.body.slice(0, 500));
  for (const text of [
    "Use with AI agents",
    `/mcp/${slug}</code>`,
    "claude mcp add --transport http",
    "getForecast",
    "listAlerts",
    "sign in",
  ])
    assert.ok(page.body.includes(text), `the page shows ${text}`);
  assert.ok(!page.body.includes("mcp-try-form"), "no try form for a visitor who is signed out");

  const session = await signIn(BASE_URL, email, password);
  const cookie = session.cookies.join("; ");
  const own = await raw(`${BASE_URL}/p/${slug}/mcp`, { headers: { cookie } });
  assert.match(own.body, /does not subscribe/);
  const card = await raw(`${BASE_URL}/portal/products/${product.id}`, { headers: { cookie } });
  assert.equal(card.status, 200, card.body.slice(0, 500));
  for (const text of [
    "MCP server",
    `/mcp/${slug}`,
    "Save MCP settings",
    "Tool name for getForecast",
    "Tool calls in the last 7 days",
    "No tool calls yet.",
  ])
    assert.ok(card.body.includes(text), `the card shows ${text}`);
  assert.ok(!card.body.includes("Refresh OpenAPI document"), "an uploaded document has no URL to fetch again");
});
