import { test, expect, type APIRequestContext, type Page } from "@playwright/test";
import { acceptDialogs, bearer, createKey, expectNoOverflow, hydrated, newAccount, seriousAxe, signUp } from "./helpers";

// Issue 39, item 7, in two browsers: provider A publishes an API with a prepaid plan (0.002 USD a call); the
// catalogue shows it as prepaid; developer B subscribes, sees a declined card refused under the amount, buys 1 USD
// of credits and sees the balance, sets a spend cap, and sees the purchase (and a call's burn) in its ledger. A's
// customer page shows B's balance, and a grant A makes there appears in B's ledger. The credits card fits a 390 px
// screen, in the console and in the product's portal, and the pages have no serious axe violation. A cap reached
// shows its banner in the console and the product's portal. Test mode.

const CARD = (number: string) => ({ card: { number, expMonth: 12, expYear: 2030, cvc: "123" } });

async function send(request: APIRequestContext, method: "post" | "patch", key: string, path: string, data: unknown, status: number) {
  const res = await request[method](path, { headers: bearer(key), data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()).data;
}

/** Reloads `page` until `check` passes: usage (a call's burn) is written a moment after the call. */
async function eventually(page: Page, check: () => Promise<void>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await page.waitForTimeout(500);
      await page.reload();
    }
  }
}

const shot = (page: Page, name: string) =>
  page
    .waitForLoadState("networkidle")
    .catch(() => {})
    .then(() => page.screenshot({ path: `test-results/screenshots/credits-${name}.png`, fullPage: true }));

test("a prepaid plan: buying credits, a spend cap, the ledger, and the provider's balances and grant", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);
  const productName = `Tokens ${tag}`;

  // ── A: a published API product with a prepaid plan, through the API with A's own key.
  await signUp(page, newAccount("credits-provider"));
  const keyA = await createKey(page, "Provider automation");
  const product = await send(
    request,
    "post",
    keyA,
    "/v1/products",
    {
      name: productName,
      type: "API",
      description: "Completions paid from prepaid credits.",
      api: { upstreamUrl: "http://127.0.0.1:9/v1" },
    },
    201,
  );
  const price = await send(
    request,
    "post",
    keyA,
    `/v1/products/${product.id}/prices`,
    {
      name: "Prepaid",
      type: "usage",
      currency: "USD",
      amount: 0.002,
      billing: "prepaid",
    },
    201,
  );
  expect(price.billing).toBe("prepaid");
  // The product page's plan form offers prepaid billing too; the pricing table badges such a plan.
  await page.goto(`/portal/products/${product.id}`);
  await hydrated(page.getByRole("button", { name: "Add plan" }));
  await page.getByLabel("Plan name").fill("Starter credits");
  await page.getByLabel("Billing").selectOption("prepaid");
  await page.getByLabel("Price per call").fill("0.01");
  await page.getByRole("button", { name: "Add plan" }).click();
  await expect(page.getByTestId("plan-Starter credits")).toContainText("Prepaid");
  await expect(page.getByTestId("plan-Starter credits")).toContainText("pay as you go from credits");
  await expect(page.getByTestId("plan-Prepaid")).toContainText("Prepaid");
  const slug = (await send(request, "patch", keyA, `/v1/products/${product.id}`, { visibility: "public" }, 200)).slug as string;

  // ── B: another browser. The catalogue shows the plan as prepaid; subscribe with the test card.
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const pageB = await contextB.newPage();
  acceptDialogs(pageB);
  const b = await signUp(pageB, newAccount("credits-developer"));
  const keyB = await createKey(pageB, "Developer automation");
  await pageB.goto(`/catalog/${slug}`);
  const plan = pageB.getByTestId("plan-Prepaid");
  await expect(plan).toContainText("Prepaid");
  await expect(plan).toContainText("0.002 USD per request");
  await expect(plan).toContainText("pay as you go from credits");
  await pageB.getByRole("link", { name: "Subscribe to Prepaid" }).click();
  await hydrated(pageB.getByRole("button", { name: "Subscribe" }));
  await pageB.getByLabel("Card number").fill("4242 4242 4242 4242");
  await pageB.getByLabel("Expiry (MM/YY)").fill("12/30");
  await pageB.getByLabel("CVC").fill("123");
  await pageB.getByRole("button", { name: "Subscribe" }).click();
  await expect(pageB).toHaveURL(/\/portal\/subscriptions\/sub_/, { timeout: 30_000 });
  const subscriptionId = pageB.url().split("/").pop()!;

  // No credits yet: the balance is 0, and the banner says calls are refused until some are bought.
  const credits = pageB.getByTestId("credits-card");
  await expect(pageB.getByTestId("credits-balance")).toHaveText("0.00 USD");
  await expect(pageB.getByTestId("credits-banner-empty")).toContainText("402 INSUFFICIENT_CREDITS");
  await expect(credits).toContainText("visa ending 4242");

  // A card that attaches but declines every charge: the refusal sits under the amount, nothing is added.
  await send(request, "patch", keyB, `/v1/subscriptions/${subscriptionId}`, { paymentMethod: CARD("4000000000000341") }, 200);
  await pageB.reload();
  const amount = pageB.getByLabel("Amount (USD)", { exact: true });
  await hydrated(pageB.getByRole("button", { name: "Buy credits" }));
  await amount.fill("1");
  await pageB.getByRole("button", { name: "Buy credits" }).click();
  await expect(pageB.locator(`#buy-credits-${subscriptionId}-error`)).toHaveText("Your card was declined.");
  await expect(amount).toHaveAttribute("aria-invalid", "true");
  await expect(pageB.getByTestId("credits-balance")).toHaveText("0.00 USD");

  // The good card again: 1 USD of credits.
  await send(request, "patch", keyB, `/v1/subscriptions/${subscriptionId}`, { paymentMethod: CARD("4242424242424242") }, 200);
  await pageB.reload();
  await hydrated(pageB.getByRole("button", { name: "Buy credits" }));
  await pageB.getByLabel("Amount (USD)", { exact: true }).fill("1");
  await pageB.getByRole("button", { name: "Buy credits" }).click();
  await expect(pageB.getByTestId("credits-balance")).toHaveText("1.00 USD");
  await expect(pageB.getByTestId("credits-banner-empty")).toHaveCount(0);
  const ledger = pageB.getByTestId("credit-ledger");
  await expect(ledger.getByTestId("ledger-purchase")).toContainText("+1.00 USD");
  await expect(ledger.getByTestId("ledger-purchase")).toContainText("Purchase");

  // A spend cap of 0.50 USD that refuses calls at the cap, shown with the period's spend against it.
  await pageB.getByLabel("Cap per period (USD)").fill("0.5");
  await pageB.getByLabel("At the cap").selectOption("block");
  await pageB.getByRole("button", { name: "Set cap" }).click();
  await expect(pageB.getByTestId("spend-cap-current")).toContainText("Cap 0.50 USD per period");
  await expect(pageB.getByTestId("spend-cap-current")).toContainText("calls refused at the cap");
  await expect(pageB.getByTestId("spend-meter")).toContainText("0.00 USD of 0.50 USD this period");
  await expect(pageB.getByRole("meter", { name: /spend/ })).toHaveAttribute("aria-valuenow", "0");
  // An amount the API refuses is said under the field.
  await pageB.getByLabel("Cap per period (USD)").fill("-3");
  await pageB.getByRole("button", { name: "Save cap" }).click();
  await expect(pageB.locator(`#spend-cap-${subscriptionId}-amount-error`)).toBeVisible();
  await pageB.getByLabel("Cap per period (USD)").fill("0.5");

  // Auto top-up on, shown in words.
  await pageB.getByLabel("When the balance falls below (USD)").fill("0.2");
  await pageB.getByLabel("Buy (USD)", { exact: true }).fill("1");
  await pageB.getByLabel("At most a month (USD)").fill("5");
  await pageB.getByRole("button", { name: "Turn on auto top-up" }).click();
  await expect(pageB.getByTestId("auto-recharge-current")).toContainText("below 0.20 USD, 1.00 USD is bought");

  // One call of the product (A verifies B's product key): its 0.002 USD is burned from the credits.
  await (await hydrated(pageB.getByRole("button", { name: "Create key for this product" }))).click();
  const productKey = (await pageB.getByTestId("product-key").textContent())!.trim();
  const verified = await request.post("/v1/keys/verify", { headers: bearer(keyA), data: { key: productKey, product: product.id } });
  expect(verified.status(), await verified.text()).toBe(200);
  expect((await verified.json()).data.valid).toBe(true);
  await eventually(pageB, async () => {
    await expect(pageB.getByTestId("credit-ledger").getByTestId("ledger-burn")).toContainText("−0.002 USD", { timeout: 2_000 });
  });
  await expect(pageB.getByTestId("credits-balance")).toHaveText("0.998 USD");
  await expect(pageB.getByTestId("spend-meter")).toContainText("0.002 USD of 0.50 USD");
  await shot(pageB, "subscription");
  expect(await seriousAxe(pageB)).toEqual([]);

  // ── A: the customer's page shows the balance; a grant made there …
  await page.goto("/portal/customers");
  await page.getByTestId(`customer-row-${b.businessName}`).getByRole("link", { name: b.businessName }).click();
  await expect(page).toHaveURL(/\/portal\/customers\/biz_/);
  const mine = page.getByTestId(`customer-credits-${subscriptionId}`);
  await expect(mine).toContainText(`${productName}: Prepaid`);
  await expect(mine).toContainText("Prepaid");
  await expect(mine.getByTestId("customer-credits-balance")).toHaveText("0.998 USD");
  await expect(mine).toContainText("0.002 USD of 0.50 USD");
  await hydrated(page.getByRole("button", { name: "Grant credits" }));
  await page.getByLabel("Subscription", { exact: true }).selectOption(subscriptionId);
  await page.getByLabel("Amount (USD)", { exact: true }).fill("0.25");
  await page.getByLabel("Expires on (optional)").fill("2099-12-31");
  await page.getByLabel("Note", { exact: true }).fill(`Sorry for the outage ${tag}`);
  await page.getByRole("button", { name: "Grant credits" }).click();
  await expect(mine.getByTestId("customer-credits-balance")).toHaveText("1.248 USD");
  await expect(mine.getByTestId("credit-grants")).toContainText(`Sorry for the outage ${tag}`);
  await expect(mine.getByTestId("credit-grants")).toContainText("2099-12-31");
  await shot(page, "customer");
  expect(await seriousAxe(page)).toEqual([]);

  // … is in B's ledger, newest first, with its note, and in B's balance.
  await pageB.reload();
  await expect(pageB.getByTestId("credits-balance")).toHaveText("1.248 USD");
  const first = pageB.getByTestId("credit-ledger").locator("tbody tr").first();
  await expect(first).toContainText("Grant");
  await expect(first).toContainText("+0.25 USD");
  await expect(first).toContainText(`Sorry for the outage ${tag}`);

  // A cap of 0.004 USD: the next call brings the period's spend to it (served), the banner says calls are now
  // refused until the period ends, and the call after that is refused.
  await hydrated(pageB.getByRole("button", { name: "Save cap" }));
  await pageB.getByLabel("Cap per period (USD)").fill("0.004");
  await pageB.getByRole("button", { name: "Save cap" }).click();
  await expect(pageB.getByTestId("spend-cap-current")).toContainText("Cap 0.004 USD per period");
  await expect(pageB.getByTestId("spend-meter")).toContainText("0.002 USD of 0.004 USD this period (50 %)");
  const again = await request.post("/v1/keys/verify", { headers: bearer(keyA), data: { key: productKey, product: product.id } });
  expect(again.status(), await again.text()).toBe(200);
  expect((await again.json()).data.valid, "the call that reaches the cap is served").toBe(true);
  await eventually(pageB, async () => {
    await expect(pageB.getByTestId("credits-banner-cap")).toContainText("Spend cap reached", { timeout: 2_000 });
  });
  await expect(pageB.getByTestId("credits-banner-cap")).toContainText("402 SPEND_CAP_REACHED");
  await expect(pageB.getByTestId("credits-balance")).toHaveText("1.246 USD");
  const refused = await request.post("/v1/keys/verify", { headers: bearer(keyA), data: { key: productKey, product: product.id } });
  expect(await refused.text()).toContain("SPEND_CAP_REACHED");
  await shot(pageB, "subscription-capped");

  // The product's portal: the dashboard shows the credits and the banner; Usage shows the banner too.
  await pageB.goto(`/p/${slug}`);
  await expect(pageB.getByTestId("dashboard-credits")).toHaveText("1.246 USD");
  await expect(pageB.getByTestId("credits-banner-cap")).toContainText("Spend cap reached");
  await pageB.goto(`/p/${slug}/usage`);
  await expect(pageB.getByTestId("credits-banner-cap")).toContainText("Spend cap reached");

  // ── 390 px: the console's subscription page and the product portal's settings, credits card and ledger included.
  await pageB.setViewportSize({ width: 390, height: 844 });
  await pageB.goto(`/portal/subscriptions/${subscriptionId}`);
  await expect(pageB.getByTestId("credits-card")).toBeVisible();
  await pageB.waitForLoadState("networkidle").catch(() => {});
  expect(await expectNoOverflow(pageB, `/portal/subscriptions/${subscriptionId}`)).toBe(true);
  await shot(pageB, "subscription-390");
  await pageB.goto(`/p/${slug}/settings`);
  await expect(pageB.getByTestId("credits-balance")).toHaveText("1.246 USD");
  await expect(pageB.getByTestId("spend-cap-current")).toContainText("Cap 0.004 USD per period");
  await expect(pageB.getByTestId("credit-ledger").getByTestId("ledger-grant")).toContainText(`Sorry for the outage ${tag}`);
  await pageB.waitForLoadState("networkidle").catch(() => {});
  expect(await expectNoOverflow(pageB, `/p/${slug}/settings`)).toBe(true);
  await shot(pageB, "product-portal-390");
  expect(await seriousAxe(pageB)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId("customer-credits")).toBeVisible();
  expect(await expectNoOverflow(page, "the provider's customer page")).toBe(true);
  await contextB.close();
});
