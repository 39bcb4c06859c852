import { test, expect, type Page } from "@playwright/test";
import { bearer, createKey, newAccount, signOut, signUp } from "./helpers";

// Issue 19: a product's own developer portal at /p/{slug}. A provider publishes an API product with an uploaded
// OpenAPI document through the API; publishing gives it a default Developer app; the provider themes it through
// /v1/apps; a visitor opens /p/{slug} and sees the provider's name, the theme, the plans, a Get started button that
// leads to sign-up, and the docs from the uploaded document with the gateway as the server.

const shot = (page: Page, name: string) =>
  page
    .waitForLoadState("networkidle")
    .catch(() => {})
    .then(() => page.screenshot({ path: `test-results/screenshots/product-portal-${name}.png`, fullPage: true }));

const OPENAPI = {
  openapi: "3.1.0",
  info: { title: "Tide tables", version: "1.0.0" },
  paths: {
    "/tides": {
      get: {
        operationId: "listTides",
        summary: "List today's tides",
        responses: { "200": { description: "The tides of the day" } },
      },
    },
  },
};

test("a published product's portal shows its provider, theme, plans and docs", async ({ page, request }) => {
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const account = await signUp(page, newAccount("tides"));
  const key = await createKey(page, "Provider automation");
  const headers = bearer(key);

  const created = await request.post("/v1/products", {
    headers,
    data: {
      name: `Tides ${tag}`,
      type: "API",
      description: "High and low water for every harbour.",
      api: { upstreamUrl: "http://127.0.0.1:9/v1", openapiDocument: OPENAPI },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const product = (await created.json()).data;
  const price = await request.post(`/v1/products/${product.id}/prices`, {
    headers,
    data: { name: "Harbour master", type: "usage", currency: "USD", amount: 0.02 },
  });
  expect(price.status(), await price.text()).toBe(201);
  const published = await request.patch(`/v1/products/${product.id}`, { headers, data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;

  // Publishing made the default Developer app; the provider gives it a theme and its code languages.
  const apps = (await (await request.get("/v1/apps?type=Developer", { headers })).json()).data;
  expect(apps).toHaveLength(1);
  expect(apps[0].slug).toBe(slug);
  const themed = await request.patch(`/v1/apps/${apps[0].id}`, {
    headers,
    data: {
      description: "Tide data for sailors and harbour software.",
      theme: { preset: "emerald", mode: "light", custom: { accent: "#065f46" } },
      views: { docs: { languages: ["shell", "python"] } },
    },
  });
  expect(themed.status(), await themed.text()).toBe(200);

  // A visitor (signed out) opens the portal.
  await signOut(page);
  await page.goto(`/p/${slug}`);
  await expect(page.getByTestId("portal-provider")).toHaveText(account.businessName);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Tides ${tag}`);
  await expect(page.getByText("Tide data for sailors and harbour software.")).toBeVisible();
  const root = page.locator(`[data-product-portal="${slug}"]`);
  await expect(root).toHaveAttribute("data-theme-mode", "light");
  expect(await root.evaluate((el) => getComputedStyle(el).getPropertyValue("--app-accent").trim())).toBe("#065f46");
  const nav = page.getByRole("navigation", { name: `Tides ${tag} navigation` });
  await expect(nav.getByRole("link")).toHaveText(["Overview", "API keys", "Webhooks", "Usage", "Documentation", "AI agents"]);
  await expect(page.getByTestId("plan-Harbour master")).toContainText("0.02 USD per request");
  const start = page.getByRole("link", { name: "Get started" });
  await expect(start).toHaveAttribute("href", new RegExp(`^/p/${slug}/signup\\?next=%2Fp%2F${slug}%2Fsubscribe%3Fprice%3Dprice_`));
  await shot(page, "landing");

  // The docs: the uploaded document, with the product's gateway as the server.
  await nav.getByRole("link", { name: "Documentation" }).click();
  await expect(page.getByRole("heading", { name: "Documentation", level: 1 })).toBeVisible();
  await expect(page.getByTestId("gateway-url")).toHaveText(new RegExp(`/gw/${slug}$`));
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("List today's tides").first()).toBeVisible({ timeout: 30_000 });
  const doc = await (await request.get(`/p/${slug}/openapi.json?product=${product.id}`)).json();
  expect(doc.info.title).toBe("Tide tables");
  expect(doc.servers[0].url).toMatch(new RegExp(`/gw/${slug}$`));
  await shot(page, "docs");

  // Get started: sign-up inside the portal that comes back to the subscription of the chosen plan.
  await page.goto(`/p/${slug}`);
  await page.getByRole("link", { name: "Get started" }).click();
  await expect(page).toHaveURL(new RegExp(`/p/${slug}/signup\\?next=`));
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

  // Another type of app renders at /apps/{slug} with its own theme and views.
  const ops = await request.post("/v1/apps", {
    headers,
    data: { type: "Ops", name: `Harbour ops ${tag}`, status: "published", theme: { mode: "dark", preset: "rose" } },
  });
  expect(ops.status(), await ops.text()).toBe(201);
  const opsApp = (await ops.json()).data;
  await page.goto(`/apps/${opsApp.slug}`);
  await expect(page.getByRole("heading", { name: `Harbour ops ${tag}`, level: 1 })).toBeVisible();
  await expect(page.locator("[data-app-shell=Ops]")).toHaveAttribute("data-theme-mode", "dark");
  await expect(page.getByRole("heading", { name: "Incidents", level: 2 })).toBeVisible();
  await shot(page, "ops-app");

  // A draft app's portal is a 404 to everyone but its business.
  const draft = await request.patch(`/v1/apps/${apps[0].id}`, { headers, data: { status: "draft" } });
  expect(draft.status()).toBe(200);
  const hidden = await page.goto(`/p/${slug}`);
  expect(hidden?.status()).toBe(404);
});
