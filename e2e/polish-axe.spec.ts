// axe on every page, light and dark: no serious or critical violation. The findings are listed by rule and target.
import AxeBuilder from "@axe-core/playwright";
import { test, expect, type Page } from "@playwright/test";
import { createKey, signUp } from "./helpers";
import { PORTAL_PAGES, pageSlug } from "./polish-pages";

const PUBLIC = ["/", "/signin", "/signup", "/docs", "/docs/errors", "/docs/gateway", "/catalog"] as const;
const THEMES = ["light", "dark"] as const;

async function seriousViolations(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  if (page.url().endsWith("/portal/docs")) {
    await expect(page.getByTestId("api-reference")).not.toContainText(/Loading|Preparing/, { timeout: 30_000 });
    // The reference renders in steps after the network is idle: wait until its buttons stop changing.
    let last = -1;
    await expect
      .poll(
        async () => {
          const now = await page.locator("button").count();
          const stable = now === last;
          last = now;
          return stable;
        },
        { intervals: [500], timeout: 15_000 },
      )
      .toBe(true);
  }
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
          .slice(0, 3)
          .map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`)
          .join(" | ")}`,
    );
}

for (const theme of THEMES) {
  test.describe(`${theme} theme`, () => {
    test.use({ colorScheme: theme });

    test(`public pages have no serious or critical axe violations (${theme})`, async ({ page }) => {
      const found: string[] = [];
      for (const path of PUBLIC) {
        await page.goto(path);
        found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
    });

    test(`portal pages have no serious or critical axe violations (${theme})`, async ({ page }) => {
      test.setTimeout(180_000);
      await signUp(page);
      await createKey(page, "Axe key");
      const found: string[] = [];
      for (const path of PORTAL_PAGES) {
        await page.goto(path);
        found.push(...(await seriousViolations(page)).map((v) => `${path}: ${v}`));
        await page.screenshot({ path: `test-results/screenshots/axe-${theme}-${pageSlug(path)}.png`, fullPage: true });
      }
      expect(found).toEqual([]);
    });
  });
}
