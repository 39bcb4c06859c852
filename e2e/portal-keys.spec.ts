import { test, expect } from "@playwright/test";
import { bearer, confirmDialog, createKey, hydrated, signUp, viewShot } from "./helpers";

// A key's life in the portal: made (secret shown once), used against the API, rotated, revoked.

test("create a key, call the API with it, rotate it and revoke it", async ({ page, request }) => {
  await signUp(page);

  const name = "Backend server";
  const secret = await createKey(page, name);
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Your new key "${name}"`);
  await expect(dialog).toContainText("it will not be shown again");
  await expect(dialog.getByRole("button", { name: "Copy" })).toBeVisible();
  // The list shows a masked key, never the secret.
  const row = page.getByTestId(`key-row-${name}`);
  await expect(row).toContainText("active");
  await expect(row).not.toContainText(secret);
  await viewShot(page, "keys");

  // The secret is gone once dismissed and after a reload.
  await dialog.getByRole("button", { name: "I have stored it" }).click();
  await expect(page.getByTestId("new-secret")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);

  const list = await request.get("/v1/products", { headers: bearer(secret) });
  expect(list.status(), await list.text()).toBe(200);
  expect(Array.isArray((await list.json()).data)).toBe(true);

  // The form validates with the API's schema and shows the API's rule next to the field, in words.
  const apiError = await request.post("/v1/api-keys", { headers: bearer(secret), data: { name: "   " } });
  expect(apiError.status()).toBe(400);
  const { error } = await apiError.json();
  expect(error.field).toBe("name");
  await page.getByLabel("Name", { exact: true }).fill("   ");
  await page.getByRole("button", { name: "Create key" }).click();
  // The API's words for the field, as a sentence and without the API's "Invalid field 'name':" prefix.
  expect(error.message).toBe("Invalid field 'name': must not be empty");
  await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription("Must not be empty.");
  await expect(page.getByTestId("new-secret")).toHaveCount(0);

  // Rotate: a new secret, shown once, with the old one's grace period; both work for now.
  await (await hydrated(page.getByRole("button", { name: `Rotate ${name}` }))).click();
  await confirmDialog(page, { title: `Rotate "${name}"?`, says: "keeps working for 7 days", button: "Rotate key" });
  await expect(page.getByRole("dialog")).toContainText(`Rotated "${name}"`);
  await expect(page.getByRole("dialog")).toContainText("The old key keeps working until");
  const rotated = (await page.getByTestId("new-secret").textContent())!.trim();
  expect(rotated).toMatch(/^sk_test_/);
  expect(rotated).not.toBe(secret);
  await expect(page.getByTestId(`key-row-${name} (rotated)`)).toBeVisible();
  expect((await request.get("/v1/products", { headers: bearer(rotated) })).status()).toBe(200);
  expect((await request.get("/v1/products", { headers: bearer(secret) })).status()).toBe(200);

  // Revoke the old key: its next request is refused as revoked; the new one still works.
  await page.getByRole("button", { name: `Revoke ${name}`, exact: true }).click();
  await confirmDialog(page, { title: `Revoke "${name}"?`, says: "stops working on its next request", button: "Revoke key" });
  await expect(row.getByText("revoked", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: `Revoke ${name}`, exact: true })).toHaveCount(0);
  await expect(async () => {
    const res = await request.get("/v1/products", { headers: bearer(secret) });
    expect(res.status()).toBe(401);
    expect((await res.json()).error.code).toBe("API_KEY_REVOKED");
  }).toPass({ timeout: 10_000 });
  expect((await request.get("/v1/products", { headers: bearer(rotated) })).status()).toBe(200);
});

test("a negative expiry is refused at its field, and no key that never expires is made instead", async ({ page }) => {
  await signUp(page);
  await page.goto("/portal/keys");
  await hydrated(page.getByRole("button", { name: "Create key" }));
  await page.getByLabel("Name", { exact: true }).fill("Negative expiry");
  await page.getByLabel("Expires after (days)").fill("-5");
  await page.getByRole("button", { name: "Create key" }).click();
  // The server's field error is shown next to the field (the form does not validate natively: one source of rules).
  await expect(page.getByLabel("Expires after (days)")).toHaveAccessibleDescription(/at least 1 day/);
  await expect(page.getByTestId("new-secret")).toHaveCount(0);
  await expect(page.getByTestId("key-row-Negative expiry")).toHaveCount(0);
});
