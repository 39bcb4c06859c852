import { readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, type APIRequestContext, type Page } from "@playwright/test";
import { bearer, callApi, createKey, expectNoOverflow, hydrated, newAccount, settle, signUp, startReceiver } from "./helpers";

// Issue 36, item 5: every page of the console (/portal/**), the catalogue, a product's portal (/p/{slug}/**), the
// app gallery, every app type's shell and a stored app (/apps/{slug}) fit a 390 px phone: the page never scrolls
// sideways (a wide table scrolls inside its own box). The pages are read from app/**/page.tsx, so a new page is
// covered (or the test asks for an id to visit it with). A provider with a published product, apps, a webhook, an
// OAuth client, calls and a paying customer, and that customer, see each page with their own data; a visitor sees
// the public ones. A page that overflows is saved as test-results/screenshots/narrow-<page>.png.

test.use({ viewport: { width: 390, height: 844 } });

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Harbour conditions", version: "1.0.0" },
  paths: {
    "/harbours/{harbourId}/conditions/hourly-forecast": {
      get: {
        operationId: "getHourlyHarbourConditionsForecast",
        summary: "The hourly forecast of a harbour's wind, swell and tide",
        parameters: [{ name: "harbourId", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "Twenty-four hours of conditions" } },
      },
    },
  },
};

/** The routes of app/<dir>/**\/page.tsx, e.g. "/portal/products/[id]" (optional catch-alls dropped). */
function routes(dir: string): string[] {
  return readdirSync(`app/${dir}`, { recursive: true })
    .map(String)
    .filter((f) => f === "page.tsx" || f.endsWith("/page.tsx"))
    .map((f) => `/${dir}/${f.replace(/\/?page\.tsx$/, "")}`.replace(/\/\[\[\.\.\.[^\]]+\]\]/, "").replace(/\/$/, ""))
    .sort();
}

/** A route with its dynamic segments filled from `values` (by route, then by segment name); null when one is missing. */
function fill(route: string, values: Record<string, string | undefined>): string | null {
  let missing = false;
  const path = route.replace(/\[([^\]]+)\]/g, (_, name: string) => {
    const v = values[route] ?? values[name];
    if (!v) missing = true;
    return v ?? "";
  });
  return missing ? null : path;
}

const fileName = (path: string) => path.replace(/^\//, "").replace(/[^a-zA-Z0-9]+/g, "-") || "home";

/** Opens `path` and checks it fits; a page that does not is saved as a screenshot. */
async function check(page: Page, path: string, who: string) {
  const res = await page.goto(path);
  expect.soft(res?.status() ?? 0, `${who} ${path} answered ${res?.status()}`).toBeLessThan(400);
  await settle(page);
  if (!(await expectNoOverflow(page, `${who} ${path}`)))
    await page.screenshot({ path: `test-results/screenshots/narrow-${who}-${fileName(path)}.png`, fullPage: true });
}

/** The distinct same-site paths of the links on the page under `prefix` (hidden ones too: a closed drawer's). */
async function linksUnder(page: Page, prefix: string): Promise<string[]> {
  const hrefs = await page.locator(`a[href^="${prefix}"]`).evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  return [...new Set(hrefs.map((h) => h.split(/[?#]/)[0]).filter((h) => h === prefix || h.startsWith(`${prefix}/`)))];
}

async function post(request: APIRequestContext, key: string, path: string, data: unknown) {
  const res = await request.post(path, { headers: bearer(key), data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
  return (await res.json()).data;
}

test("every console, catalogue, product portal and app page fits a 390 px screen", async ({ page, browser, request }) => {
  test.setTimeout(300_000);
  const upstream = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url, wind: "12 kn", swell: "1.5 m" }));
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  const receiver = await startReceiver();
  const tag = Date.now().toString(36);

  // ── A, the provider: a webhook, a published product with a documented API and a metered plan, apps, an OAuth
  // client, calls of its own (one of them an error).
  await signUp(page, newAccount("narrow-provider"));
  const keyA = await createKey(page, "Provider automation for the harbour conditions backend");
  await expectNoOverflow(page, "provider /portal/keys with a new key's secret shown");
  const hook = await post(request, keyA, "/v1/webhooks", {
    url: receiver.url("/hooks/harbour-conditions/provider-events-endpoint-with-a-long-path"),
    events: ["*"],
  });
  const product = await post(request, keyA, "/v1/products", {
    name: `Harbour conditions ${tag}`,
    type: "API",
    description: "Hourly wind, swell and tide forecasts for every harbour on the coast, with their warnings.",
    api: { upstreamUrl, sandboxUpstreamUrl: upstreamUrl, openapiDocument: OPENAPI },
  });
  const price = await post(request, keyA, `/v1/products/${product.id}/prices`, {
    name: "Harbour master",
    type: "usage",
    currency: "USD",
    amount: 0.01,
    rateLimit: { limit: 100, windowSeconds: 60 },
    monthlyQuota: 10000,
  });
  const published = await request.patch(`/v1/products/${product.id}`, { headers: bearer(keyA), data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;
  const developerApp = (await (await request.get(`/v1/apps?slug=${slug}`, { headers: bearer(keyA) })).json()).data[0];
  expect(developerApp?.id).toBeTruthy();
  const shaped = await request.patch(`/v1/apps/${developerApp.id}`, {
    headers: bearer(keyA),
    data: { views: { usage: { showCosts: true } } },
  });
  expect(shaped.status(), await shaped.text()).toBe(200);
  const dashboard = await post(request, keyA, "/v1/apps", { type: "Dashboard", name: `Harbour board ${tag}`, status: "published" });
  const admin = await post(request, keyA, "/v1/apps", { type: "Admin", name: `Harbour admin ${tag}`, status: "published" });
  await post(request, keyA, "/v1/oauth-clients", {
    name: "Harbour analytics for the coastal authority",
    redirectUris: ["https://analytics.harbour-conditions.example/oauth/callback/after-consent"],
    scopes: ["products:read"],
  });
  await callApi(request, keyA, 3);
  expect((await request.get("/v1/products/prod_does_not_exist", { headers: bearer(keyA) })).status()).toBe(404);

  // ── B, the customer: subscribes with the test card and calls the product through the gateway.
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 } });
  const pageB = await contextB.newPage();
  await signUp(pageB, newAccount("narrow-customer"));
  const keyB = await createKey(pageB, "Customer key for the harbour conditions forecasts");
  // A first subscription, used and canceled, leaves a paid invoice on both sides; the second is the current one.
  const callGateway = async (harbour: string) => {
    const res = await request.get(`/gw/${slug}/harbours/${harbour}/conditions/hourly-forecast?hours=24&units=metric`, {
      headers: bearer(keyB),
    });
    expect(res.status(), await res.text()).toBe(200);
  };
  const first = await post(request, keyB, "/v1/subscriptions", { priceId: price.id, paymentMethod: CARD });
  await callGateway("oslo");
  const canceled = await request.post(`/v1/subscriptions/${first.id}/cancel`, { headers: bearer(keyB), data: {} });
  expect(canceled.status(), await canceled.text()).toBe(200);
  const subscription = await post(request, keyB, "/v1/subscriptions", { priceId: price.id, paymentMethod: CARD });
  await callGateway("bergen-inner-harbour-north-pier");
  // Calls and their logs are written a moment later; the webhook's first messages have been sent.
  const logsOf = async (key: string) => (await (await request.get("/v1/logs?limit=100", { headers: bearer(key) })).json()).data;
  await expect.poll(async () => (await logsOf(keyA)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
  await expect.poll(async () => (await logsOf(keyB)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  const gatewayLog = (await logsOf(keyB)).find((l: { path: string }) => l.path.startsWith("/gw/"));
  await receiver.waitFor((r) => r.body.includes(product.id));
  const customers = (await (await request.get("/v1/customers", { headers: bearer(keyA) })).json()).data;
  expect(customers.length).toBe(1);

  // ── The console, every page, as A and as B, with each one's ids.
  const portal = routes("portal");
  expect(portal).toContain("/portal");
  const visited = new Set<string>();
  const asA = {
    "/portal/products/[id]": product.id,
    "/portal/apps/[id]": developerApp.id,
    "/portal/customers/[id]": customers[0].id,
  };
  const asB = { "/portal/subscriptions/[id]": subscription.id };
  for (const [who, p, values] of [
    ["provider", page, asA],
    ["customer", pageB, asB],
  ] as const) {
    for (const route of portal) {
      const path = fill(route, values);
      if (!path) continue;
      await check(p, path, who);
      visited.add(route);
    }
  }
  expect(
    portal.filter((r) => !visited.has(r)),
    "console pages the test has no id for",
  ).toEqual([]);

  // Drawers: a request in the logs, a webhook message.
  const aLog = (await logsOf(keyA))[0];
  await check(page, `/portal/logs?request=${aLog.id}`, "provider");
  await expect(page.getByTestId("log-drawer")).toBeVisible();
  await expectNoOverflow(page, "provider /portal/logs with its drawer open");
  await page.goto("/portal/webhooks");
  const card = page.locator("section", { hasText: "provider-events-endpoint-with-a-long-path" });
  const row = card.getByTestId("delivery-row").first();
  await expect(row).toBeVisible({ timeout: 20_000 });
  await (await hydrated(row.getByRole("button").first())).click();
  await expect(page).toHaveURL(new RegExp(`endpoint=${hook.id}&message=whd_`));
  await expect(page.getByRole("dialog")).toBeVisible();
  await settle(page);
  await expectNoOverflow(page, "provider /portal/webhooks with a message's drawer open");

  // ── The catalogue and the product's portal: to a visitor (signed out) and to the customer.
  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 } });
  const pageV = await visitor.newPage();
  const publicRoutes = [...routes("catalog"), ...routes("p")];
  for (const route of publicRoutes) {
    const path = fill(route, { slug });
    expect(path, `${route}: the test has no value for it`).not.toBeNull();
    await check(pageV, path!, "visitor");
    if (!/\/(signin|signup)$/.test(path!)) await check(pageB, path!, "customer");
  }
  await check(pageB, `/p/${slug}/logs?request=${gatewayLog.id}`, "customer");
  await expect(pageB.getByTestId("log-drawer")).toBeVisible();
  await expectNoOverflow(pageB, `customer /p/${slug}/logs with its drawer open`);

  // ── The stored apps, at each of their views.
  for (const app of [dashboard, admin]) {
    const base = `/apps/${app.slug}`;
    await check(page, base, "provider");
    for (const view of (await linksUnder(page, base)).filter((v) => v !== base)) await check(page, view, "provider");
    await check(pageV, base, "visitor");
  }

  await visitor.close();
  await contextB.close();
  await receiver.close();
  upstream.close();
});

test("the app gallery and every app type's shell, at each of its views, fit a 390 px screen", async ({ page }) => {
  test.setTimeout(300_000);
  expect(routes("apps")).toEqual(["/apps", "/apps/[type]"]);
  await check(page, "/apps", "visitor");
  const gallery = await page
    .getByRole("list", { name: "Application types" })
    .locator("a[href^='/apps/']")
    .evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""));
  const types = [...new Set(gallery.map((h) => h.split(/[?#]/)[0].split("/").slice(0, 3).join("/")))];
  expect(types.length).toBeGreaterThan(10);
  for (const type of types) {
    await check(page, type, "visitor");
    for (const view of (await linksUnder(page, type)).filter((v) => v !== type)) await check(page, view, "visitor");
  }
});
