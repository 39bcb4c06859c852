import { test, expect } from "@playwright/test";
import { acceptDialogs, apiSend, bearer, createKey, expectNoOverflow, hydrated, newAccount, signUp } from "./helpers";

// Issue 40, item 4: provider A writes a metered plan in the console's plan form with a metric measured from the
// answer (response.json, usage.output_tokens), sees a malformed path refused on its field, and tests the metric
// against a pasted sample answer (the quantity and what the call would cost). Then, through the API, A reports a
// meter event for developer B's subscription and amends it with a reason: B's subscription page lists the
// correction with its reason, and so does A's page for the customer B. The pages fit a 390 px screen. Test mode.

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

test("a metered plan measured from the answer, tested on a sample; an amended meter event shown to both sides", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const reason = `Double-counted retries ${tag}`;

  // ── A: an API product with a per-call plan (through the API), published.
  await signUp(page, newAccount("metering-provider"));
  const keyA = await createKey(page, "Provider automation");
  const product = await apiSend(
    request,
    keyA,
    "/v1/products",
    { name: `Completions ${tag}`, type: "API", description: "LLM-style answers.", api: { upstreamUrl: "http://127.0.0.1:9/v1" } },
    201,
  );
  const perCall = await apiSend(
    request,
    keyA,
    `/v1/products/${product.id}/prices`,
    { name: "Per call", type: "usage", currency: "USD", amount: 0.01 },
    201,
  );
  const slug = (await apiSend(request, keyA, `/v1/products/${product.id}`, { visibility: "public" }, 200, "patch")).slug as string;

  // ── A: the plan form, metered, with output tokens measured from the JSON answer.
  await page.goto(`/portal/products/${product.id}`);
  await hydrated(page.getByRole("button", { name: "Add plan" }));
  await page.getByLabel("Plan name").fill("Tokens");
  await page.getByLabel("Charged").selectOption("metered");
  await page.locator("#metric-0-name").fill("output_tokens");
  await page.locator("#metric-0-amount").fill("4");
  await page.locator("#metric-0-unit").fill("1M tokens");
  await page.locator("#metric-0-source").selectOption("response.json");
  // A path that is not a dotted path is refused on its field.
  await page.locator("#metric-0-path").fill("usage..output_tokens");
  await page.getByRole("button", { name: "Add plan" }).click();
  await expect(page.locator("#metric-0-path-error")).toContainText("dotted path");
  await expect(page.locator("#metric-0-path")).toHaveAttribute("aria-invalid", "true");
  await page.locator("#metric-0-path").fill("usage.output_tokens");

  // The test against a sample answer: 350,000 output tokens at 4 per million is 1.4.
  await page.getByLabel("Sample answer").fill(JSON.stringify({ id: "cmpl-1", usage: { input_tokens: 1200, output_tokens: 350000 } }));
  await page.getByRole("button", { name: "Test the metrics" }).click();
  const measured = page.getByRole("status", { name: "Sample answer measured" });
  await expect(measured).toContainText("application/json");
  await expect(measured).toContainText("output_tokens");
  await expect(measured).toContainText("350,000");
  await expect(measured).toContainText("1.4");

  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoOverflow(page, "The plan form with a metered metric and its test");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Add plan" }).click();
  await expect(page.getByTestId("plan-Tokens")).toBeVisible();
  const prices = (await (await request.get(`/v1/products/${product.id}/prices`, { headers: bearer(keyA) })).json()).data as {
    name: string;
    type: string;
    metrics: { name: string; from?: unknown }[] | null;
  }[];
  const tokens = prices.find((p) => p.name === "Tokens")!;
  expect(tokens.type).toBe("metered");
  expect(tokens.metrics?.[0]).toMatchObject({ name: "output_tokens", from: { source: "response.json", path: "usage.output_tokens" } });

  // ── B: another browser, subscribed to the per-call plan (through the API, with the test card).
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const pageB = await contextB.newPage();
  acceptDialogs(pageB);
  const b = await signUp(pageB, newAccount("metering-developer"));
  const keyB = await createKey(pageB, "Developer automation");
  const sub = await apiSend(request, keyB, "/v1/subscriptions", { priceId: perCall.id, paymentMethod: CARD }, 201);

  // ── A reports 10 units for B's subscription, then amends them to 4, saying why.
  const event = await apiSend(
    request,
    keyA,
    "/v1/meter-events",
    { product: product.id, subscription: sub.id, quantity: 10, identifier: `job-${tag}` },
    201,
  );
  const amended = await apiSend(request, keyA, `/v1/meter-events/${event.id}/amend`, { quantity: 4, reason }, 201);
  expect(amended.quantity).toBe(-6);

  // ── B's subscription page lists the correction with its reason.
  await pageB.goto(`/portal/subscriptions/${sub.id}`);
  const mine = pageB.getByTestId("usage-corrections");
  await expect(mine).toContainText(reason);
  await expect(mine).toContainText("Amended");
  await expect(mine).toContainText("10 → 4");
  await expect(mine).toContainText("−6");
  await pageB.setViewportSize({ width: 390, height: 900 });
  await expectNoOverflow(pageB, "The consumer's subscription page with a correction");

  // ── And the product's own portal, on B's usage page.
  await pageB.setViewportSize({ width: 1280, height: 900 });
  await pageB.goto(`/p/${slug}/usage`);
  const inPortal = pageB.getByTestId("usage-corrections");
  await expect(inPortal).toContainText(reason);
  await expect(inPortal).toContainText("10 → 4");
  await pageB.setViewportSize({ width: 390, height: 900 });
  await expectNoOverflow(pageB, "The product portal's usage page with a correction");

  // ── A's page for the customer B lists it too.
  await page.goto("/portal/customers");
  await page.getByTestId(`customer-row-${b.businessName}`).getByRole("link", { name: b.businessName }).click();
  await expect(page).toHaveURL(/\/portal\/customers\/biz_/);
  const theirs = page.getByTestId("usage-corrections");
  await expect(theirs).toContainText(reason);
  await expect(theirs).toContainText("10 → 4");
  await expect(theirs).toContainText("−6");
  await page.setViewportSize({ width: 390, height: 900 });
  await expectNoOverflow(page, "The provider's customer page with a correction");
  await contextB.close();
});
