import { test, expect } from "@playwright/test";
import { signUp, viewShot } from "./helpers";

// The portal's API reference: rendered from the OpenAPI document, with a one-hour test key for try-it, and a
// request sent from the try-it console reaching this deployment, all under the portal's nonce-based CSP (the browser
// reports no violation: no script, style, font or connection of the reference is refused).

test("the API reference renders and try-it sends a request with the test key", async ({ page }) => {
  test.slow(); // the reference's first load
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await signUp(page);
  const docs = await page.goto("/portal/docs");
  expect(docs?.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  await expect(page.getByRole("heading", { name: "Documentation", level: 1 })).toBeVisible();
  const keyNote = page.getByTestId("try-it-key");
  await expect(keyNote).toBeVisible({ timeout: 30_000 });
  await expect(keyNote).toContainText("sk_test_");
  const keyPrefix = (await keyNote.locator("code").textContent())!.replace("…", "");

  // Text that comes from the OpenAPI document itself.
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("Developer Platform API").first()).toBeVisible({ timeout: 30_000 });
  await expect(reference.getByText("List products").first()).toBeVisible();
  await viewShot(page, "docs");

  // The key is kept for this browser session: a reload does not make another one.
  await page.reload();
  await expect(page.getByTestId("try-it-key")).toContainText(keyPrefix);

  // Try-it (Scalar's client): open "List products" and send it. Scalar draws a tag's operations only while the tag
  // is open, and after the reload it may come back closed ("Products (Collapsed)", a "Show More" button): open it.
  await expect(reference.getByRole("heading", { name: /^Products/ }).first()).toBeVisible({ timeout: 30_000 });
  const showAll = reference.getByRole("button", { name: /Show all Products endpoints/i });
  if (await showAll.isVisible()) await showAll.click();
  const testRequest = reference.getByRole("button", { name: /Test Request.*get \/v1\/products\)/i }).first();
  await testRequest.scrollIntoViewIfNeeded({ timeout: 30_000 });
  await testRequest.click();
  const send = page
    .getByRole("button", { name: /Send get request to .*\/v1\/products/i })
    .filter({ visible: true })
    .first();
  await expect(send).toBeVisible({ timeout: 15_000 });
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === "/v1/products" && r.request().method() === "GET"),
    send.click(),
  ]);
  expect(response.status()).toBe(200);
  expect(response.request().headers()["authorization"]).toMatch(new RegExp(`^Bearer ${keyPrefix}`));
  await expect(
    page
      .getByText(/^200 OK/)
      .filter({ visible: true })
      .first(),
  ).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/portal-docs-try-it.png" });
  expect(violations).toEqual([]);
});
