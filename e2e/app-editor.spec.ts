import AxeBuilder from "@axe-core/playwright";
import { test, expect, type Locator, type Page } from "@playwright/test";
import { acceptDialogs, hydrated, newAccount, signUp } from "./helpers";

// Issue 19, the console's app editor: a provider creates a Developer app for a product in /portal/apps, sees the
// live preview follow a theme colour and a switch before saving, saves, is refused a colour that is not one (the
// field named, the input kept), publishes, and /p/{slug} wears the saved theme. Then the console's own app: switching
// showWebhooks off and renaming it changes the console's nav and name. axe on the new pages, light and dark.

const shot = (page: Page, name: string) =>
  page
    .waitForLoadState("networkidle")
    .catch(() => {})
    .then(() => page.screenshot({ path: `test-results/screenshots/app-editor-${name}.png`, fullPage: true }));

/** The value of a CSS variable on an element, as the browser computed it. */
const cssVar = (locator: Locator, name: string) => locator.evaluate((el, n) => getComputedStyle(el).getPropertyValue(n).trim(), name);

async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState("networkidle").catch(() => {});
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

test("a provider edits a Developer app with a live preview, publishes it, and themes and trims the console", async ({ page }) => {
  test.setTimeout(240_000);
  acceptDialogs(page);
  const tag = Date.now().toString(36);
  await signUp(page, newAccount("editor"));

  // A product to present.
  const productName = `Harbour ${tag}`;
  await page.goto("/portal/products");
  await hydrated(page.getByRole("button", { name: "Create product" }));
  await page.getByLabel("Product name").fill(productName);
  await page.getByLabel("Upstream URL (live)").fill("http://127.0.0.1:9/v1");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/portal\/products\/prod_/, { timeout: 30_000 });

  // The Apps page is in the console's nav; "New app" makes a Developer app for the product.
  await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Apps", exact: true }).click();
  await expect(page).toHaveURL(/\/portal\/apps$/);
  await expect(page.getByRole("heading", { name: "Apps", level: 1 })).toBeVisible();
  await hydrated(page.getByRole("button", { name: "New app" }));
  await page.getByLabel("Type", { exact: true }).selectOption("Developer");
  await page.getByLabel("App name").fill(`Harbour developers ${tag}`);
  await page.getByLabel("Product it presents").selectOption({ label: productName });
  await page.getByRole("button", { name: "New app" }).click();
  await expect(page).toHaveURL(/\/portal\/apps\/app_/, { timeout: 30_000 });
  const editorUrl = page.url();

  // The form is the type's schema: config switches, the views' props, nested objects as fieldsets.
  const save = await hydrated(page.getByRole("button", { name: "Save app" }));
  await expect(page.getByRole("checkbox", { name: "Show webhooks" })).toBeChecked();
  await expect(page.getByRole("group", { name: "Retry config" })).toBeVisible();
  await expect(page.getByRole("spinbutton", { name: "Default expiration" })).toHaveValue("90");
  await expect(page.getByRole("checkbox", { name: productName })).toBeChecked();

  // The preview follows edits before anything is saved.
  const preview = page.getByTestId("app-preview");
  const previewNav = page.getByTestId("preview-nav");
  await expect(page.getByTestId("preview-name")).toHaveText(`Harbour developers ${tag}`);
  await expect(previewNav).toContainText("Webhooks");
  const defaultAccent = await cssVar(preview, "--app-accent");
  await page.getByRole("button", { name: "Add colour" }).click();
  await expect(page.getByLabel("Colour 1 name")).toHaveValue("accent");
  await page.getByLabel("Colour 1 value").fill("#0f766e");
  await expect.poll(() => cssVar(preview, "--app-accent")).toBe("#0f766e");
  expect(defaultAccent).not.toBe("#0f766e");
  await page.getByRole("checkbox", { name: "Show webhooks" }).uncheck();
  await expect(previewNav).not.toContainText("Webhooks");
  await expect(previewNav).toContainText("API keys");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(`Harbour portal ${tag}`);
  await expect(page.getByTestId("preview-name")).toHaveText(`Harbour portal ${tag}`);
  await shot(page, "preview");

  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible({ timeout: 30_000 });

  // A colour that would end the CSS declaration is refused, named by its path, and what was typed stays.
  await page.getByLabel("Colour 1 value").fill("red;}");
  await page.getByRole("button", { name: "Save app" }).click();
  const refusal = page.locator('[data-error-path="theme.custom.accent"]');
  await expect(refusal).toBeVisible({ timeout: 30_000 });
  await expect(refusal).toContainText("colour");
  await expect(refusal).toContainText("theme.custom.accent");
  await expect(page.getByLabel("Colour 1 value")).toHaveValue("red;}");
  await expect(page.getByLabel("Colour 1 value")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("checkbox", { name: "Show webhooks" })).not.toBeChecked();
  await shot(page, "refused");

  // A number out of range is refused beside its own field, by its nested path.
  await page.getByLabel("Colour 1 value").fill("#0f766e");
  await page.getByRole("spinbutton", { name: "Default expiration" }).fill("0");
  await page.getByRole("button", { name: "Save app" }).click();
  await expect(page.locator('[data-error-path="views.apiKeys.defaultExpiration"]')).toBeVisible({ timeout: 30_000 });
  await page.getByRole("spinbutton", { name: "Default expiration" }).fill("30");

  // Publish; the product's portal wears the saved theme and leaves Webhooks out of its nav.
  await page.getByLabel("Status").selectOption("published");
  await page.getByRole("button", { name: "Save app" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator("[data-error-path]")).toHaveCount(0);
  const slug = await page.getByLabel("Slug").inputValue();
  await page.goto(`/p/${slug}`);
  await expect(page.getByText(`Harbour portal ${tag}`).first()).toBeVisible();
  const themed = page.locator('[style*="--app-accent"]').first();
  await expect.poll(() => cssVar(themed, "--app-accent")).toBe("#0f766e");
  await expect(page.getByRole("link", { name: "Webhooks", exact: true })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "API keys", exact: true }).first()).toBeVisible();

  // axe on the new pages, light and dark.
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const path of ["/portal/apps", editorUrl]) {
      await page.goto(path);
      expect(await seriousViolations(page), `${path} (${scheme})`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: "light" });

  // The console is an app too: listed, and its switches and name drive the console.
  await page.goto("/portal/apps");
  const nav = page.getByRole("navigation", { name: "Portal" });
  await expect(nav.getByRole("link", { name: "Webhooks", exact: true })).toBeVisible();
  await expect(page.getByTestId("console-name")).toHaveText("Developer Portal");
  const consoleRow = page.locator('[data-testid^="app-row-console-"]');
  await expect(consoleRow).toHaveCount(1);
  await expect(consoleRow).toContainText("Console");
  await consoleRow.getByRole("link", { name: "Developer Portal" }).click();
  await expect(page).toHaveURL(/\/portal\/apps\/app_/, { timeout: 30_000 });
  await hydrated(page.getByRole("button", { name: "Save app" }));
  await expect(page.getByLabel("Slug")).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Show webhooks" }).uncheck();
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(`Harbour console ${tag}`);
  await page.getByLabel("Preset").selectOption("emerald");
  await page.getByRole("button", { name: "Save app" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("console-name")).toHaveText(`Harbour console ${tag}`, { timeout: 30_000 });
  await expect(nav.getByRole("link", { name: "Webhooks", exact: true })).toHaveCount(0);
  await page.goto("/portal/keys");
  await expect(nav.getByRole("link", { name: "Webhooks", exact: true })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "API Keys", exact: true })).toBeVisible();
  await expect.poll(() => cssVar(page.locator("[data-console-app]"), "--app-accent")).toContain("#047857");
  await shot(page, "console");
});
