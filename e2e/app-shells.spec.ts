import { test, expect, type Page } from "@playwright/test";

// The app-type gallery and the shells drawn from each type's default config: reachable without signing in,
// usable by keyboard, readable at 375 px, light and dark.

const TYPES = [
  "Dashboard",
  "Developer",
  "Admin",
  "SaaS",
  "Data",
  "Headless",
  "CRM",
  "Booking",
  "Support",
  "Agency",
  "Ops",
  "Agent",
  "Workflow",
  "Infra",
  "Platform",
  "ClientPortal",
  "VibeCode",
];

const shot = (page: Page, name: string) => page.screenshot({ path: `test-results/screenshots/apps-${name}.png`, fullPage: true });

/** Presses Tab until the focused element's text is `name` (as a keyboard user would), failing after 60 presses. */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press("Tab");
    const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    if (text === name) return;
  }
  throw new Error(`Tab never reached "${name}"`);
}

async function noHorizontalScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(375);
}

/** The background of `selector` as "light" or "dark": the browser paints its computed colour (Tailwind's colours
 *  compute to lab()/oklch()) on a canvas and we read back its relative luminance. */
function background(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const ctx = document.createElement("canvas").getContext("2d")!;
      ctx.fillStyle = getComputedStyle(el).backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((c) => c / 255);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 ? "light" : "dark";
    });
}
const shellBackground = (page: Page) => background(page, "[data-app-shell]");

test("the gallery lists every app type with its views and panels, each leading to its shell", async ({ page }) => {
  await page.goto("/apps");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Application types");
  const list = page.getByRole("list", { name: "Application types" });
  await expect(list.locator(":scope > li")).toHaveCount(TYPES.length);
  for (const type of TYPES) await expect(list.getByRole("link", { name: type, exact: true })).toBeVisible();
  await expect(list.locator("li", { has: page.getByRole("link", { name: "Booking", exact: true }) })).toContainText("Booking pages");
  await shot(page, "gallery");
  await list.getByRole("link", { name: "ClientPortal", exact: true }).click();
  await expect(page).toHaveURL(/\/apps\/client-portal$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ClientPortal app");
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Projects");
});

test("a shell's views are reached by keyboard and show their panels as placeholders", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/apps/dashboard");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dashboard app");
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Overview");
  const nav = page.getByRole("navigation", { name: "Dashboard app navigation" });
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("The configured metrics (revenue, users, growth, retention) for the default period")).toBeVisible();
  await expect(page.locator("[data-panel]")).toHaveCount(3);

  await tabTo(page, "Analytics");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/apps\/dashboard\/analytics$/);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Analytics");
  await expect(nav.getByRole("link", { name: "Analytics" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("Charts to explore each metric by period, segment and source.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent activity", level: 4 })).toBeVisible();
  await expect(page.getByText("The latest events across the business, newest first.")).toBeVisible();
  await shot(page, "dashboard");

  // The settings of the type's config, behind a keyboard-operable disclosure.
  await tabTo(page, "Configuration (4 settings)");
  await page.keyboard.press("Enter");
  await expect(page.locator("dd", { hasText: "revenue, users, growth, retention" })).toBeVisible();

  await page.goto("/apps/crm/deals");
  await tabTo(page, "Pipeline");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/apps\/crm\/pipeline$/);
  await expect(page.getByText("Deals as cards in columns, one column per pipeline stage.")).toBeVisible();
  await expect(page.getByText("The number and value of deals in each pipeline stage, in the configured currency.")).toBeVisible();

  await page.goto("/apps/vibe-code");
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Editor");
  for (const panel of ["Chat", "Preview", "Code"]) await expect(page.getByRole("heading", { name: panel, level: 4 })).toBeVisible();
  await shot(page, "vibe-code");
});

test("the sidebar collapses and expands with its disclosure button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/apps/infra/costs");
  await expect(page.getByRole("button", { name: "Menu" })).toBeHidden();
  const toggle = page.getByRole("button", { name: "Sidebar" });
  const link = page.getByRole("link", { name: "Databases" });
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(link).toBeVisible();
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(link).toBeHidden();
  await page.keyboard.press("Space");
  await expect(link).toBeVisible();
});

test("at 375 px nothing scrolls sideways and the navigation is behind a Menu button", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  for (const path of ["/apps", "/apps/infra", "/apps/client-portal/deliverables", "/apps/support/knowledge-base", "/apps/vibe-code"]) {
    await page.goto(path);
    await noHorizontalScroll(page);
  }
  await page.goto("/apps");
  await shot(page, "gallery-mobile");

  await page.goto("/apps/platform");
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: "Sidebar" })).toBeHidden();
  await expect(page.getByRole("link", { name: "Deployments" })).toBeHidden();
  await tabTo(page, "Menu");
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("link", { name: "Deployments" })).toBeVisible();
  await noHorizontalScroll(page);
  await shot(page, "mobile-menu");
  await tabTo(page, "Deployments");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/apps\/platform\/deployments$/);
  await expect(page.getByRole("heading", { level: 2 })).toHaveText("Deployments");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await noHorizontalScroll(page);
  await shot(page, "mobile");
});

test("dark mode: the visitor's setting, or a mode the config forces, which carries across views", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/apps");
  expect(await background(page, "body")).toBe("dark");
  await shot(page, "gallery-dark");
  await page.goto("/apps/support");
  expect(await shellBackground(page)).toBe("dark");
  await expect(page.getByText("Open tickets by priority, oldest first.")).toBeVisible();
  await shot(page, "support-dark");

  // A forced light mode wins over the visitor's dark setting, panels included.
  await page.goto("/apps/support?mode=light");
  expect(await shellBackground(page)).toBe("light");
  expect(await background(page, "section:has(> [data-panel])")).toBe("light");

  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/apps/agency");
  expect(await shellBackground(page)).toBe("light");
  await page.getByRole("group", { name: "Colour mode" }).getByRole("link", { name: "Dark" }).click();
  await expect(page).toHaveURL(/\/apps\/agency\/clients\?mode=dark$/);
  expect(await shellBackground(page)).toBe("dark");
  await page.getByRole("link", { name: "Time tracking" }).click();
  await expect(page).toHaveURL(/\/apps\/agency\/time-tracking\?mode=dark$/);
  expect(await shellBackground(page)).toBe("dark");
  await expect(page.getByText("Hours logged this week by person and project.")).toBeVisible();
  await shot(page, "agency-forced-dark");
});

test("an unknown app type or view is a 404", async ({ page }) => {
  expect((await page.goto("/apps/blog"))?.status()).toBe(404);
  expect((await page.goto("/apps/dashboard/billing"))?.status()).toBe(404);
  expect((await page.goto("/apps/dashboard/overview/extra"))?.status()).toBe(404);
  expect((await page.goto("/apps/Dashboard"))?.status()).toBe(404);
});
