import { test, expect } from "@playwright/test";
import { callApi, createKey, hydrated, numberIn, signUp, viewShot } from "./helpers";

// The Usage view's period switch answers at once: the old numbers stay, greyed, until the new ones are there
// (never an empty chart or a zero), and an interval of the chart leads to its requests in the logs.

test("switching the period keeps data on screen and shows the new period's numbers", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Period checks");
  await callApi(request, key, 4);
  await page.goto("/portal/usage");
  await expect(async () => {
    await page.reload();
    expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(4);
  }).toPass({ timeout: 15_000, intervals: [300, 500, 1000] });
  await expect(page.getByTestId("usage-data")).toHaveAttribute("data-period", "day");

  // Slow the next answers down so the moment between click and data can be watched.
  await page.route("**/api/portal/metrics/overview**", async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await (await hydrated(page.getByRole("radio", { name: "7 days" }))).click();
  // At once: the button is chosen, the old data stays (greyed, busy), the total never drops to nothing.
  await expect(page.getByRole("radio", { name: "7 days" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByTestId("usage-data")).toHaveAttribute("aria-busy", "true");
  await expect(page.getByTestId("usage-loading")).toHaveText("Loading 7 days…");
  expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId("requests-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  // Then the new period's data, no longer greyed.
  await expect(page.getByTestId("usage-data")).toHaveAttribute("data-period", "week", { timeout: 10_000 });
  await expect(page.getByTestId("usage-data")).toHaveAttribute("aria-busy", "false");
  expect(await numberIn(page, "usage-total")).toBeGreaterThanOrEqual(4);
  await page.unroute("**/api/portal/metrics/overview**");

  // The previous period is there to compare with, and the quota with its alert thresholds.
  await expect(page.getByText(/previous period/).first()).toBeVisible();
  await expect(page.getByTestId("quota-chart")).toBeVisible();
  await expect(page.getByTestId("quota-chart")).toContainText("Alert at 80%");
  await expect(page.getByTestId("quota-chart")).toContainText("Quota 1,000");

  // Back to 24 hours: its data is already known, so it shows without waiting.
  await page.getByRole("radio", { name: "24 hours" }).click();
  await expect(page.getByTestId("usage-data")).toHaveAttribute("data-period", "day", { timeout: 2_000 });
  await viewShot(page, "usage-period");

  // From an interval with traffic to its requests in the logs.
  await page.getByText("The numbers behind the charts").click();
  const busy = page.getByTestId("usage-bucket").filter({ has: page.getByRole("link", { name: "View logs" }) });
  await busy.last().getByRole("link", { name: "View logs" }).click();
  await expect(page).toHaveURL(/\/portal\/logs\?from=.*&to=/);
  await expect(page.getByLabel("Date range")).toHaveValue("custom");
  await expect(page.getByTestId("log-row").first()).toContainText("/v1/products");
});
