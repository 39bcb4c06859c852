import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, type APIRequestContext } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { startJsonUpstream, type JsonUpstream } from "../tests/helpers/json-upstream";
import { AgentAuth, FORECAST_DOCUMENT } from "../tests/helpers/mcp-agent";
import { bearer, createKey, newAccount, signUp } from "./helpers";

// Issue 38: an AI agent built on the MCP SDK's client, given only {base}/mcp/{slug}, registers itself, sends its user
// to the consent page (a real browser: the user signs in, sees which product, subscription and project will pay,
// and allows it), gets a token bound to that MCP server, lists the tools and calls one.

let upstream: JsonUpstream;
test.beforeAll(async () => {
  upstream = await startJsonUpstream(undefined, (req) => ({ city: decodeURIComponent((req.url ?? "").split("/").pop() ?? ""), tempC: 7 }));
});
test.afterAll(() => upstream?.close());

/** The agent's redirect URI: a real local server that remembers the codes it got. */
async function callbackServer() {
  const hits: URL[] = [];
  const server = http.createServer((req, res) => {
    hits.push(new URL(req.url!, "http://127.0.0.1"));
    res.end("agent authorized: you can close this tab");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { uri, hits, close: () => new Promise((r) => server.close(r)) };
}

async function post(request: APIRequestContext, key: string, path: string, data: unknown, status = 201) {
  const res = await request.post(path, { headers: { ...bearer(key), "Content-Type": "application/json" }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()).data;
}

test("an SDK agent given only the MCP URL is authorized on the consent page and calls a tool", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // ── A provider publishes a product with an OpenAPI document.
  const providerContext = await browser.newContext({ baseURL: baseURL! });
  const providerPage = await providerContext.newPage();
  await signUp(providerPage, newAccount("mcp-provider"));
  const providerKey = await createKey(providerPage, "Provider automation");
  const name = `Agent forecasts ${Date.now().toString(36)}`;
  const product = await post(request, providerKey, "/v1/products", {
    name,
    type: "API",
    api: { upstreamUrl: upstream.url, openapiDocument: FORECAST_DOCUMENT },
  });
  const price = await post(request, providerKey, `/v1/products/${product.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "USD",
    amount: 0.01,
  });
  const published = await request.patch(`/v1/products/${product.id}`, { headers: bearer(providerKey), data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;
  await providerContext.close();

  // ── A developer signs up and subscribes its project.
  await signUp(page, newAccount("mcp-user"));
  const key = await createKey(page, "Subscriber");
  await post(request, key, "/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4242424242424242" } } });

  // ── The agent knows only the MCP URL: it is told to authorize, registers itself and sends its user.
  const cb = await callbackServer();
  try {
    const auth = new AgentAuth(cb.uri);
    const url = new URL(`${baseURL}/mcp/${slug}`);
    await expect(
      new Client({ name: "agent", version: "1.0.0" }).connect(new StreamableHTTPClientTransport(url, { authProvider: auth })),
    ).rejects.toThrow(UnauthorizedError);
    expect(auth.sentUserTo, "the agent sent its user to authorize").not.toBeNull();

    await page.goto(auth.sentUserTo!.toString());
    await expect(page).toHaveURL(/\/oauth\/consent\?/);
    await expect(page.getByTestId("consent-product")).toHaveText(name);
    await expect(page.getByTestId("consent-target")).toContainText("Per call");
    await page.getByRole("button", { name: "Allow access" }).click();
    await expect(page.getByText("agent authorized")).toBeVisible();
    // The callback's own request (the browser may ask the callback server for a favicon after it).
    const callback = cb.hits.find((u) => u.pathname === "/callback");
    const code = callback?.searchParams.get("code");
    expect(code, `the code reached the agent's redirect URI (it got ${cb.hits.map((u) => u.href).join(", ")})`).toBeTruthy();

    const transport = new StreamableHTTPClientTransport(url, { authProvider: auth });
    await transport.finishAuth(code!);
    const agent = new Client({ name: "agent", version: "1.0.0" });
    await agent.connect(new StreamableHTTPClientTransport(url, { authProvider: auth }));
    expect((await agent.listTools()).tools.map((t) => t.name)).toEqual(["getForecast"]);
    const result = await agent.callTool({ name: "getForecast", arguments: { city: "Bergen" } });
    expect(result.structuredContent).toEqual({ city: "Bergen", tempC: 7 });
    await agent.close();

    // The user sees the call in the portal's logs, with its tool.
    await page.goto("/portal/logs");
    await expect(page.getByText(`/mcp/${slug}/tools/getForecast`).first()).toBeVisible();
  } finally {
    await cb.close();
  }
});
