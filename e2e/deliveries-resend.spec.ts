import { test, expect } from "@playwright/test";
import { bearer, createKey, hydrated, signUp, viewShot } from "./helpers";
import { startStatusReceiver, type StatusReceiver } from "./status-receiver";

// A failed delivery, as Svix's app portal shows it: a receiver on 127.0.0.1 answers 500, the message is found by
// its status, opened in the drawer (payload, the attempt with the receiver's status, headers and body, the next
// retry), and resent once the receiver works again.

let receiver: StatusReceiver;
test.beforeEach(async () => {
  receiver = await startStatusReceiver(500, '{"error":"e2e receiver says no"}');
});
test.afterEach(async () => {
  await receiver.close();
});

test("a failed delivery is found, read in its drawer and resent", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Delivery checks");
  const created = await request.post("/v1/webhooks", {
    headers: bearer(key),
    data: { url: receiver.url("/hooks/failing"), events: ["product.created"] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const endpoint = (await created.json()).data;
  const product = await request.post("/v1/products", {
    headers: bearer(key),
    data: { name: "Resend me", type: "API", description: "A product whose event fails first" },
  });
  expect(product.status(), await product.text()).toBe(201);
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

  await page.goto("/portal/webhooks");
  const card = page.locator("section", { hasText: receiver.url("/hooks/failing") });
  await expect(card).toBeVisible();
  // Found by status: the first attempt failed, so it waits for its retry.
  await (await hydrated(card.getByLabel("Status"))).selectOption("retrying");
  const row = card.getByTestId("delivery-row").filter({ hasText: "product.created" });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText("500");
  await expect(card.getByTestId("endpoint-health")).toContainText("0% of 1 attempt succeeded", { timeout: 20_000 });

  await row.getByRole("button", { name: "product.created" }).click();
  await expect(page).toHaveURL(new RegExp(`endpoint=${endpoint.id}&message=whd_`));
  const drawer = page.getByRole("dialog");
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("message-status")).toHaveText("retrying");
  await expect(drawer.getByTestId("message-payload")).toContainText('"name": "Resend me"');
  const attempts = drawer.getByTestId("attempt");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText("500");
  await expect(attempts.first()).toContainText("e2e receiver says no");
  await attempts.first().getByText("Response headers").click();
  await expect(attempts.first()).toContainText("x-receiver");
  await expect(drawer).not.toContainText("None: every attempt failed");
  await viewShot(page, "webhook-message");

  // The receiver is fixed; Resend sends the same message again at once.
  receiver.answer(200, '{"ok":true}');
  await drawer.getByRole("button", { name: "Resend" }).click();
  await expect(drawer.getByRole("status")).toContainText("Resend queued");
  await expect(drawer.getByTestId("message-status")).toHaveText("success", { timeout: 20_000 });
  await expect(attempts).toHaveCount(2);
  await expect(attempts.first()).toContainText("200");
  const sent = receiver.received.filter((r) => r.path === "/hooks/failing");
  expect(sent.length).toBeGreaterThanOrEqual(2);
  expect(sent.at(-1)!.status).toBe(200);
  expect(sent.at(-1)!.body).toBe(sent[0].body);

  // Closing the drawer leaves the URL without the message.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).not.toHaveURL(/message=/);
});

test("replay all failed since a time sends every failed message again", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Replay checks");
  const created = await request.post("/v1/webhooks", {
    headers: bearer(key),
    data: { url: receiver.url("/hooks/replay"), events: ["product.created"] },
  });
  const endpoint = (await created.json()).data;
  await request.post("/v1/products", { headers: bearer(key), data: { name: "Replay me", type: "API", description: "d" } });
  await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

  // With the endpoint paused, a resend fails for good ("endpoint disabled"): a failed message to replay.
  const pause = await request.patch(`/v1/webhooks/${endpoint.id}`, { headers: bearer(key), data: { isActive: false } });
  expect(pause.status()).toBe(200);
  await page.goto("/portal/webhooks");
  const card = page.locator("section", { hasText: receiver.url("/hooks/replay") });
  const row = card.getByTestId("delivery-row").filter({ hasText: "product.created" });
  await expect(row).toContainText("500", { timeout: 20_000 });
  await (await hydrated(row)).click();
  const drawer = page.getByRole("dialog");
  await drawer.getByRole("button", { name: "Resend" }).click();
  await expect(drawer.getByTestId("message-status")).toHaveText("failed", { timeout: 20_000 });
  await expect(drawer).toContainText("endpoint disabled");
  await expect(drawer).toContainText("None: every attempt failed");

  // Back on, the receiver fixed: replaying the failed ones since the message's time sends it, and it succeeds.
  const resume = await request.patch(`/v1/webhooks/${endpoint.id}`, { headers: bearer(key), data: { isActive: true } });
  expect(resume.status()).toBe(200);
  receiver.answer(200, '{"ok":true}');
  await expect(drawer.getByLabel("Replay all failed since")).not.toHaveValue("");
  await drawer.getByRole("button", { name: "Replay failed" }).click();
  await expect(drawer.getByRole("status")).toContainText("1 failed message since");
  await expect(drawer.getByTestId("message-status")).toHaveText("success", { timeout: 20_000 });
  expect(receiver.received.at(-1)!.status).toBe(200);
});
