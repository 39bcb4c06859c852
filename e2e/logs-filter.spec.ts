import { test, expect } from "@playwright/test";
import { bearer, callApi, createKey, hydrated, signUp, viewShot } from "./helpers";

// Stripe-like logs: an error made through the API with a real key is found by the status-class filter, opened
// in the drawer by its own URL, shows its key, headers, bodies and usage, and "Copy as curl" shows the request.

test("a 4xx is found by filter, opened in the drawer by its URL, and copied as curl", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Error maker");
  await callApi(request, key, 2);
  const bad = await request.get("/v1/products/prod_01HZZZZZZZZZZZZZZZZZZZZZZZ?fields=name", {
    headers: { ...bearer(key), "X-Trace-Note": "e2e-4xx" },
  });
  expect(bad.status()).toBe(404);
  const requestId = bad.headers()["x-request-id"];
  expect(requestId).toMatch(/^req_/);

  await page.goto("/portal/logs");
  await hydrated(page.getByRole("button", { name: "Search" }));
  await page.getByLabel("Status").selectOption("4xx");
  await page.getByLabel("Key").selectOption({ label: "Error maker" });
  await page.getByLabel("Date range").selectOption("1h");
  const rows = page.getByTestId("log-row");
  // Logs are written within a few hundred milliseconds; search until the error is there.
  await expect(async () => {
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  // Every filter is in the URL.
  await expect(page).toHaveURL(/status=4xx/);
  await expect(page).toHaveURL(/range=1h/);
  await expect(page).toHaveURL(/key=key_/);
  const row = rows.first();
  await expect(row).toContainText("404");
  await expect(row).toContainText("GET");
  await expect(row).toContainText("Error maker");
  await expect(row).toContainText(requestId);
  await expect(row.locator("time")).toHaveCount(1);

  // The 2xx filter does not show it.
  await page.getByLabel("Status").selectOption("2xx");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("log-row").filter({ hasText: requestId })).toHaveCount(0);
  await expect(page.getByTestId("log-row").first()).toContainText("200");
  await page.goBack();
  await expect(page).toHaveURL(/status=4xx/);
  await expect(rows).toHaveCount(1);

  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`request=${requestId}`));
  const drawer = page.getByRole("dialog");
  await expect(drawer).toContainText(`GET /v1/products/prod_01HZZZZZZZZZZZZZZZZZZZZZZZ?fields=name`);
  await expect(drawer).toContainText("Error maker");
  await expect(drawer).toContainText("RESOURCE_NOT_FOUND");
  await expect(drawer.getByTestId("log-usage")).toContainText("not billable");
  await expect(drawer.locator("dt", { hasText: /^x-trace-note$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("e2e-4xx");
  await expect(drawer).not.toContainText(key);
  const curl = drawer.getByTestId("curl");
  await expect(curl).toContainText("curl -X GET");
  await expect(curl).toContainText("/v1/products/prod_01HZZZZZZZZZZZZZZZZZZZZZZZ?fields=name");
  await expect(curl).toContainText("Authorization: Bearer $API_KEY");
  await expect(curl).toContainText("X-Trace-Note: e2e-4xx", { ignoreCase: true });
  await drawer.getByRole("button", { name: "Copy as curl" }).click();
  await expect(drawer.getByRole("button", { name: "Copied" })).toBeVisible();
  await viewShot(page, "logs-drawer");

  // The drawer's URL opens it on its own (a deep link), filters and all.
  const link = page.url();
  await page.goto("/portal");
  await page.goto(link);
  await expect(page.getByRole("dialog")).toContainText("RESOURCE_NOT_FOUND");
  await expect(page.getByLabel("Status")).toHaveValue("4xx");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).not.toHaveURL(/request=/);

  // Free text finds it by its request id.
  await page.goto(`/portal/logs?q=${requestId}`);
  await expect(page.getByTestId("log-row")).toHaveCount(1);
});

test("a 5xx (the gateway's 502 from an upstream that is down) is found by the 5xx filter and opened in the drawer", async ({
  page,
  request,
}) => {
  await signUp(page);
  const key = await createKey(page, "Gateway caller");
  const headers = { ...bearer(key), "Content-Type": "application/json" };
  // A product of this business whose upstream is a closed port, subscribed to by its own project (to try it).
  const product = await (
    await request.post("/v1/products", {
      headers,
      data: { name: `Down API ${Date.now()}`, type: "API", api: { upstreamUrl: "http://127.0.0.1:9" } },
    })
  ).json();
  const price = await (
    await request.post(`/v1/products/${product.data.id}/prices`, {
      headers,
      data: { name: "Per call", type: "usage", currency: "USD", amount: 0.01 },
    })
  ).json();
  const published = await (await request.patch(`/v1/products/${product.data.id}`, { headers, data: { visibility: "public" } })).json();
  expect((await request.post("/v1/subscriptions", { headers, data: { priceId: price.data.id } })).status()).toBe(201);
  const failed = await request.get(`/gw/${published.data.slug}/forecast`, { headers: bearer(key) });
  expect(failed.status()).toBe(502);
  const requestId = failed.headers()["x-request-id"];

  await page.goto("/portal/logs");
  await hydrated(page.getByRole("button", { name: "Search" }));
  await page.getByLabel("Status").selectOption("5xx");
  const rows = page.getByTestId("log-row");
  await expect(async () => {
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page).toHaveURL(/status=5xx/);
  await expect(rows.first()).toContainText("502");
  await rows.first().click();
  await expect(page).toHaveURL(new RegExp(`request=${requestId}`));
  const drawer = page.getByRole("dialog");
  await expect(drawer).toContainText("UPSTREAM_UNAVAILABLE");
  await expect(drawer).toContainText(`/gw/${published.data.slug}/forecast`);
  await expect(drawer).not.toContainText(key);
});
