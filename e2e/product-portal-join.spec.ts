import http from "node:http";
import type { AddressInfo } from "node:net";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, type Page } from "@playwright/test";
import { bearer, confirmDialog, createKey, hydrated, newAccount, signOut, signUp } from "./helpers";

// Issue 19's walk-through inside one product's portal: provider A publishes an API product (upstream on loopback,
// an uploaded OpenAPI document), which gets its default Developer app; visitor B opens /p/{slug}, clicks Get started,
// signs up there, meets the not-subscribed keys page, has a declined card refused in words, subscribes with the
// test card, makes a key limited to the product, and tries a call from the docs that reaches A's upstream through
// the gateway with B's own test key. Every page B visits stays under /p/{slug}; axe finds nothing serious on any of
// them, light or dark.

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Harbour tides", version: "2.0.0" },
  paths: {
    "/tides": {
      get: {
        operationId: "listTides",
        summary: "List today's tides",
        security: [{ upstreamKey: [] }],
        responses: { "200": { description: "The tides of the day" } },
      },
    },
  },
  components: { securitySchemes: { upstreamKey: { type: "apiKey", in: "header", name: "X-Upstream-Key" } } },
};

async function startUpstream() {
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ harbour: "Oslo", tide: "high" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

/** Serious or critical axe findings of the page as it is now, in light and in dark. */
async function axeFindings(page: Page, label: string): Promise<string[]> {
  await page.waitForLoadState("networkidle").catch(() => {});
  const out: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
    for (const v of result.violations.filter((x) => x.impact === "serious" || x.impact === "critical"))
      out.push(
        `${label} (${scheme}): ${v.impact} ${v.id}: ${v.nodes.map((n) => `${n.target.join(" ")} ${n.html.slice(0, 120)}`).join(" | ")}`,
      );
  }
  await page.emulateMedia({ colorScheme: null });
  return out;
}

test("a visitor joins, subscribes, makes a key and tries the API without leaving /p/{slug}", async ({ page, browser, request }) => {
  test.setTimeout(300_000);
  const upstream = await startUpstream();
  const tag = Date.now().toString(36);
  const productName = `Harbour tides ${tag}`;

  // ── A publishes the product through the API with a key made in the portal.
  const provider = await signUp(page, newAccount("harbour"));
  const headers = bearer(await createKey(page, "Provider automation"));
  const created = await request.post("/v1/products", {
    headers,
    data: {
      name: productName,
      type: "API",
      description: "Tides for every harbour.",
      api: { upstreamUrl: `${upstream.url}/v1`, openapiDocument: OPENAPI },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()).data;
  for (const plan of [
    { name: "Skipper", type: "usage", currency: "USD", amount: 0.02 },
    { name: "Fleet", type: "usage", currency: "USD", amount: 0.01 },
  ]) {
    const price = await request.post(`/v1/products/${product.id}/prices`, { headers, data: plan });
    expect(price.status(), await price.text()).toBe(201);
  }
  const published = await request.patch(`/v1/products/${product.id}`, { headers, data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;
  const apps = (await (await request.get("/v1/apps?type=Developer", { headers })).json()).data;
  expect(apps.map((a: { slug: string }) => a.slug)).toContain(slug);
  const app = apps.find((a: { slug: string }) => a.slug === slug);
  const patched = await request.patch(`/v1/apps/${app.id}`, {
    headers,
    data: {
      config: { apiVersions: ["v2", "v1"] },
      views: { docs: { languages: ["shell", "python"] }, apiKeys: { defaultExpiration: 30 } },
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  await signOut(page);

  // ── B, in a browser of its own; every page it opens is recorded.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const b = await context.newPage();
  const visited: string[] = [];
  b.on("framenavigated", (frame) => {
    if (frame === b.mainFrame() && frame.url().startsWith("http")) visited.push(new URL(frame.url()).pathname);
  });
  const findings: string[] = [];
  const home = `/p/${slug}`;

  await b.goto(home);
  await expect(b.getByTestId("portal-provider")).toHaveText(provider.businessName);
  await expect(b.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", `${home}/signin?callbackUrl=${encodeURIComponent(home)}`);
  findings.push(...(await axeFindings(b, "landing")));
  await b.goto(`${home}/signin?callbackUrl=${encodeURIComponent(home)}`);
  await expect(b.locator(`[data-product-portal="${slug}"]`)).toBeVisible();
  findings.push(...(await axeFindings(b, "signin")));

  // Signed out, the docs render and try-it says to sign in.
  await b.goto(`${home}/docs`);
  await expect(b.getByTestId("try-it-note")).toContainText("Sign in");
  await expect(b.getByTestId("api-versions")).toContainText("v2 current");
  await expect(b.getByTestId("api-versions")).toContainText("v1 available");
  await expect(b.getByTestId("api-reference").getByText("List today's tides").first()).toBeVisible({ timeout: 30_000 });
  await expect(b.getByTestId("api-reference")).not.toContainText(/Loading|Preparing/, { timeout: 30_000 });
  findings.push(...(await axeFindings(b, "docs")));

  // Get started → sign-up inside the portal → back to the subscription of the first plan.
  await b.goto(home);
  await b.getByRole("link", { name: "Get started" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/signup\\?next=`));
  await expect(b.locator(`[data-product-portal="${slug}"]`)).toBeVisible();
  findings.push(...(await axeFindings(b, "signup")));
  const visitor = newAccount("sailor");
  await hydrated(b.getByRole("button", { name: "Create account" }));
  await b.getByLabel("Your name", { exact: true }).fill(visitor.name);
  await b.getByLabel("Business name", { exact: true }).fill(visitor.businessName);
  await b.getByLabel("E-mail", { exact: true }).fill(visitor.email);
  await b.getByLabel("Password", { exact: true }).fill(visitor.password);
  await b.getByRole("button", { name: "Create account" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/subscribe\\?price=price_`), { timeout: 30_000 });
  await expect(b.getByRole("heading", { name: `Subscribe to ${productName}`, level: 1 })).toBeVisible();
  await expect(b.getByTestId("portal-visitor")).toContainText(visitor.email);
  const subscribeUrl = b.url();

  // Not subscribed yet: the keys page says so and links to the subscription.
  await b.getByRole("link", { name: "API keys" }).click();
  await expect(b.getByTestId("not-subscribed")).toContainText(`You do not subscribe to ${productName} in test mode`);
  findings.push(...(await axeFindings(b, "keys, not subscribed")));
  await b.getByRole("link", { name: `Subscribe to ${productName}` }).click();
  await expect(b).toHaveURL(subscribeUrl);
  await expect(b.getByTestId("plan-Skipper")).toBeVisible();
  await expect(b.getByRole("radio", { name: /^Test/ })).toBeChecked();
  findings.push(...(await axeFindings(b, "subscribe")));

  // A declined card is refused in words under the number, and what was typed stays.
  await hydrated(b.getByRole("button", { name: "Subscribe" }));
  await b.getByLabel("Card number").fill("4000 0000 0000 0002");
  await b.getByLabel("Expiry (MM/YY)").fill("12/30");
  await b.getByLabel("CVC").fill("123");
  await b.getByRole("button", { name: "Subscribe" }).click();
  await expect(b.locator("#card-number-error")).toHaveText("Your card was declined.");
  await expect(b.getByLabel("Expiry (MM/YY)")).toHaveValue("12/30");
  await expect(b.getByLabel("Card number")).toHaveValue("4000 0000 0000 0002");

  await b.getByLabel("Card number").fill("4242 4242 4242 4242");
  await b.getByRole("button", { name: "Subscribe" }).click();
  await expect(b).toHaveURL(new RegExp(`${home}/keys\\?subscribed=1$`), { timeout: 30_000 });
  await expect(b.getByRole("status").filter({ hasText: `You subscribe to ${productName}` })).toBeVisible();

  // Subscribed already: the subscribe page says so and shows the plan.
  await b.goto(subscribeUrl);
  await expect(b.getByTestId("already-subscribed")).toContainText("Plan Skipper, test mode, active");
  await b.goto(`${home}/keys`);

  // A key limited to this product, with the app's default expiry; the secret shown once with a copy button.
  await hydrated(b.getByRole("button", { name: "Create key" }));
  await expect(b.getByLabel("Expires after (days)")).toHaveValue("30");
  await b.getByLabel("Name", { exact: true }).fill("Harbour app");
  await b.getByRole("button", { name: "Create key" }).click();
  const secret = (await b.getByTestId("new-secret").textContent())!.trim();
  expect(secret).toMatch(/^sk_test_/);
  await expect(b.getByRole("button", { name: "Copy" })).toBeVisible();
  const row = b.getByTestId("key-row-Harbour app");
  await expect(row).toContainText(`call:${product.id}`);
  await expect(b.getByRole("row").filter({ hasText: /^\s*\*/ })).toHaveCount(0);
  findings.push(...(await axeFindings(b, "keys")));

  // The key calls the product through the gateway; a second key is revoked through the confirmation dialog.
  const direct = await request.get(`/gw/${slug}/tides?harbour=Bergen`, { headers: bearer(secret) });
  expect(direct.status(), await direct.text()).toBe(200);
  await b.getByLabel("Name", { exact: true }).fill("Old laptop");
  await b.getByRole("button", { name: "Create key" }).click();
  await expect(b.getByTestId("key-row-Old laptop")).toBeVisible();
  await b.getByRole("button", { name: "Revoke Old laptop" }).click();
  await confirmDialog(b, { title: 'Revoke "Old laptop"?', says: "stops working", button: "Revoke key" });
  await expect(b.getByTestId("key-row-Old laptop")).toContainText("revoked");

  // Try-it from the docs: B's own test key for this product, to A's upstream through the gateway.
  await b.getByRole("link", { name: "Documentation", exact: true }).click();
  await expect(b.getByTestId("try-it-key")).toContainText("sk_test_", { timeout: 30_000 });
  const keyPrefix = (await b.getByTestId("try-it-key").locator("code").textContent())!.replace("…", "");
  const reference = b.getByTestId("api-reference");
  await expect(reference.getByText("List today's tides").first()).toBeVisible({ timeout: 30_000 });
  const testRequest = reference.getByRole("button", { name: /Test Request.*get \/tides\)/i }).first();
  await testRequest.scrollIntoViewIfNeeded();
  await testRequest.click();
  const send = b
    .getByRole("button", { name: /Send get request to .*\/tides/i })
    .filter({ visible: true })
    .first();
  await expect(send).toBeVisible({ timeout: 15_000 });
  const [response] = await Promise.all([
    b.waitForResponse((r) => new URL(r.url()).pathname === `/gw/${slug}/tides` && r.request().method() === "GET"),
    send.click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.request().headers()["authorization"]).toMatch(new RegExp(`^Bearer ${keyPrefix}`));
  await expect(
    b
      .getByText(/^200 OK/)
      .filter({ visible: true })
      .first(),
  ).toBeVisible();
  const reached = upstream.seen.filter((s) => s.path === "/v1/tides");
  expect(reached.length).toBeGreaterThan(0);
  expect(reached.at(-1)!.headers["x-platform-environment"]).toBe("test");
  expect(reached.at(-1)!.headers.authorization).toBeUndefined();
  await b.screenshot({ path: "test-results/screenshots/product-portal-try-it.png" });
  await b.keyboard.press("Escape");

  // Both calls (the key's, and the one from the docs) are in this portal's logs and usage.
  await b.goto(`${home}/logs`);
  await expect(b.getByTestId("log-row")).toHaveCount(2, { timeout: 20_000 });
  await expect(b.getByTestId("log-row").first()).toContainText(`/gw/${slug}/tides`);
  findings.push(...(await axeFindings(b, "logs")));
  await expect(async () => {
    await b.goto(`${home}/usage`);
    await expect(b.getByTestId("plan-calls")).toHaveText("2", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  findings.push(...(await axeFindings(b, "usage")));

  // The try-it key is in no key list.
  await b.goto(`${home}/keys`);
  await expect(b.getByRole("row").filter({ hasText: "Docs try-it" })).toHaveCount(0);

  // Signing out stays in the portal.
  await (await hydrated(b.getByRole("button", { name: "Sign out" }))).click();
  await expect(b).toHaveURL(new RegExp(`${home}$`), { timeout: 30_000 });
  await expect(b.getByRole("link", { name: "Sign in" })).toBeVisible();

  expect(visited.filter((p) => p !== home && !p.startsWith(`${home}/`))).toEqual([]);
  expect(findings).toEqual([]);
  upstream.close();
  await context.close();
});
