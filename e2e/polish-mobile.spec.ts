// At 390 px (a phone) every page fits its width: no sideways scrolling of the page itself (tables scroll inside
// their own box), and the portal's navigation is a drawer behind a menu button. A screenshot per page for review.
import { test, expect } from "@playwright/test";
import { createKey, expectNoOverflow, hydrated, settle, signUp } from "./helpers";
import { PORTAL_PAGES, PUBLIC_PAGES, pageSlug } from "./polish-pages";

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test("public pages fit 390 px", async ({ page }) => {
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await settle(page);
    await page.screenshot({ path: `test-results/screenshots/mobile-${pageSlug(path)}.png`, fullPage: true });
    await expectNoOverflow(page, path);
  }
});

test("every portal page fits 390 px, and the navigation is a drawer", async ({ page }) => {
  await signUp(page);
  await createKey(page, "Phone key"); // a row in the keys table
  for (const path of PORTAL_PAGES) {
    await page.goto(path);
    await settle(page);
    await page.screenshot({ path: `test-results/screenshots/mobile-${pageSlug(path)}.png`, fullPage: true });
    await expectNoOverflow(page, path);
  }

  // The navigation: hidden behind a menu button, opened as a drawer, closed by Escape or by choosing a page.
  await page.goto("/portal");
  const nav = page.getByRole("navigation", { name: "Portal" });
  await expect(nav.getByRole("link", { name: "Settings" }).filter({ visible: true })).toHaveCount(0);
  const menu = await hydrated(page.getByRole("button", { name: "Menu" }));
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await menu.click();
  const drawer = page.getByRole("dialog", { name: "Portal navigation" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("link", { name: "Settings" })).toBeVisible();
  await page.screenshot({ path: "test-results/screenshots/mobile-portal-drawer.png" });
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  await expect(menu).toBeFocused();
  await menu.click();
  await drawer.getByRole("link", { name: "API Keys" }).click();
  await expect(page).toHaveURL(/\/portal\/keys$/);
  await expect(drawer).toBeHidden();
  await expectNoOverflow(page, "/portal/keys (after the drawer)");
});
