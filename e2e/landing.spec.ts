import { test, expect } from "@playwright/test";

test("the landing page says what the platform is and leads to the docs and error reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Offer your products to developers");
  await page.screenshot({ path: "test-results/screenshots/landing.png", fullPage: true });
  await page.getByRole("link", { name: "Read the docs" }).click();
  await expect(page.getByRole("heading", { name: "API reference" })).toBeVisible();
  await expect(page.getByRole("cell", { name: "/v1/products/{id}" }).first()).toBeVisible();
  await page.getByRole("link", { name: "Errors" }).first().click();
  await expect(page.locator("#INVALID_API_KEY")).toContainText("No API key");
  await page.screenshot({ path: "test-results/screenshots/docs-errors.png", fullPage: true });
});

test("an error envelope's documentation link lands on that error's entry", async ({ page, request }) => {
  const res = await request.get("/v1/products");
  expect(res.status()).toBe(401);
  const body = await res.json();
  const link = new URL(body.error.documentation);
  await page.goto(link.pathname + link.hash);
  await expect(page.locator(`#${body.error.code}`)).toBeVisible();
  await expect(page.locator(`#${body.error.code}`)).toContainText("401");
});
