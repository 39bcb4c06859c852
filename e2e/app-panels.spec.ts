import AxeBuilder from "@axe-core/playwright";
import { test, expect, type APIRequestContext, type Page } from "@playwright/test";
import { bearer, createKey, newAccount, signUp } from "./helpers";

// Issue 19, item 3: stored apps at /apps/{slug} show their business's own data. Provider A has a product, calls and
// a paid invoice (developer B subscribed, was billed for three calls and cancelled); A creates a Dashboard and an
// Admin app through /v1/apps and publishes them. A sees the same numbers the API reports (calls, revenue) and its
// audit entries; B sees the shells with private panels and none of A's data; a draft is a 404 to B; axe finds no
// serious or critical issue. Last, one app in three themes, saved as docs/screenshots/app-theme-<name>.png.

async function serious(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${page.url()} ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

async function post(request: APIRequestContext, key: string, path: string, data: unknown, status = 201) {
  const res = await request.post(path, { headers: { ...bearer(key), "Content-Type": "application/json" }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()).data;
}

async function get(request: APIRequestContext, key: string, path: string) {
  const res = await request.get(path, { headers: bearer(key) });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()).data;
}

const digits = (text: string | null) => Number((text ?? "").replace(/[^0-9.]/g, ""));

test("stored Dashboard and Admin apps show their business's real numbers and audit log, and nothing to others", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);

  // ── A: a published product with a plan per call.
  const a = await signUp(page, newAccount("panels"));
  const keyA = await createKey(page, "Panels automation");
  const product = await post(request, keyA, "/v1/products", {
    name: `Gauges ${tag}`,
    type: "API",
    api: { upstreamUrl: "http://127.0.0.1:9/v1" },
  });
  const price = await post(request, keyA, `/v1/products/${product.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "USD",
    amount: 0.25,
  });
  const published = await request.patch(`/v1/products/${product.id}`, { headers: bearer(keyA), data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);

  // ── B: subscribes, A verifies B's key three times (three billed calls), B cancels: a paid invoice sold by A.
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const pageB = await contextB.newPage();
  await signUp(pageB, newAccount("outsider"));
  const keyB = await createKey(pageB, "Outsider key");
  const sub = await post(request, keyB, "/v1/subscriptions", {
    priceId: price.id,
    paymentMethod: { card: { number: "4242424242424242" } },
  });
  for (let i = 0; i < 3; i++) {
    const v = await post(request, keyA, "/v1/keys/verify", { key: keyB, product: product.id }, 200);
    expect(v.valid).toBe(true);
  }
  await post(request, keyB, `/v1/subscriptions/${sub.id}/cancel`, {}, 200);
  const invoices = await get(request, keyB, "/v1/invoices");
  expect(invoices[0]?.status).toBe("paid");

  // ── A's apps, published through the API.
  const dashboard = await post(request, keyA, "/v1/apps", { type: "Dashboard", name: `Gauges board ${tag}`, status: "published" });
  const admin = await post(request, keyA, "/v1/apps", { type: "Admin", name: `Gauges admin ${tag}`, status: "published" });
  const draft = await post(request, keyA, "/v1/apps", { type: "SaaS", name: `Gauges draft ${tag}` });

  // Revenue: the API's figure and the Dashboard's are the same money.
  const revenue = await get(request, keyA, "/v1/revenue");
  const rows = revenue.data as { currency: string; total: number; totalDecimal: string }[];
  expect(rows).toHaveLength(1);
  expect(rows[0].total).toBe(invoices[0].total);

  await page.goto(`/apps/${dashboard.slug}`);
  const metrics = page.locator("[data-panel=metrics]");
  await expect(page.getByTestId("app-data-scope")).toHaveText(`Test data of ${a.businessName}`);
  await expect(metrics.getByTestId("stat-revenue-USD")).toHaveText(`${rows[0].totalDecimal} USD`);

  // Calls: the page and GET /v1/usage/metrics read the same rollups. Usage is written a moment after each call and
  // the API's own read is counted after it answers, so reload until the page shows what the API said just before,
  // once the rollups hold A's ten calls above (until then both may agree on a count that is still behind).
  let apiCalls = -1;
  await expect
    .poll(
      async () => {
        await page.reload();
        const shown = digits(await metrics.getByTestId("stat-calls").textContent());
        const said = (await get(request, keyA, "/v1/usage/metrics?period=month")).totalRequests as number;
        apiCalls = said;
        return shown === said && said >= 10;
      },
      { intervals: [1_000], timeout: 30_000 },
    )
    .toBe(true);
  expect(apiCalls).toBeGreaterThanOrEqual(10);
  // The recent activity is the business's events: the apps just created are there.
  await expect(page.locator("[data-panel=recent-activity]")).toContainText("app.created");
  await expect(page.getByRole("heading", { name: "Overview", level: 2 })).toBeVisible();
  const found = await serious(page);

  // The Admin app: its users are A's team, its audit logs the entries of A's audit log.
  await page.goto(`/apps/${admin.slug}`);
  const main = page.locator("#app-main");
  await expect(main.getByRole("table", { name: "Team members" })).toContainText(a.email);
  await expect(main.getByRole("table", { name: "Team members" })).toContainText("owner");
  // Audit entries are written in batches a moment after the change.
  let audit: { id: string }[] = [];
  await expect
    .poll(async () => (audit = await get(request, keyA, `/v1/audit-logs?action=app.created&targetId=${admin.id}`)).length)
    .toBe(1);
  await expect(page.locator("[data-panel=recent-activity]").locator(`[data-row="${audit[0].id}"]`)).toContainText("app.created");
  await page.getByRole("link", { name: "Audit logs" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/apps/${admin.slug}/audit-logs$`));
  await expect(main.getByRole("table", { name: "Audit log, newest first" })).toContainText(admin.id);
  await expect(page.locator("[data-panel=system-health]")).toContainText("monitoring service");
  found.push(...(await serious(page)));
  await page.emulateMedia({ colorScheme: "dark" });
  found.push(...(await serious(page)));
  await page.emulateMedia({ colorScheme: null });
  // At 375 px the wide tables scroll in their own region; the page never scrolls sideways.
  await page.goto(`/apps/${admin.slug}/permissions`);
  await expect(main.getByRole("table", { name: "Permissions per resource and role" })).toContainText("audit_logs");
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The Developer app publishing made (at the product's slug) shows A's keys and requests here too, and a Platform
  // app the test/live split: one key and one product in test, none in live.
  await page.goto(`/apps/${(await published.json()).data.slug}`);
  await expect(page.locator("[data-panel=api-keys]")).toContainText("Panels automation");
  await expect(page.locator("[data-panel=recent-requests]")).toContainText("GET /v1/audit-logs");
  const platform = await post(request, keyA, "/v1/apps", { type: "Platform", name: `Gauges platform ${tag}`, status: "published" });
  await page.goto(`/apps/${platform.slug}/environments`);
  const split = main.getByRole("table", { name: "Test and live environments" });
  await expect(split.locator("[data-row=test] td")).toHaveText(["Test", "1", "1", /^\d+$/]);
  await expect(split.locator("[data-row=production] td")).toHaveText(["Live", "0", "0", "0"]);
  await expect(page.locator("[data-panel=deployment-status] [data-panel-state=empty]")).toContainText("deployment pipeline");

  // The draft is A's preview only.
  await page.goto(`/apps/${draft.slug}/billing`);
  await expect(page.getByRole("status").filter({ hasText: "Draft" })).toBeVisible();
  await expect(page.locator("[data-panel=billing-summary]").getByTestId("stat-plan")).toHaveText("free");

  // ── B: the same addresses show shells with private panels and none of A's data; the draft is a 404.
  for (const slug of [dashboard.slug, admin.slug]) {
    await pageB.goto(`/apps/${slug}`);
    await expect(pageB.getByTestId("app-data-scope")).toHaveText("Shell only: the data is private");
    await expect(pageB.locator("[data-panel-state=data]")).toHaveCount(0);
    await expect(pageB.locator("[data-panel-state=private]").first()).toContainText("only its signed-in members see");
    await expect(pageB.locator("body")).not.toContainText(a.email);
    await expect(pageB.locator("body")).not.toContainText(`${rows[0].totalDecimal} USD`);
    found.push(...(await serious(pageB)));
  }
  await expect(pageB.locator("[data-panel=system-health] [data-panel-state=empty]")).toBeVisible();
  expect((await pageB.goto(`/apps/${draft.slug}`))?.status()).toBe(404);
  await contextB.close();
  expect(found).toEqual([]);
});

test("one app in three themes: a light preset, dark mode and custom colours", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page, newAccount("themes"));
  const key = await createKey(page, "Theme automation");
  const app = await post(request, key, "/v1/apps", {
    type: "Dashboard",
    name: "Harbour metrics",
    description: "Calls, errors and revenue of the harbour APIs.",
    status: "published",
  });
  await post(request, key, "/v1/products", { name: "Harbour tides", type: "API", api: { upstreamUrl: "http://127.0.0.1:9/v1" } });
  for (let i = 0; i < 5; i++) await get(request, key, "/v1/products");
  // Usage is written a moment after the calls: wait until the page counts them, so every picture shows them.
  await expect
    .poll(
      async () => {
        await page.goto(`/apps/${app.slug}`);
        return digits(await page.locator("[data-panel=metrics]").getByTestId("stat-calls").textContent());
      },
      { intervals: [1_000], timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(7);

  const themes = {
    light: { preset: "emerald", mode: "light" },
    dark: { preset: "indigo", mode: "dark" },
    custom: {
      mode: "light",
      custom: {
        accent: "#9d174d",
        "accent-strong": "#831843",
        "accent-soft": "#fce7f3",
        bg: "#fffbf5",
        surface: "#fdf4ff",
        card: "#ffffff",
      },
    },
  } as const;
  const found: string[] = [];
  for (const [name, theme] of Object.entries(themes)) {
    const res = await request.patch(`/v1/apps/${app.id}`, { headers: bearer(key), data: { theme } });
    expect(res.status(), await res.text()).toBe(200);
    await page.goto(`/apps/${app.slug}`);
    const root = page.locator("[data-app-shell=Dashboard]");
    await expect(root).toHaveAttribute("data-theme-mode", theme.mode);
    if (name === "custom")
      expect(await root.evaluate((el) => getComputedStyle(el).getPropertyValue("--app-accent").trim())).toBe("#9d174d");
    await expect(page.locator("[data-panel=metrics]").getByTestId("stat-calls")).toBeVisible();
    await expect(page.locator(".recharts-surface").first()).toBeVisible({ timeout: 15_000 });
    found.push(...(await serious(page)).map((v) => `${name}: ${v}`));
    await page.screenshot({ path: `docs/screenshots/app-theme-${name}.png`, fullPage: true });
  }
  expect(found).toEqual([]);
});
