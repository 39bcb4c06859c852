import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect } from "@playwright/test";
import { bearer, createKey, hydrated, newAccount, signOut, signUp } from "./helpers";

// Issue 38, item 6: the MCP server in the portals. Provider A publishes an API product with an uploaded OpenAPI
// document through the API; visitor B, signed out, sees its tools on /p/{slug}/mcp with a note to sign in; B signs
// up inside the portal, subscribes with the test card, opens "AI agents" from the portal's nav, sees the address and
// the client snippets, runs a tool through the try form (a tools/call to /mcp/{slug} with the portal's test key) and
// sees the upstream's answer with its cost; the call shows in B's logs with its tool's badge. A turns the tool off in
// the console's MCP server card and B's page no longer lists it.

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Forecasts", version: "1.0.0" },
  paths: {
    "/forecasts/{city}": {
      get: {
        operationId: "getForecast",
        summary: "Tomorrow's forecast for a city",
        parameters: [{ name: "city", in: "path", required: true, schema: { type: "string", examples: ["Oslo"] } }],
        responses: { "200": { description: "The forecast" } },
      },
    },
    "/alerts": { get: { operationId: "listAlerts", summary: "Weather alerts", responses: { "200": { description: "Alerts" } } } },
  },
};

async function startUpstream() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const city = /^\/v1\/forecasts\/([^/?]+)/.exec(req.url ?? "")?.[1];
    res.end(JSON.stringify(city ? { city: decodeURIComponent(city), high: 21 } : { alerts: [] }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test("a subscriber finds the product's MCP server, tries a tool, and the provider chooses the tools", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const upstream = await startUpstream();
  const tag = Date.now().toString(36);
  const productName = `Forecasts ${tag}`;

  // ── A publishes the product through the API.
  await signUp(page, newAccount("forecaster"));
  const headers = bearer(await createKey(page, "Provider automation"));
  const created = await request.post("/v1/products", {
    headers,
    data: { name: productName, type: "API", api: { upstreamUrl: `${upstream.url}/v1`, openapiDocument: OPENAPI } },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()).data;
  const price = await request.post(`/v1/products/${product.id}/prices`, {
    headers,
    data: { name: "Basic", type: "usage", currency: "USD", amount: 0.01 },
  });
  expect(price.status(), await price.text()).toBe(201);
  const published = await request.patch(`/v1/products/${product.id}`, { headers, data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;
  const home = `/p/${slug}`;

  // ── B, signed out: the tools the product offers and a note to sign in.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const b = await context.newPage();
  await b.goto(home);
  const nav = b.getByRole("navigation", { name: `${productName} navigation` });
  await expect(nav.getByRole("link", { name: "AI agents" })).toBeVisible();
  await nav.getByRole("link", { name: "AI agents" }).click();
  await expect(b.getByRole("heading", { name: "Use with AI agents", level: 1 })).toBeVisible();
  await expect(b.getByTestId("mcp-url")).toHaveText(new RegExp(`/mcp/${slug}$`));
  await expect(b.getByTestId("mcp-snippet-claude-code")).toContainText(`claude mcp add --transport http ${slug}`);
  await expect(b.getByTestId("mcp-snippet-json")).toContainText('"type": "http"');
  await expect(b.getByTestId("mcp-tool")).toHaveCount(2);
  await expect(b.getByTestId("mcp-access-note")).toContainText("sign in");
  await expect(b.getByTestId("mcp-try-form")).toHaveCount(0);

  // ── B signs up inside the portal and subscribes with the test card.
  await b.goto(home);
  await b.getByRole("link", { name: "Get started" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/signup\\?next=`));
  const visitor = newAccount("agent");
  await hydrated(b.getByRole("button", { name: "Create account" }));
  await b.getByLabel("Your name", { exact: true }).fill(visitor.name);
  await b.getByLabel("Business name", { exact: true }).fill(visitor.businessName);
  await b.getByLabel("E-mail", { exact: true }).fill(visitor.email);
  await b.getByLabel("Password", { exact: true }).fill(visitor.password);
  await b.getByRole("button", { name: "Create account" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/subscribe\\?price=price_`), { timeout: 30_000 });

  // Signed in, not subscribed yet: the page says so and links to the subscription.
  await b.goto(`${home}/mcp`);
  await expect(b.getByTestId("mcp-access-note")).toContainText("does not subscribe");
  await b.getByRole("link", { name: `Subscribe to ${productName}` }).click();
  await hydrated(b.getByRole("button", { name: "Subscribe" }));
  await b.getByLabel("Card number").fill("4242 4242 4242 4242");
  await b.getByLabel("Expiry (MM/YY)").fill("12/30");
  await b.getByLabel("CVC").fill("123");
  await b.getByRole("button", { name: "Subscribe" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/keys\\?subscribed=1$`), { timeout: 30_000 });

  // ── Subscribed: the tools, and a tool run through the try form.
  await b.getByRole("link", { name: "AI agents" }).click();
  await expect(b.getByTestId("mcp-access-note")).toHaveCount(0);
  await expect(b.getByTestId("mcp-tool").filter({ hasText: "getForecast" })).toBeVisible();
  await expect(b.getByTestId("mcp-try-key")).toContainText("sk_test_", { timeout: 30_000 });
  // Tools are listed by path (/alerts, then /forecasts/{city}): the form starts on the first, and getForecast is chosen.
  const toolSelect = b.getByTestId("mcp-try-form").getByLabel("Tool");
  await expect(toolSelect).toHaveValue("listAlerts");
  await toolSelect.selectOption("getForecast");
  await expect(b.getByLabel("Arguments (JSON)")).toHaveValue(/"city": "Oslo"/);
  await b.getByLabel("Arguments (JSON)").fill('{ "city": "Bergen" }');
  await b.getByRole("button", { name: "Call tool" }).click();
  const result = b.getByTestId("mcp-try-result");
  await expect(result).toContainText("ok", { timeout: 30_000 });
  await expect(b.getByTestId("mcp-try-output")).toContainText('"city": "Bergen"');
  await expect(b.getByTestId("mcp-try-cost")).toHaveText("cost 0.01 USD");

  // Not JSON: said beside the box, nothing sent.
  await b.getByLabel("Arguments (JSON)").fill("{ city: ");
  await b.getByRole("button", { name: "Call tool" }).click();
  await expect(b.locator("#mcp-try-arguments-error")).toContainText("not JSON");

  // The call in B's logs, with its tool.
  await b.goto(`${home}/logs`);
  await expect(b.getByTestId("mcp-call-badge").first()).toHaveText("MCP · getForecast", { timeout: 30_000 });

  // ── A turns getForecast off in the console's MCP server card.
  await page.goto(`/portal/products/${product.id}`);
  await expect(page.getByTestId("mcp-address")).toHaveText(`/mcp/${slug}`);
  await expect(page.getByTestId("tool-call-row").filter({ hasText: "getForecast" })).toContainText("1");
  await hydrated(page.getByRole("button", { name: "Save MCP settings" }));
  const box = page.getByTestId("mcp-operation").filter({ hasText: "getForecast" }).getByRole("checkbox");
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Save MCP settings" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible({ timeout: 30_000 });
  await page.reload();
  await expect(page.getByTestId("mcp-operation").filter({ hasText: "getForecast" }).getByRole("checkbox")).not.toBeChecked();

  // B's page no longer lists it.
  await expect(async () => {
    await b.goto(`${home}/mcp`);
    await expect(b.getByTestId("mcp-tool")).toHaveCount(1);
  }).toPass({ timeout: 30_000 });
  await expect(b.getByTestId("mcp-tool-list")).not.toContainText("getForecast");
  await expect(b.getByTestId("mcp-tool-list")).toContainText("listAlerts");

  await signOut(page);
  await context.close();
  upstream.close();
});
