import { test, expect } from "@playwright/test";
import { bearer, callApi, createKey, hydrated, numberIn, signUp, viewShot } from "./helpers";

// API calls made with a key move the usage chart and show up in the request log, credentials redacted.

test("the usage total grows after API calls", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Usage checks");

  await page.goto("/portal/usage");
  await expect(page.getByRole("heading", { name: "Usage", level: 1 })).toBeVisible();
  await expect(page.getByTestId("usage-total")).toBeVisible();
  const before = await numberIn(page, "usage-total");

  await callApi(request, key, 5);
  // Rollups are written every few hundred milliseconds here; reload until the page shows them.
  await expect(async () => {
    await page.reload();
    expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(before + 5);
  }).toPass({ timeout: 15_000, intervals: [300, 500, 1000] });
  // The chart drew bars for the calls.
  await expect(page.getByTestId("requests-chart").locator(".recharts-bar-rectangle path, .recharts-rectangle").first()).toBeVisible();
  await (await hydrated(page.getByRole("radio", { name: "Last hour" }))).click();
  await expect(page.getByRole("radio", { name: "Last hour" })).toHaveAttribute("aria-checked", "true");
  await expect(async () => expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(before + 5)).toPass({ timeout: 10_000 });
  await page.getByRole("radio", { name: "24 hours" }).click();
  await expect(async () => expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(before + 5)).toPass({ timeout: 10_000 });
  await viewShot(page, "usage");

  // The dashboard shows the same traffic.
  await page.goto("/portal");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /GET \/v1\/products/ }).first()).toBeVisible();
  await viewShot(page, "dashboard");
});

test("a request is found in the logs, with its headers and Authorization redacted", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Log checks");
  await callApi(request, key, 2);
  const res = await request.get("/v1/products?limit=7", { headers: { ...bearer(key), "X-Trace-Note": "e2e-logs" } });
  expect(res.status()).toBe(200);
  const requestId = res.headers()["x-request-id"];
  expect(requestId).toMatch(/^req_/);

  await page.goto("/portal/logs");
  await expect(page.getByRole("heading", { name: "Logs", level: 1 })).toBeVisible();
  await hydrated(page.getByRole("button", { name: "Search" }));
  // Method and path are columns of their own.
  const row = page.getByTestId("log-row").filter({ hasText: "/v1/products?limit=7" });
  // Logs are written within a few hundred milliseconds; search again until the row is there.
  await expect(async () => {
    await page.getByLabel("Search path or request id").fill("limit=7");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(row).toHaveCount(1, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("log-row")).toHaveCount(1);
  await expect(row).toContainText("200");
  await expect(row).toContainText("GET");
  await expect(row).toContainText("Log checks");

  await row.click();
  await expect(row).toHaveAttribute("aria-selected", "true");
  const detail = page.getByTestId("log-detail");
  await expect(detail).toBeVisible();
  await expect(page.getByTestId("log-drawer")).toContainText("GET /v1/products?limit=7");
  await expect(detail).toContainText(requestId);
  await expect(detail.getByRole("heading", { name: "Request headers" })).toBeVisible();
  await expect(detail.locator("dt", { hasText: /^authorization$/ })).toBeVisible();
  await expect(detail.locator("dt", { hasText: /^authorization$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("[REDACTED]");
  await expect(detail.locator("dt", { hasText: /^x-trace-note$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText("e2e-logs");
  await expect(detail).not.toContainText(key);
  await expect(detail.getByRole("heading", { name: "Response body" })).toBeVisible();
  await viewShot(page, "logs");

  // Searching by request id, and opening a request by its link, both find it.
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("log-detail")).toHaveCount(0);
  await page.getByLabel("Search path or request id").fill(requestId);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("log-row")).toHaveCount(1);
  await page.goto(`/portal/logs?id=${requestId}`);
  await expect(page.getByTestId("log-drawer")).toContainText("GET /v1/products?limit=7");
});
