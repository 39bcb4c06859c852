// The docs' try-it console uses a key of its own that no key list shows, that is not a `*` key and cannot make
// keys; its list calls carry no pre-filled filter; the reference has a sidebar with a group per resource.
import { test, expect } from "@playwright/test";
import { bearer, createKey, signUp } from "./helpers";

test("try-it leaves the key list unchanged, sends no filter, and its key is not a full-access key", async ({ page, request }) => {
  test.slow(); // the reference's first load
  await signUp(page);
  await createKey(page, "My own key");
  await page.goto("/portal/keys");
  const rowsBefore = await page.locator('[data-testid^="key-row-"]').count();
  expect(rowsBefore).toBe(1);

  await page.goto("/portal/docs");
  await expect(page.getByTestId("try-it-key")).toContainText("sk_test_", { timeout: 30_000 });
  const reference = page.getByTestId("api-reference");
  await expect(reference.getByText("List products").first()).toBeVisible({ timeout: 30_000 });
  // Navigable: a sidebar group per resource, the first one open.
  await expect(reference.getByRole("button", { name: "Close Group - Products" })).toBeVisible();
  await expect(reference.getByRole("button", { name: "Open Group - Webhooks" })).toBeVisible();
  await expect(reference.getByRole("button", { name: "Open Group - API keys" })).toBeVisible();

  const testRequest = reference.getByRole("button", { name: /Test Request.*get \/v1\/products\)/i }).first();
  await testRequest.scrollIntoViewIfNeeded();
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
  // No filter pre-filled (it used to send type=SaaS): only paging defaults, if anything.
  const sent = new URL(response.url()).searchParams;
  for (const name of sent.keys()) expect(["limit", "offset"], `pre-filled parameter ${name}=${sent.get(name)}`).toContain(name);

  const tryItKey = response
    .request()
    .headers()
    ["authorization"].replace(/^Bearer /, "");
  expect(tryItKey).toMatch(/^sk_test_/);
  // Not a `*` key: it cannot make keys …
  const made = await request.post("/v1/api-keys", { headers: bearer(tryItKey), data: { name: "from try-it", scopes: ["products:read"] } });
  expect(made.status()).toBe(403);
  // … and neither the API's list nor the portal's shows it.
  const listed = await request.get("/v1/api-keys?limit=100", { headers: bearer(tryItKey) });
  expect(listed.status()).toBe(200);
  const names = ((await listed.json()).data as { name: string; scopes: string[] }[]).map((k) => k.name);
  expect(names).toEqual(["My own key"]);
  await page.goto("/portal/keys");
  await expect(page.locator('[data-testid^="key-row-"]')).toHaveCount(rowsBefore);
  await expect(page.getByTestId("key-row-My own key")).toBeVisible();
  await expect(page.getByText(/try-it/i)).toHaveCount(0);
});
