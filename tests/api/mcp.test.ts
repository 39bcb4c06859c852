// Every API product is also an MCP server (issue 38): the official SDK's Client over its Streamable HTTP transport,
// against the real server and a loopback upstream that serves an OpenAPI document. Tools made from the document and
// the provider's choices, refusals before and after subscribing, tool calls as gateway calls (signed, rated, limited,
// recorded as /mcp/{slug} with the tool's name), path arguments that try to leave their operation's path, answers of
// every kind (JSON, text, 4xx, 5xx, timeout), and the bad settings a provider can send.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BASE_URL, createProduct, expectError, seedBusiness, type ApiClient } from "../helpers/api";
import { db, poll } from "../helpers/usage-db";
import { publishApiProduct, subscribe, withinOneWindow } from "../helpers/marketplace";

const seen: { url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
let upstream: http.Server;
let origin = "";

// The product's OpenAPI document: a forecast read, a text read, an order made and deleted, a failing and a slow
// operation, and an admin operation the provider keeps out of the tools.
const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1" },
  paths: {
    "/forecasts/{city}": {
      parameters: [{ name: "city", in: "path", required: true, schema: { type: "string" }, description: "A city name" }],
      get: {
        operationId: "getForecast",
        tags: ["forecast"],
        summary: "Tomorrow's forecast for a city",
        parameters: [
          { name: "units", in: "query", schema: { type: "string", enum: ["metric", "imperial"] } },
          { name: "X-Trace", in: "header", schema: { type: "string" } },
        ],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Forecast" } } } } },
      },
    },
    "/notes/{id}": {
      get: {
        operationId: "readNote",
        summary: "A note as text",
        parameters: [{ name: "id", in: "path", required: true }],
        responses: { "200": { description: "text" } },
      },
    },
    "/orders": {
      post: {
        operationId: "createOrder",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object", properties: { item: { type: "string" } }, required: ["item"] } } },
        },
        responses: { "201": { description: "made" } },
      },
    },
    "/orders/{id}": {
      delete: {
        operationId: "deleteOrder",
        parameters: [{ name: "id", in: "path", required: true }],
        responses: { "204": { description: "gone" } },
      },
    },
    "/boom": { get: { operationId: "boom", responses: { "200": { description: "never" } } } },
    "/slow": { put: { operationId: "slowOp", responses: { "200": { description: "late" } } } },
    "/admin/secret": { get: { operationId: "adminSecret", tags: ["admin"], responses: { "200": { description: "secret" } } } },
  },
  components: {
    schemas: {
      Forecast: {
        type: "object",
        properties: { city: { type: "string" }, path: { type: "string" }, units: { type: "string" } },
        required: ["city"],
      },
    },
  },
};

before(async () => {
  upstream = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const url = req.url ?? "/";
      if (url === "/openapi.json") return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(DOCUMENT));
      if (url === "/broken.json") return res.writeHead(200, { "content-type": "application/json" }).end("{ not json");
      if (url === "/missing.json") return res.writeHead(404).end("no");
      seen.push({ url, headers: req.headers, body });
      const path = url.replace(/^\/v1/, "");
      if (path.startsWith("/forecasts/")) {
        const city = decodeURIComponent(path.slice("/forecasts/".length).split("?")[0]);
        const units = new URL(url, "http://x").searchParams.get("units") ?? "metric";
        return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ city, path: url, units }));
      }
      if (path.startsWith("/notes/")) return res.writeHead(200, { "content-type": "text/plain" }).end(`note ${path.slice(7)}`);
      if (path === "/orders" && req.method === "POST")
        return res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ made: JSON.parse(body) }));
      if (path.startsWith("/orders/")) return res.writeHead(404, { "content-type": "application/json" }).end('{"error":"no such order"}');
      if (path === "/boom") return res.writeHead(500, { "content-type": "text/plain" }).end("upstream exploded");
      if (path === "/slow") return void setTimeout(() => res.end("late"), 1500);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ path: url }));
    });
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => upstream.close());

const mcpSettings = { exclude: { tags: ["admin"] }, tools: { readNote: { description: "Reads one note." } } };

async function publishForecasts(a: ApiClient, price: Record<string, unknown> = {}, mcp: Record<string, unknown> = mcpSettings) {
  return publishApiProduct(a, { api: { upstreamUrl: `${origin}/v1`, openapiUrl: `${origin}/openapi.json`, timeoutMs: 500, mcp }, price });
}

async function connect(slug: string, key: string) {
  const client = new Client({ name: "test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE_URL}/mcp/${slug}`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) => (((r as { content: { text: string }[] }).content ?? [])[0] ?? { text: "" }).text;

test("an agent lists the product's tools once subscribed, and each tool call is a signed, rated, recorded gateway call", async () => {
  const a = await seedBusiness();
  const { product, price, slug } = await publishForecasts(a.test);
  assert.equal(product.api.mcp.path, `/mcp/${slug}`);
  assert.equal(product.api.mcp.enabled, true);
  assert.ok(product.api.openapiFetchedAt, "the document was fetched and stored when it was set");
  const b = await seedBusiness();

  // Not subscribed: the server answers, lists no tool, and says where to subscribe.
  const early = await connect(slug, b.testKey);
  assert.equal(early.getServerVersion()?.name, product.name);
  assert.match(early.getInstructions() ?? "", new RegExp(`/p/${slug}`));
  assert.deepEqual((await early.listTools()).tools, []);
  const refused = await early.callTool({ name: "getForecast", arguments: { city: "Paris" } });
  assert.equal(refused.isError, true);
  assert.match(text(refused), /PRODUCT_NOT_SUBSCRIBED/);
  assert.match(text(refused), new RegExp(`/p/${slug}`));
  await early.close();

  const sub = await subscribe(b.test, price.id);
  const agent = await connect(slug, b.testKey);
  const { tools } = await agent.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), ["boom", "createOrder", "deleteOrder", "getForecast", "readNote", "slowOp"]);
  const forecast = tools.find((t) => t.name === "getForecast")!;
  assert.equal(forecast.description, "Tomorrow's forecast for a city");
  assert.deepEqual(forecast.inputSchema.required, ["city"]);
  assert.deepEqual(Object.keys(forecast.inputSchema.properties ?? {}).sort(), ["X-Trace", "city", "units"]);
  assert.equal((forecast.outputSchema as { properties: Record<string, unknown> }).properties.city !== undefined, true);
  assert.deepEqual(forecast.annotations, { readOnlyHint: true });
  assert.equal(tools.find((t) => t.name === "deleteOrder")!.annotations?.destructiveHint, true);
  assert.equal(tools.find((t) => t.name === "slowOp")!.annotations?.idempotentHint, true);
  assert.equal(tools.find((t) => t.name === "readNote")!.description, "Reads one note.");
  assert.ok(!JSON.stringify(tools).includes("adminSecret"), "an excluded operation is no tool");

  // A JSON answer: structured content and its text, the upstream called as /gw would call it.
  seen.length = 0;
  const result = await agent.callTool({ name: "getForecast", arguments: { city: "Paris", units: "imperial", "X-Trace": "t-1" } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.structuredContent, { city: "Paris", path: "/v1/forecasts/Paris?units=imperial", units: "imperial" });
  assert.deepEqual(JSON.parse(text(result)), result.structuredContent);
  assert.equal((result._meta as { cost?: string }).cost, "0.01 USD");
  const call = seen.at(-1)!;
  assert.equal(call.headers["x-platform-consumer"], b.businessId);
  assert.equal(call.headers["x-platform-subscription"], sub.id);
  assert.equal(call.headers["x-platform-via"], "mcp");
  assert.equal(call.headers["x-platform-tool"], "getForecast");
  assert.equal(call.headers["x-trace"], "t-1");
  assert.match(String(call.headers["x-platform-signature"]), /^v1,/);
  assert.equal(call.headers.authorization, undefined, "the consumer's key never reaches the provider");

  // A body, text, 4xx, 5xx and a timeout.
  const made = await agent.callTool({ name: "createOrder", arguments: { body: { item: "umbrella" } } });
  assert.deepEqual(made.structuredContent, { made: { item: "umbrella" } });
  assert.equal(text(await agent.callTool({ name: "readNote", arguments: { id: "7" } })), "note 7");
  const missing = await agent.callTool({ name: "deleteOrder", arguments: { id: "9" } });
  assert.equal(missing.isError, true);
  assert.match(text(missing), /404.*no such order/);
  const boom = await agent.callTool({ name: "boom", arguments: {} });
  assert.equal(boom.isError, true);
  assert.match(text(boom), /500: upstream exploded/);
  const slow = await agent.callTool({ name: "slowOp", arguments: {} });
  assert.equal(slow.isError, true);
  assert.match(text(slow), /UPSTREAM_TIMEOUT/);
  const noArgs = await agent.callTool({ name: "getForecast", arguments: {} });
  assert.equal(noArgs.isError, true);
  assert.match(text(noArgs), /city/);
  await agent.close();

  // Recorded for both sides as /mcp/{slug} with the tool's name; initialize and tools/list are not.
  const rows = await poll(async () => {
    const r = await db.usageEvent.findMany({ where: { subscriptionId: sub.id }, orderBy: { timestamp: "asc" } });
    return r.length >= 7 ? r : null;
  });
  assert.ok(rows, "seven tool calls metered");
  assert.equal(rows.length, 7);
  assert.ok(rows.every((r) => r.endpoint === `/mcp/${slug}` && r.productId === product.id && r.providerId === a.businessId));
  assert.deepEqual(
    rows.map((r) => r.path.split("/").pop()),
    ["getForecast", "createOrder", "readNote", "deleteOrder", "boom", "slowOp", "getForecast"],
  );
  // The log rows are written beside the usage events, not before them (on PostgreSQL by another connection at the
  // same time): waited for, not assumed.
  const toolLog = await poll(async () => {
    const logs = await b.test.get(`/v1/logs?limit=20`);
    assert.equal(logs.status, 200, logs.text);
    return logs.body.data.find((l: { path: string }) => l.path === `/mcp/${slug}/tools/getForecast`) ?? null;
  });
  assert.ok(toolLog, "the consumer's logs show the tool");
  const upcoming = await poll(async () => {
    const r = await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`);
    return r.status === 200 && r.body.data.lines[0]?.quantity === 3 ? r.body.data : null;
  });
  // The three answered calls (the 4xx, 5xx, timeout and refused arguments are not billed by this price).
  assert.ok(upcoming, "the calls are on the subscriber's invoice");
  assert.equal(upcoming.lines[0].exactAmount, "0.03");
});

test("path arguments stay inside their operation's path, whatever they hold", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishForecasts(a.test);
  const b = await seedBusiness();
  await subscribe(b.test, price.id);
  const agent = await connect(slug, b.testKey);
  for (const [city, path] of [
    ["../admin/secret", "/v1/forecasts/..%2Fadmin%2Fsecret"],
    ["a%2F..%2F..%2Fadmin", "/v1/forecasts/a%252F..%252F..%252Fadmin"],
    ["x?y=1#z", "/v1/forecasts/x%3Fy%3D1%23z"],
  ]) {
    seen.length = 0;
    const r = await agent.callTool({ name: "getForecast", arguments: { city } });
    assert.equal(r.isError, undefined, text(r));
    assert.equal(seen.at(-1)!.url, path, `${city} → ${path}`);
  }
  // `.` and `..` alone would be resolved by any URL parser, however encoded: refused before anything is sent.
  for (const city of ["..", "."]) {
    seen.length = 0;
    const r = await agent.callTool({ name: "getForecast", arguments: { city } });
    assert.equal(r.isError, true);
    assert.match(text(r), /INVALID_TOOL_ARGUMENTS/);
    assert.equal(seen.length, 0);
  }
  await agent.close();
});

test("the plan's rate limit refuses a tool call with when to retry; a key limited to another product sees no tool", async () => {
  const a = await seedBusiness();
  const { product, price, slug } = await publishForecasts(a.test, { rateLimit: { limit: 2, windowSeconds: 60 } });
  const other = await createProduct(a.test, { name: `Other ${Date.now()}`, type: "API", api: { upstreamUrl: origin } });
  const b = await seedBusiness();
  await subscribe(b.test, price.id);
  const agent = await connect(slug, b.testKey);
  await withinOneWindow(60);
  for (let i = 0; i < 2; i++) assert.equal((await agent.callTool({ name: "getForecast", arguments: { city: "Oslo" } })).isError, undefined);
  const limited = await agent.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
  assert.equal(limited.isError, true);
  assert.match(text(limited), /RATE_LIMIT_EXCEEDED.*Retry after \d+ seconds/);
  await agent.close();

  const narrow = await b.test.post("/v1/api-keys", { name: "other only", scopes: [`call:${other.id}`] });
  assert.equal(narrow.status, 201, narrow.text);
  const narrowAgent = await connect(slug, narrow.body.data.key);
  assert.deepEqual((await narrowAgent.listTools()).tools, []);
  const r = await narrowAgent.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
  assert.equal(r.isError, true);
  assert.match(text(r), /PRODUCT_NOT_SUBSCRIBED/);
  await narrowAgent.close();
  assert.ok(product.id);
});

test("no credential is a 401 pointing at the protected-resource document; unknown and MCP-off products are 404", async () => {
  const a = await seedBusiness();
  const { slug } = await publishForecasts(a.test);
  const init = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "x", version: "1" } },
  };
  const post = (path: string, key?: string, body: unknown = init) =>
    fetch(`${BASE_URL}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
  const anonymous = await post(`/mcp/${slug}`);
  assert.equal(anonymous.status, 401);
  assert.equal(
    anonymous.headers.get("www-authenticate"),
    `Bearer resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/mcp/${slug}"`,
  );
  const anonymousBody = await anonymous.text();
  expectError({ status: 401, headers: anonymous.headers, body: JSON.parse(anonymousBody), text: anonymousBody }, 401, "INVALID_API_KEY");

  const b = await seedBusiness();
  const unknown = await post("/mcp/no-such-product-here", b.testKey);
  assert.equal(unknown.status, 404);
  const initialized = await post(`/mcp/${slug}`, b.testKey);
  assert.equal(initialized.status, 200);
  const body = await initialized.json();
  assert.equal(body.result.protocolVersion, LATEST_PROTOCOL_VERSION);
  assert.equal((await fetch(`${BASE_URL}/mcp/${slug}`, { headers: { authorization: `Bearer ${b.testKey}` } })).status, 405);
  const garbled = await fetch(`${BASE_URL}/mcp/${slug}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${b.testKey}` },
    body: "{ not json",
  });
  assert.equal(garbled.status, 400);
  assert.equal((await garbled.json()).error.code, -32700);

  const off = await publishForecasts(a.test, {}, { enabled: false });
  assert.equal(off.product.api.mcp.enabled, false);
  assert.equal((await post(`/mcp/${off.slug}`, b.testKey)).status, 404);
});

test("the provider's settings and document are checked when set; a refresh fetches the document again", async () => {
  const a = await seedBusiness();
  const product = await createProduct(a.test, { name: `Checked ${Date.now()}`, type: "API", api: { upstreamUrl: origin } });
  const patch = (api: Record<string, unknown>) => a.test.patch(`/v1/products/${product.id}`, { api: { upstreamUrl: origin, ...api } });
  assert.equal(expectError(await patch({ openapiUrl: `${origin}/missing.json` }), 400, "INVALID_FIELD").field, "api.openapiUrl");
  const broken = expectError(await patch({ openapiUrl: `${origin}/broken.json` }), 400, "INVALID_FIELD");
  assert.equal(broken.field, "api.openapiUrl");
  assert.match(broken.message, /not valid JSON/);
  assert.match(expectError(await patch({ openapiDocument: { swagger: "2.0" } }), 400, "INVALID_FIELD").message, /Swagger 2\.0/);
  const byId = expectError(
    await patch({ openapiUrl: `${origin}/openapi.json`, mcp: { include: { operations: ["getForecast", "nope"] } } }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(byId.field, "api.mcp.include.operations[1]");
  assert.equal(
    expectError(await patch({ openapiDocument: DOCUMENT, mcp: { exclude: { tags: ["ghost"] } } }), 400, "INVALID_FIELD").field,
    "api.mcp.exclude.tags[0]",
  );
  assert.equal(
    expectError(await patch({ openapiDocument: DOCUMENT, mcp: { tools: { ghost: { name: "x" } } } }), 400, "INVALID_FIELD").field,
    "api.mcp.tools.ghost",
  );
  const twice = expectError(
    await patch({ openapiDocument: DOCUMENT, mcp: { tools: { getForecast: { name: "same" }, boom: { name: "same" } } } }),
    400,
    "INVALID_FIELD",
  );
  assert.match(twice.field ?? "", /^api\.mcp\.tools\.(getForecast|boom)\.name$/);
  assert.equal(
    expectError(await patch({ openapiDocument: DOCUMENT, mcp: { tools: { boom: { name: "no spaces" } } } }), 400, "INVALID_FIELD").field,
    "api.mcp.tools.boom.name",
  );

  const ok = await patch({
    openapiUrl: `${origin}/openapi.json`,
    mcp: { include: { tags: ["forecast"] }, tools: { getForecast: { name: "forecast" } } },
  });
  assert.equal(ok.status, 200, ok.text);
  const first = ok.body.data.api.openapiFetchedAt;
  const refreshed = await a.test.post(`/v1/products/${product.id}/openapi/refresh`);
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.ok(refreshed.body.data.api.openapiFetchedAt >= first);
  assert.deepEqual(refreshed.body.data.api.mcp.include, { tags: ["forecast"] }, "the choices are kept");
  const none = await createProduct(a.test, { name: `No doc ${Date.now()}`, type: "API", api: { upstreamUrl: origin } });
  assert.equal(expectError(await a.test.post(`/v1/products/${none.id}/openapi/refresh`), 400, "INVALID_FIELD").field, "api.openapiUrl");
});

test("a tool call on a prepaid plan is paid from credits and refused, with what to do, when they run out", async () => {
  const a = await seedBusiness();
  const { price, slug } = await publishForecasts(a.test, { billing: "prepaid", amount: 0.01 });
  const b = await seedBusiness();
  const sub = await subscribe(b.test, price.id);
  const agent = await connect(slug, b.testKey);
  const broke = await agent.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
  assert.equal(broke.isError, true);
  assert.match(text(broke), /INSUFFICIENT_CREDITS/);
  assert.match(text(broke), new RegExp(`/v1/subscriptions/${sub.id}/credits`));
  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.02 })).status, 201);
  for (let i = 0; i < 2; i++) {
    const paid = await agent.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
    assert.equal(paid.isError, undefined, text(paid));
    assert.equal((paid._meta as { cost?: string }).cost, "0.01 USD");
  }
  const out = await agent.callTool({ name: "getForecast", arguments: { city: "Oslo" } });
  assert.equal(out.isError, true);
  assert.match(text(out), /INSUFFICIENT_CREDITS/);
  await agent.close();
  const credits = await poll(async () => {
    const c = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
    return c.balance === "0" && c.pending === "0" ? c : null;
  });
  assert.ok(credits, "two tool calls burned the 0.02");
  assert.equal(await db.usageEvent.count({ where: { subscriptionId: sub.id, paidByCredits: true, cost: { gt: 0 } } }), 2);
});
