import { test, expect } from "@playwright/test";
import { apiSend, bearer, createKey, fitsLightAndDark, hydrated, newAccount, signUp, viewShot } from "./helpers";

// Issue 60, the provider's Payouts view, on a 390 px phone, light and dark: a fresh business sees no payout account
// and no earnings, each saying what to do; "Set up payouts" with the test payment provider makes a test account,
// ready at once. A customer B then pays an invoice for A's product: A sees the month's gross, fee and net, the
// invoice with B's name, and downloads the month's statement as CSV; nobody else gets it. Test mode.

test.use({ viewport: { width: 390, height: 844 } });

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

test("payouts: empty, set up with the test provider, then a customer's payment as earnings with its statement", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);

  // ── A, a fresh business: no payout account, no earnings, and the page says what to do about each.
  await signUp(page, newAccount("payouts-provider"));
  await page.goto("/portal/payouts");
  await expect(page.getByRole("heading", { name: "Payouts", level: 1 })).toBeVisible();
  await expect(page.getByTestId("payout-status")).toHaveText("Not set up");
  await expect(page.getByTestId("payout-none")).toContainText("No payout account yet");
  await expect(page.getByTestId("payout-none")).toContainText("test payment provider");
  await expect(page.getByTestId("earnings-empty")).toContainText("No earnings in the last 12 months");
  await expect(page.getByTestId("earnings-empty").getByRole("link", { name: "products" })).toHaveAttribute("href", "/portal/products");
  // In the navigation right after Revenue, marked as the current page.
  const nav = page.getByRole("navigation", { name: "Portal" });
  const hrefs = await nav.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs.indexOf("/portal/payouts")).toBe(hrefs.indexOf("/portal/revenue") + 1);
  await expect(nav.locator('a[href="/portal/payouts"]').first()).toHaveAttribute("aria-current", "page");
  await fitsLightAndDark(page, "/portal/payouts, a fresh business");
  await viewShot(page, "payouts-empty");

  // "Set up payouts": the test provider's account is ready at once; there is nothing left to do.
  await (await hydrated(page.getByRole("button", { name: "Set up payouts" }))).click();
  await expect(page.getByTestId("payout-status")).toHaveText("Ready");
  await expect(page.getByTestId("payout-account-id")).toContainText(/acct_test_/);
  await expect(page.getByTestId("payout-charges")).toHaveText("Enabled");
  await expect(page.getByTestId("payout-payouts")).toHaveText("Enabled");
  await expect(page.getByTestId("payout-requirements")).toHaveText("Nothing");
  await expect(page.getByRole("button", { name: /Set up payouts|Continue onboarding/ })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("payout-status")).toHaveText("Ready");

  // ── A publishes an API at 0.50 USD a call; B subscribes, A verifies B's key for it twice (each a call of the
  // product) and B cancels: a 1.00 USD invoice, paid with the test card.
  const keyA = await createKey(page, "Payouts provider automation");
  const account = await (await request.get("/v1/payout-account", { headers: bearer(keyA) })).json();
  expect([account.data.chargesEnabled, account.data.payoutsEnabled]).toEqual([true, true]);
  const product = await apiSend(
    request,
    keyA,
    "/v1/products",
    { name: `Tide tables ${tag}`, type: "API", description: "High and low water for every harbour." },
    201,
  );
  const price = await apiSend(
    request,
    keyA,
    `/v1/products/${product.id}/prices`,
    { name: "Per call", type: "usage", currency: "USD", amount: 0.5 },
    201,
  );
  await apiSend(request, keyA, `/v1/products/${product.id}`, { visibility: "public" }, 200, "patch");

  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 } });
  const pageB = await contextB.newPage();
  const b = await signUp(pageB, newAccount("payouts-customer"));
  const keyB = await createKey(pageB, "Tide tables customer");
  const subscription = await apiSend(request, keyB, "/v1/subscriptions", { priceId: price.id, paymentMethod: CARD }, 201);
  for (let i = 0; i < 2; i++) {
    const verified = await request.post("/v1/keys/verify", { headers: bearer(keyA), data: { key: keyB, product: product.id } });
    expect((await verified.json()).data?.valid, await verified.text()).toBe(true);
  }
  // Usage is written a moment after the calls: cancel once both are on the running invoice.
  await expect
    .poll(
      async () =>
        (await (await request.get(`/v1/invoices/upcoming?subscriptionId=${subscription.id}`, { headers: bearer(keyB) })).json()).data
          ?.total,
      { timeout: 20_000 },
    )
    .toBe(100);
  await apiSend(request, keyB, `/v1/subscriptions/${subscription.id}/cancel`, {}, 200);
  const earningsOfA = async () => (await (await request.get("/v1/earnings", { headers: bearer(keyA) })).json()).data ?? [];
  await expect.poll(async () => (await earningsOfA()).length, { timeout: 20_000 }).toBe(1);
  const [earning] = await earningsOfA();
  expect(earning.gross).toBe(100);
  const month = (earning.paidAt as string).slice(0, 7);

  // ── A's page: the month's totals, the invoice with B's name and the product's, and the statement.
  await page.goto(`/portal/payouts?month=${month}`);
  const row = page.getByTestId(`earnings-month-${month}-USD`);
  await expect(row).toContainText("1.00 USD");
  await expect(page.getByTestId(`earnings-net-${month}-USD`)).toHaveText(`${earning.netDecimal} USD`);
  await expect(row.getByRole("link", { name: month, exact: true })).toHaveAttribute("aria-current", "page");
  const invoiceRow = page.getByTestId(`earning-row-${earning.invoiceId}`);
  await expect(invoiceRow).toContainText(b.businessName);
  await expect(invoiceRow).toContainText(`Tide tables ${tag}`);
  await expect(page.getByTestId(`earning-net-${earning.invoiceId}`)).toHaveText(`${earning.netDecimal} USD`);
  // An earlier month, chosen from the table: nothing paid then.
  const earlier = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5)) - 2, 1)).toISOString().slice(0, 7);
  await page.getByTestId(`earnings-month-${earlier}`).getByRole("link", { name: earlier, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`month=${earlier}$`));
  await expect(page.getByTestId("month-earnings-empty")).toContainText(`No invoices paid in ${earlier}`);
  await page.goto(`/portal/payouts?month=${month}`);
  await fitsLightAndDark(page, "/portal/payouts with earnings");
  // Dark mode is drawn dark: the payout card's background is not the light one.
  const cardBackground = () =>
    page
      .getByTestId("payout-status")
      .locator("xpath=ancestor::section[1]")
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  const light = await cardBackground();
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await cardBackground()).not.toBe(light);
  await page.emulateMedia({ colorScheme: null });
  await viewShot(page, "payouts");

  const href = (await page.getByTestId(`statement-link-${month}`).getAttribute("href"))!;
  expect(href).toBe(`/api/portal/earnings/statement?month=${month}`);
  const csv = await page.request.get(href);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(csv.headers()["content-disposition"]).toMatch(new RegExp(`^attachment; filename="earnings-test-${month}\\.csv"$`));
  const lines = (await csv.text()).trim().split("\n");
  expect(lines[0]).toMatch(/^invoice_id,number,customer_id,product_id,paid_at,currency,gross,platform_fee,refunded,net,transfers$/);
  expect(lines.filter((l) => l.startsWith(`${earning.invoiceId},`))).toHaveLength(1);
  expect(lines.at(-1)).toBe(`total,,,,,USD,1.00,${earning.platformFeeDecimal},0.00,${earning.netDecimal},`);
  // The statement is the signed-in business's own: signed out it is refused, and B's has none of A's invoices.
  expect((await request.get(href)).status()).toBe(401);
  const ofB = await pageB.request.get(href);
  expect(ofB.status()).toBe(200);
  expect(await ofB.text()).not.toContain(earning.invoiceId);
  expect((await page.request.get("/api/portal/earnings/statement?month=2026-13")).status()).toBe(400);

  await contextB.close();
});
