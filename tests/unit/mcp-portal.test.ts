// What the portals show of a product's MCP server: the client snippets and first arguments of /p/{slug}/mcp
// (lib/mcp/client-snippets.ts), the provider card's operations and form (lib/products/mcp-settings.ts), tool-call
// counts per tool (lib/usage/tool-call-stats.ts), the logs' MCP badge (components/portal/call-via.tsx) and the
// portal's navigation (lib/apps/product-portal.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { exampleArguments, mcpClientSnippets, mcpRequestHeaders, toolCallBody } from "@/lib/mcp/client-snippets";
import { apiUpdateWithMcp, mcpOperationRows, mcpSettingsFromForm } from "@/lib/products/mcp-settings";
import { summarizeToolCalls } from "@/lib/usage/tool-call-stats";
import { toolsFromDocument } from "@/lib/mcp/openapi-tools";
import { ProductMcpSettings } from "@/lib/schemas/product";
import { DeveloperApp } from "@/lib/apps/developer-app";
import { portalViews } from "@/lib/apps/product-portal";
import { mcpToolOf } from "@/components/portal/call-via";
import type { StoredApiBlock } from "@/lib/products/serialize";

const DOC = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1" },
  paths: {
    "/forecasts/{city}": {
      get: {
        operationId: "getForecast",
        summary: "Tomorrow's forecast",
        tags: ["forecast"],
        parameters: [
          { name: "city", in: "path", required: true, schema: { type: "string", examples: ["Oslo"] } },
          { name: "units", in: "query", schema: { type: "string", enum: ["metric", "imperial"] } },
          { name: "days", in: "query", required: true, schema: { type: "integer" } },
        ],
      },
    },
    "/orders": {
      post: {
        operationId: "createOrder",
        requestBody: {
          required: true,
          content: {
            "application/json": { schema: { type: "object", properties: { item: { type: "string", enum: ["tea"] } }, required: ["item"] } },
          },
        },
      },
    },
    "/admin": { get: { tags: ["admin"] } },
  },
};

const api = (mcp?: StoredApiBlock["mcp"]): StoredApiBlock => ({
  upstreamUrl: "https://api.example.com",
  sandboxUpstreamUrl: null,
  timeoutMs: 30_000,
  openapiUrl: null,
  openapiDocument: DOC,
  ...(mcp ? { mcp } : {}),
});

test("client snippets name the server by slug, point at the address and carry the Bearer header", () => {
  const snippets = mcpClientSnippets({ url: "https://dev.example.com/mcp/forecasts", slug: "forecasts" });
  assert.deepEqual(
    snippets.map((s) => s.id),
    ["claude-code", "json", "vscode", "typescript"],
  );
  const byId = Object.fromEntries(snippets.map((s) => [s.id, s.code]));
  assert.match(byId["claude-code"], /^claude mcp add --transport http forecasts https:\/\/dev\.example\.com\/mcp\/forecasts/);
  assert.match(byId["claude-code"], /--header "Authorization: Bearer sk_test_…"/);
  assert.deepEqual(JSON.parse(byId.json), {
    mcpServers: {
      forecasts: { type: "http", url: "https://dev.example.com/mcp/forecasts", headers: { Authorization: "Bearer sk_test_…" } },
    },
  });
  assert.equal(JSON.parse(byId.vscode).servers.forecasts.type, "http");
  assert.match(byId.typescript, /new StreamableHTTPClientTransport\(new URL\("https:\/\/dev\.example\.com\/mcp\/forecasts"\)/);
});

test("first arguments: required properties only, from example, enum, or an empty value of the type", () => {
  const tools = toolsFromDocument(DOC, null);
  const forecast = tools.find((t) => t.name === "getForecast")!;
  const order = tools.find((t) => t.name === "createOrder")!;
  assert.deepEqual(exampleArguments(forecast.inputSchema), { city: "Oslo", days: 0 });
  assert.deepEqual(exampleArguments(order.inputSchema), { body: { item: "tea" } });
  assert.deepEqual(exampleArguments({ type: "object" }), {});
});

test("the try form's request is a JSON-RPC tools/call with the headers the endpoint needs", () => {
  assert.deepEqual(toolCallBody(7, "getForecast", { city: "Oslo" }), {
    jsonrpc: "2.0",
    id: 7,
    method: "tools/call",
    params: { name: "getForecast", arguments: { city: "Oslo" } },
  });
  const h = mcpRequestHeaders("sk_test_x");
  assert.equal(h.accept, "application/json, text/event-stream");
  assert.equal(h["mcp-protocol-version"], "2025-11-25");
  assert.equal(h.authorization, "Bearer sk_test_x");
});

test("the provider's card lists every operation, ticked when it is a tool under the stored settings", () => {
  const rows = mcpOperationRows(api({ exclude: { tags: ["admin"] }, tools: { getForecast: { name: "forecast" } } }));
  assert.deepEqual(
    rows.map((r) => [r.operationId, r.tool, r.toolName, r.rename]),
    [
      ["get_admin", false, null, ""],
      ["getForecast", true, "forecast", "forecast"],
      ["createOrder", true, "createOrder", ""],
    ],
  );
  assert.deepEqual(mcpOperationRows({ ...api(), openapiDocument: null }), []);
});

test("the card's form becomes settings the API accepts: unticked operations excluded, renames kept, blanks dropped", () => {
  const settings = mcpSettingsFromForm({
    enabled: true,
    operations: [
      { operationId: "getForecast", tool: true, rename: " forecast ", description: "" },
      { operationId: "createOrder", tool: false, rename: "", description: "Orders tea." },
      { operationId: "get_admin", tool: true, rename: "", description: " " },
    ],
  });
  assert.deepEqual(settings, {
    enabled: true,
    exclude: { operations: ["createOrder"] },
    tools: { getForecast: { name: "forecast" }, createOrder: { description: "Orders tea." } },
  });
  assert.ok(ProductMcpSettings.safeParse(settings).success);
  assert.deepEqual(
    toolsFromDocument(DOC, settings).map((t) => t.name),
    ["get_admin", "forecast"],
  );
  assert.deepEqual(mcpSettingsFromForm({ enabled: false, operations: [] }), { enabled: false });
  // Saved with the stored block, so the document and upstream stay as they are.
  const update = apiUpdateWithMcp(api(), settings);
  assert.equal(update.openapiDocument, DOC);
  assert.equal(update.upstreamUrl, "https://api.example.com");
  assert.equal(update.mcp, settings);
  assert.equal("secretHeaders" in update, false);
});

test("tool calls per tool: calls, errors, p50; only MCP tool calls count", () => {
  const row = (path: string, statusCode: number, latency: number, endpoint = "/mcp/forecasts") => ({ endpoint, path, statusCode, latency });
  const stats = summarizeToolCalls([
    row("/mcp/forecasts/tools/getForecast", 200, 10),
    row("/mcp/forecasts/tools/getForecast", 200, 30),
    row("/mcp/forecasts/tools/getForecast", 502, 20),
    row("/mcp/forecasts/tools/createOrder", 429, 5),
    row("/gw/forecasts/x", 200, 1, "/gw/{slug}"),
    row("/mcp/forecasts", 200, 1),
  ]);
  assert.deepEqual(stats, [
    { tool: "getForecast", calls: 3, errors: 1, p50Ms: 20 },
    { tool: "createOrder", calls: 1, errors: 1, p50Ms: 5 },
  ]);
  assert.deepEqual(summarizeToolCalls([]), []);
});

test("the logs' badge names the tool from via/tool, else from the path", () => {
  assert.equal(mcpToolOf({ path: "/mcp/forecasts/tools/getForecast", via: "mcp", tool: "getForecast" }), "getForecast");
  assert.equal(mcpToolOf({ path: "/mcp/forecasts/tools/get%20it" }), "get it");
  assert.equal(mcpToolOf({ path: "/gw/forecasts/mcp/x/tools/y", via: "gateway", tool: null }), null);
  assert.equal(mcpToolOf({ path: "/v1/products" }), null);
});

test("the AI agents view follows the documentation in the nav, unless the app orders it itself or hides docs", () => {
  assert.deepEqual(portalViews(DeveloperApp.parse({ name: "x" })), ["overview", "api-keys", "webhooks", "usage", "docs", "mcp"]);
  assert.deepEqual(portalViews(DeveloperApp.parse({ name: "x", defaultViews: ["mcp", "docs"] })), ["mcp", "docs"]);
  assert.deepEqual(portalViews(DeveloperApp.parse({ name: "x", config: { showDocs: false } })), [
    "overview",
    "api-keys",
    "webhooks",
    "usage",
  ]);
});
