import { test, expect } from "@playwright/test";
import { bearer, createKey, signUp, viewShot } from "./helpers";

// The Usage view's billing part (PORTAL_CONFIG turns showCosts on for these tests): the upcoming invoice of a
// subscription, the plan simulator over the project's real usage, and past invoices with each usage line's events
// as a CSV whose total is the line's amount.

test("costs, the upcoming invoice, the plan simulator and a past invoice with its CSV", async ({ page, request }) => {
  await signUp(page);
  const key = await createKey(page, "Billing checks");
  const post = async (path: string, data: unknown) => {
    const res = await request.post(path, { headers: { ...bearer(key), "Content-Type": "application/json" }, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBe(201);
    return (await res.json()).data;
  };
  const product = await post("/v1/products", { name: "Weather API", type: "API" });
  const flat = await post(`/v1/products/${product.id}/prices`, { name: "Pay as you go", type: "usage", currency: "USD", amount: 0.25 });
  await post(`/v1/products/${product.id}/prices`, {
    name: "Tiered",
    type: "usage",
    currency: "USD",
    tiers: [
      { upTo: 2, amount: 0.5 },
      { upTo: null, amount: 0.01 },
    ],
  });
  const sub = await post("/v1/subscriptions", { priceId: flat.id, paymentMethod: { card: { number: "4242424242424242" } } });
  // Calls of the platform's own /v1 API are control plane and never billed (issue 17): the subscription's product
  // is called instead, by verifying the key for it four times (each verification is a call of the product).
  for (let i = 0; i < 4; i++) {
    const verified = await request.post("/v1/keys/verify", { headers: bearer(key), data: { key, product: product.id } });
    expect((await verified.json()).data?.valid, await verified.text()).toBe(true);
  }

  await page.goto("/portal/usage");
  const upcoming = page.getByTestId("upcoming-invoice");
  await expect(upcoming).toBeVisible();
  await expect(upcoming.getByText("API requests")).toBeVisible();
  await expect(upcoming.getByTestId("invoice-total")).toContainText("USD");

  const simulator = page.getByTestId("plan-simulator");
  await expect(simulator).toBeVisible();
  await expect(simulator.getByText("Weather API · Pay as you go")).toBeVisible();
  await expect(simulator.getByText("tiered (graduated)")).toBeVisible();
  await expect(simulator.getByText("tiered (volume)")).toBeVisible();
  await expect(simulator.getByText("current")).toBeVisible();
  await expect(simulator.getByText("cheapest")).toBeVisible();

  // Cancel now: the period so far becomes an invoice, paid with the test card.
  const canceled = await request.post(`/v1/subscriptions/${sub.id}/cancel`, { headers: bearer(key) });
  expect(canceled.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("billing").getByText("No subscription", { exact: true })).toBeVisible();
  const past = page.getByTestId("past-invoices");
  await expect(past.getByText("paid")).toBeVisible();
  await past.locator("summary").first().click();
  const link = past.getByRole("link", { name: "Usage events (CSV)" });
  await expect(link).toBeVisible();
  const csv = await page.request.get((await link.getAttribute("href"))!);
  expect(csv.status()).toBe(200);
  const rows = (await csv.text())
    .trim()
    .split("\n")
    .map((r) => r.split(","));
  const events = rows.slice(1, -2);
  expect(events.length).toBeGreaterThanOrEqual(4);
  const amount = rows.at(-1)![7];
  expect(Number(amount)).toBeCloseTo(events.length * 0.25, 10);
  await expect(past.getByTestId("invoice-total")).toContainText(`${amount} USD`);
  await viewShot(page, "usage-billing");
});
