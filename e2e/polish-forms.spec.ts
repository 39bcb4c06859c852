// Forms keep what was typed when the server refuses it, and say what is wrong in words next to the field: never
// zod's own wording. Key creation picks permissions by resource and refuses expiries of 0, negative or partial days.
import { test, expect, type Page } from "@playwright/test";
import { hydrated, newAccount, signUp } from "./helpers";

const ZOD_WORDS = /Too small|Too big|Invalid input|expected (string|number|int)|received|>=|at path/;

async function noZodWords(page: Page) {
  await expect(page.locator("main")).not.toContainText(ZOD_WORDS);
}

test("sign-up keeps what was typed after a refusal and names the field", async ({ page, context }) => {
  const taken = await signUp(page, newAccount("taken"));
  await context.clearCookies();

  await page.goto("/signup");
  await hydrated(page.getByRole("button", { name: "Create account" }));
  await page.getByLabel("Your name", { exact: true }).fill("Ada Lovelace");
  await page.getByLabel("Business name", { exact: true }).fill("Analytical Engines");
  await page.getByLabel("E-mail", { exact: true }).fill(taken.email);
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAccessibleDescription("Use at least 8 characters.");
  await expect(page.getByLabel("Your name", { exact: true })).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Business name", { exact: true })).toHaveValue("Analytical Engines");
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue(taken.email);

  // The server's refusal (the address is taken) lands on the e-mail field; the rest is still there.
  await page.getByLabel("Password", { exact: true }).fill("a long enough password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveAccessibleDescription(/already exists/);
  await expect(page.getByLabel("Your name", { exact: true })).toHaveValue("Ada Lovelace");
  await expect(page.getByLabel("Business name", { exact: true })).toHaveValue("Analytical Engines");
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("a long enough password");
  await expect(page).toHaveURL(/\/signup$/);
  await noZodWords(page);
});

test("settings refuse invalid values in words, keep the typed values and save nothing", async ({ page }) => {
  const account = await signUp(page);
  await page.goto("/portal/settings");
  await hydrated(page.getByRole("button", { name: "Save" }));
  await page.getByLabel("Business name").fill("A new name");
  await page.getByLabel("Keep request logs for (days)").fill("0");
  await page.getByLabel("Quota alerts at (%)").fill("80, lots");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Keep request logs for (days)")).toHaveAccessibleDescription("At least 1 day.");
  await expect(page.getByLabel("Quota alerts at (%)")).toHaveAccessibleDescription(/whole percentages from 1 to 100/);
  await expect(page.getByLabel("Business name")).toHaveValue("A new name");
  await expect(page.getByLabel("Keep request logs for (days)")).toHaveValue("0");
  await expect(page.getByLabel("Quota alerts at (%)")).toHaveValue("80, lots");
  await expect(page.getByText("Saved.")).toHaveCount(0);
  await noZodWords(page);

  await page.getByLabel("Keep request logs for (days)").fill("400");
  await page.getByLabel("Quota alerts at (%)").fill("80, 95");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByLabel("Keep request logs for (days)")).toHaveAccessibleDescription("At most 365 days.");
  await expect(page.getByLabel("Quota alerts at (%)")).not.toHaveAttribute("aria-invalid", "true");

  // Nothing was saved: the old name is back after a reload.
  await page.reload();
  await expect(page.getByLabel("Business name")).toHaveValue(account.businessName);

  await page.getByLabel("Keep request logs for (days)").fill("30");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Keep request logs for (days)")).toHaveValue("30");
});

test("key creation: expiry of 0, negative or partial days is refused in words; permissions by resource with presets and search", async ({
  page,
}) => {
  await signUp(page);
  await page.goto("/portal/keys");
  await hydrated(page.getByRole("button", { name: "Create key" }));
  await page.getByLabel("Name", { exact: true }).fill("Reporting job");
  const expiry = page.getByLabel("Expires after (days)");
  for (const [days, words] of [
    ["0", /at least 1 day/],
    ["-5", /at least 1 day/],
    ["1.5", /whole number of days/],
  ] as const) {
    await expiry.fill(days);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect(expiry, days).toHaveAccessibleDescription(words);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Reporting job");
    await expect(expiry).toHaveValue(days);
  }
  await expect(page.getByTestId("new-secret")).toHaveCount(0);
  await expect(page.getByTestId("key-row-Reporting job")).toHaveCount(0);
  await noZodWords(page);

  // One choice per resource, not a checkbox per scope.
  const permissions = page.getByRole("group", { name: "Permissions" });
  await expect(permissions.getByRole("checkbox")).toHaveCount(0);
  await expect(page.getByTestId("scope-summary")).toHaveText("Full access to every resource (*).");
  await permissions.getByRole("button", { name: "Read only" }).click();
  await expect(permissions.getByLabel("Products", { exact: true })).toHaveValue("read");
  await expect(page.getByTestId("scope-summary")).toContainText("products:read");
  await expect(page.getByTestId("scope-summary")).not.toContainText("products:write");

  // Search narrows the list to matching resources.
  await permissions.getByRole("searchbox", { name: "Search resources" }).fill("webh");
  await expect(permissions.getByRole("combobox")).toHaveCount(1);
  await permissions.getByLabel("Webhooks", { exact: true }).selectOption("write");
  await permissions.getByRole("searchbox", { name: "Search resources" }).fill("");
  await expect(permissions.getByRole("combobox").nth(5)).toBeVisible();

  // Nothing chosen is refused at the permissions, not sent.
  await permissions.getByRole("button", { name: "Clear" }).click();
  await expect(page.getByTestId("scope-summary")).toHaveText("No access yet.");
  await expiry.fill("");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(permissions.getByRole("alert")).toHaveText("Choose at least one permission, or a preset.");

  await permissions.getByLabel("Products", { exact: true }).selectOption("read");
  await permissions.getByLabel("Webhooks", { exact: true }).selectOption("write");
  await expiry.fill("30");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByTestId("new-secret")).toBeVisible();
  const row = page.getByTestId("key-row-Reporting job");
  await expect(row).toContainText("products:read, webhooks:read, webhooks:write");
  await expect(row.getByRole("cell").nth(2)).toHaveText("products:read, webhooks:read, webhooks:write");
});

test("registering an OAuth app keeps what was typed after a refusal", async ({ page }) => {
  await signUp(page);
  await page.goto("/portal/oauth-apps");
  await hydrated(page.getByRole("button", { name: "Register application" }));
  await page.getByLabel("Application name").fill("Kept App");
  await page.getByLabel("Redirect URIs").fill("ftp://nope.example/cb");
  await page.getByRole("checkbox", { name: "products:read" }).check();
  await page.getByRole("button", { name: "Register application" }).click();
  await expect(page.getByLabel("Redirect URIs")).toHaveAccessibleDescription(/https/);
  await expect(page.getByLabel("Application name")).toHaveValue("Kept App");
  await expect(page.getByLabel("Redirect URIs")).toHaveValue("ftp://nope.example/cb");
  await expect(page.getByRole("checkbox", { name: "products:read" })).toBeChecked();
  await noZodWords(page);
});
