import { test, expect } from "@playwright/test";
import { bearer, createKey, hydrated, signUp, startReceiver, verifySignature, viewShot, type Receiver } from "./helpers";

// An endpoint added in the portal, pointed at a real receiver on 127.0.0.1, gets a signed test event and the
// portal shows the delivery.

let receiver: Receiver;
test.beforeEach(async () => {
  receiver = await startReceiver();
});
test.afterEach(async () => {
  await receiver.close();
});

test("add an endpoint, send a test event, see it arrive signed and listed as delivered", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Webhook checks");

  await page.goto("/portal/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await hydrated(page.getByRole("button", { name: "Add endpoint" }));

  // A bad URL: the API's own message, next to the URL field.
  const apiError = await request.post("/v1/webhooks", { headers: bearer(key), data: { url: "not a url", events: ["*"] } });
  expect(apiError.status()).toBe(400);
  const { error } = await apiError.json();
  expect(error.field).toBe("url");
  await page.getByLabel("Endpoint URL").fill("not a url");
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByLabel("Endpoint URL")).toHaveAccessibleDescription(error.message);

  const url = receiver.url("/hooks/portal-test");
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secretBox = page.getByTestId("webhook-secret");
  await expect(secretBox).toBeVisible();
  const secret = (await secretBox.textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole("dialog")).toContainText("It will not be shown again.");
  const card = page.locator("section", { hasText: url });
  await expect(card).toBeVisible();
  await expect(card).not.toContainText(secret);
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

  await card.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Test event sent." })).toBeVisible();

  // Other events ("*") may arrive too; the test event is the one we asked for.
  const hit = await receiver.waitFor((r) => r.path === "/hooks/portal-test" && r.body.includes(`"type":"webhook.test"`));
  expect(hit.method).toBe("POST");
  expect(hit.headers["content-type"]).toContain("application/json");
  expect(verifySignature(secret, hit.headers["x-webhook-signature"], hit.body)).toBe(true);
  expect(verifySignature("whsec_not-the-secret", hit.headers["x-webhook-signature"], hit.body)).toBe(false);
  expect(JSON.parse(hit.body).data.id).toBeTruthy();

  const row = card.getByTestId("delivery-row").filter({ hasText: "webhook.test" });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText("success", { timeout: 20_000 });
  await expect(row).toContainText("200");
  await viewShot(page, "webhooks");
});
