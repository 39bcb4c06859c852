import { test, expect } from "@playwright/test";
import { bearer, createKey, hydrated, signUp, startReceiver } from "./helpers";

// Two businesses side by side: B sees nothing of A's keys, logs or webhooks, in the views or by editing URLs.

test("a user of one business never sees another's keys, logs or webhooks", async ({ browser, request }) => {
  test.slow(); // two sign-ups (password hashing)
  const receiver = await startReceiver();
  const contextA = await browser.newContext();
  const contextB = await browser.newContext();
  try {
    // A: a key with a recognisable name, a request in the log, a webhook endpoint.
    const a = await contextA.newPage();
    await signUp(a);
    const keyName = `Alpha private key ${Date.now()}`;
    const keyA = await createKey(a, keyName);
    const call = await request.get("/v1/products?limit=13&offset=1", { headers: bearer(keyA) });
    expect(call.status()).toBe(200);
    const requestId = call.headers()["x-request-id"];
    const hookUrl = receiver.url("/hooks/alpha-only");
    const hook = await request.post("/v1/webhooks", { headers: bearer(keyA), data: { url: hookUrl, events: ["*"] } });
    expect(hook.status(), await hook.text()).toBe(201);
    const hookId = (await hook.json()).data.id as string;
    // A sees all three (so their absence for B means something).
    await expect(async () => {
      const mine = await a.request.get(`/api/portal/logs/${requestId}`);
      expect(mine.status()).toBe(200);
    }).toPass({ timeout: 10_000 });
    await a.goto("/portal/webhooks");
    await expect(a.getByText(hookUrl)).toBeVisible();

    // B, another business.
    const b = await contextB.newPage();
    await signUp(b);
    const keyB = await createKey(b, "Bravo key");
    await b.goto("/portal/keys");
    await expect(b.getByTestId("key-row-Bravo key")).toBeVisible();
    await expect(b.getByText(keyName)).toHaveCount(0);

    await b.goto("/portal/webhooks");
    await expect(b.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await expect(b.getByText("No endpoints yet")).toBeVisible();
    await expect(b.getByText(hookUrl)).toHaveCount(0);

    await b.goto("/portal/logs");
    await expect(b.getByText("No requests match")).toBeVisible();
    await expect(b.getByTestId("log-row")).toHaveCount(0);
    await hydrated(b.getByRole("button", { name: "Search" }));
    await b.getByLabel("Search path or request id").fill(requestId);
    await b.getByRole("button", { name: "Search" }).click();
    await expect(b.getByText("No requests match")).toBeVisible();

    // Editing URLs: A's request id and webhook id lead nowhere.
    await b.goto(`/portal/logs?id=${requestId}`);
    await expect(b.getByRole("alert").filter({ hasText: `No such request log: '${requestId}'.` })).toBeVisible();
    await expect(b.getByTestId("log-detail")).toHaveCount(0);
    await expect(b.locator("body")).not.toContainText("limit=13");

    const log = await b.request.get(`/api/portal/logs/${requestId}`);
    expect(log.status()).toBe(404);
    expect(await log.text()).not.toContain("limit=13");
    const deliveries = await b.request.get(`/api/portal/webhooks/${hookId}/deliveries`);
    expect(deliveries.status()).toBe(404);
    expect(await deliveries.text()).not.toContain(hookUrl);
    const list = await b.request.get("/api/portal/logs?q=limit%3D13");
    expect(list.status()).toBe(200);
    expect((await list.json()).data.data).toEqual([]);

    // And B's key cannot reach them through the API either.
    expect((await request.get(`/v1/logs/${requestId}`, { headers: bearer(keyB) })).status()).toBe(404);
    expect((await request.get(`/v1/webhooks/${hookId}`, { headers: bearer(keyB) })).status()).toBe(404);
    const keys = await request.get("/v1/api-keys", { headers: bearer(keyB) });
    expect(keys.status()).toBe(200);
    expect(JSON.stringify(await keys.json())).not.toContain(keyName);
  } finally {
    await contextA.close();
    await contextB.close();
    await receiver.close();
  }
});
