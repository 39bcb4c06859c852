// Destructive actions ask in one accessible dialog (components/ui/confirm-dialog.tsx), never the browser's
// confirm(): it names what is lost, starts on Cancel, keeps Tab inside, closes on Escape and returns focus.
import { test, expect } from "@playwright/test";
import { confirmDialog, createKey, hydrated, signUp } from "./helpers";

test("revoking a key asks in an accessible dialog; Escape and Cancel keep the key", async ({ page }) => {
  const native: string[] = [];
  page.on("dialog", (d) => {
    native.push(d.message());
    void d.dismiss();
  });
  await signUp(page);
  await createKey(page, "Dialog key");
  await page.getByRole("button", { name: "I have stored it" }).click();
  const row = page.getByTestId("key-row-Dialog key");
  const revoke = await hydrated(page.getByRole("button", { name: "Revoke Dialog key" }));

  await revoke.click();
  const dialog = page.getByRole("alertdialog", { name: 'Revoke "Dialog key"?' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute("aria-modal", "true");
  await expect(dialog).toHaveAccessibleDescription(/stops working on its next request/);
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: "test-results/screenshots/portal-confirm-dialog.png" });

  // Tab and Shift+Tab stay inside the dialog.
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(dialog.getByRole("button", { name: "Revoke key" })).toBeFocused();

  // Escape closes it, the key stays, focus goes back to the button that opened it.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(revoke).toBeFocused();
  await expect(row).toContainText("active");

  await revoke.click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toContainText("active");

  await revoke.click();
  await confirmDialog(page, { title: 'Revoke "Dialog key"?', button: "Revoke key" });
  await expect(row).toContainText("revoked");
  expect(native, "no native confirm()").toEqual([]);
});

test("deleting an OAuth app names what is lost and asks first", async ({ page }) => {
  const native: string[] = [];
  page.on("dialog", (d) => {
    native.push(d.message());
    void d.dismiss();
  });
  await signUp(page);
  await page.goto("/portal/oauth-apps");
  await hydrated(page.getByRole("button", { name: "Register application" }));
  await page.getByLabel("Application name").fill("Doomed App");
  await page.getByLabel("Redirect URIs").fill("https://app.example.com/cb");
  await page.getByRole("checkbox", { name: "products:read" }).check();
  await page.getByRole("button", { name: "Register application" }).click();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Delete Doomed App" }).click();
  const dialog = page.getByRole("alertdialog", { name: 'Delete "Doomed App"?' });
  await expect(dialog).toContainText("loses the connection");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("client-row-Doomed App")).toBeVisible();
  await page.getByRole("button", { name: "Delete Doomed App" }).click();
  await confirmDialog(page, { title: 'Delete "Doomed App"?', says: "cannot be undone", button: "Delete application" });
  await expect(page.getByTestId("client-row-Doomed App")).toHaveCount(0);
  expect(native).toEqual([]);
});
