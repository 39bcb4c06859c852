// The way in and the edges: sign-up and sign-in from the landing page, a sign-up page that promises only what it
// does, a 404 in the portal's design, a favicon, and the portal's test-mode switch and band on every page.
import { test, expect } from "@playwright/test";
import { hydrated, signUp } from "./helpers";
import { PORTAL_PAGES } from "./polish-pages";

test("the landing page leads to sign-up and sign-in; sign-up promises no keys it does not make", async ({ page }) => {
  await page.goto("/");
  const account = page.getByRole("navigation", { name: "Account" });
  await expect(account.getByRole("link", { name: "Sign in" })).toBeVisible();
  await account.getByRole("link", { name: "Sign up" }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole("heading", { name: "Create your account", level: 1 })).toBeVisible();
  // Sign-up makes a business and a project, no key: the page must not say it does.
  await expect(page.locator("main")).not.toContainText(/test keys right away|keys right away/);
  await expect(page.locator("main")).toContainText("create your first test key in the portal");
  await page.goto("/");
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("heading", { name: "Sign in", level: 1 })).toBeVisible();
});

test("an unknown address answers 404 with a page in the portal's design; the site has a favicon", async ({ page, request }) => {
  const res = await page.goto("/no-such-page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: "Go to the portal" })).toHaveAttribute("href", "/portal");
  await expect(page.getByRole("link", { name: "Read the docs" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/not-found.png", fullPage: true });

  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveCount(1);
  const href = (await icon.getAttribute("href"))!;
  expect(href).toMatch(/icon\.svg/);
  const svg = await request.get(href);
  expect(svg.status()).toBe(200);
  expect(svg.headers()["content-type"]).toContain("image/svg+xml");
  expect(await svg.text()).toContain("<svg");
});

test("the test-mode switch is a real switch, and the orange band is on every portal page while it is on", async ({ page }) => {
  await signUp(page);
  const toggle = page.getByRole("banner").getByRole("switch", { name: "Test mode" });
  await expect(toggle).toHaveAttribute("aria-checked", "true");
  expect(await toggle.evaluate((el) => el.tagName)).toBe("BUTTON");
  for (const path of PORTAL_PAGES) {
    await page.goto(path);
    await expect(page.getByTestId("test-mode-band"), path).toContainText("Test mode");
    await expect(page.getByTestId("test-mode-band")).toContainText("test data");
  }
  // Off: live data, no band anywhere; the keys page speaks of live keys.
  await (await hydrated(page.getByRole("banner").getByRole("switch", { name: "Test mode" }))).click();
  await expect(page.getByRole("banner").getByRole("switch", { name: "Test mode" })).toHaveAttribute("aria-checked", "false");
  await expect(page.getByTestId("test-mode-band")).toHaveCount(0);
  for (const path of PORTAL_PAGES) {
    await page.goto(path);
    await expect(page.getByRole("banner").getByRole("switch", { name: "Test mode" }), path).toHaveAttribute("aria-checked", "false");
    await expect(page.getByTestId("test-mode-band"), path).toHaveCount(0);
  }
  await page.goto("/portal/keys");
  await expect(page.getByRole("heading", { name: "Create a live key" })).toBeVisible();
  // And back, with the keyboard.
  const again = await hydrated(page.getByRole("banner").getByRole("switch", { name: "Test mode" }));
  await again.focus();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("test-mode-band")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Create a test key" })).toBeVisible();
});
