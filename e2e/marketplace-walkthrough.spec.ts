import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, expect, type Page } from "@playwright/test";
import { acceptDialogs, bearer, createKey, hydrated, newAccount, signUp } from "./helpers";

// Issue 17's "Done when", in two browsers: provider A signs up, creates an API product with two plans and
// publishes it; developer B signs up elsewhere, finds it in the catalogue, subscribes with the test card and gets a
// key for it; A verifies B's key (POST /v1/keys/verify) and reports usage (POST /v1/meter-events) with its own key;
// B calls A's API through the gateway (/gw/{slug}/…), which signs who is calling for A's upstream; B's Usage view
// shows the cost with A as the seller, A's Revenue the same money, A's product page the calls and B's logs the
// gateway call (issue 18's walk-through). Test mode throughout.

const shot = (page: Page, name: string) =>
  page
    .waitForLoadState("networkidle")
    .catch(() => {})
    .then(() => page.screenshot({ path: `test-results/screenshots/marketplace-${name}.png`, fullPage: true }));

/** Reloads `page` until `check` passes: usage is written a moment after the call. */
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

/** A's own API on loopback: answers JSON and keeps what the gateway sent, to check the signed consumer headers. */
async function startUpstream() {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ ...req.headers, ":path": req.url });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ city: "Oslo", forecast: "rain" }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

test("provider A publishes an API, developer B subscribes and is billed, A sees the same money", async ({ page, browser, request }) => {
  test.setTimeout(240_000);
  const upstream = await startUpstream();
  const tag = Date.now().toString(36);
  const productName = `Forecast ${tag}`;

  // ── A: sign up, create the product, see publishing refused without a plan, add two plans, publish.
  const a = await signUp(page, newAccount("provider"));
  await page.goto("/portal/products");
  await hydrated(page.getByRole("button", { name: "Create product" }));
  await page.getByLabel("Product name").fill(productName);
  await page.getByLabel("Description").fill("City forecasts by the hour.");
  await page.getByLabel("Upstream URL (live)").fill(`${upstream.url}/v1`);
  await page.getByRole("button", { name: "Add secret header" }).click();
  await page.getByLabel("Header 1 name").fill("X-Upstream-Key");
  await page.getByLabel("Header 1 value").fill("upstream-secret-value");
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page).toHaveURL(/\/portal\/products\/prod_/, { timeout: 30_000 });
  const productId = page.url().split("/").pop()!;
  await expect(page.getByText("X-Upstream-Key (values sealed)")).toBeVisible();
  await expect(page.getByText("upstream-secret-value")).toHaveCount(0);

  await (await hydrated(page.getByRole("button", { name: "Publish" }))).click();
  await expect(page.getByTestId("publish-error")).toContainText("needs at least one active price");

  await page.getByLabel("Plan name").fill("Basic");
  await page.getByLabel("Price per call").fill("0.01");
  await page.getByLabel("Rate limit (calls)").fill("100");
  await page.getByLabel("per (seconds)").fill("60");
  await page.getByLabel("Monthly quota (calls)").fill("10000");
  await page.getByRole("button", { name: "Add plan" }).click();
  await expect(page.getByTestId("plan-Basic")).toContainText("0.01 USD per call");
  await expect(page.getByTestId("plan-Basic")).toContainText("100 calls / minute");

  await page.getByLabel("Plan name").fill("Pro");
  await page.getByLabel("Charged").selectOption("subscription");
  await page.getByLabel("Monthly fee").fill("49");
  await page.getByLabel("Calls included per month").fill("100000");
  await page.getByLabel("Overage per call").fill("0.001");
  await page.getByRole("button", { name: "Add plan" }).click();
  await expect(page.getByTestId("plan-Pro")).toContainText("49 USD / month");

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByTestId("product-visibility")).toContainText("Public");
  const slug = (await page.getByTestId("product-slug").textContent())!.trim();
  expect(slug).toMatch(/^forecast-/);
  await expect(page.getByTestId("catalog-link")).toHaveAttribute("href", `/catalog/${slug}`);
  await shot(page, "provider-product");

  // A's own key, full access, from the Keys page: it verifies and meters for A's products.
  const providerKey = await createKey(page, "Provider backend");
  await expect(page.getByTestId("key-products-Provider backend")).toHaveText("all products");

  // ── B: another browser, another account. Find the product in the public catalogue.
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const pageB = await contextB.newPage();
  acceptDialogs(pageB);
  const b = await signUp(pageB, newAccount("developer"));
  await pageB.goto("/catalog");
  await pageB.getByLabel("Search").fill(tag);
  await pageB.getByRole("button", { name: "Search" }).click();
  await expect(pageB).toHaveURL(new RegExp(`q=${tag}`));
  const results = pageB.getByTestId("catalog-results");
  await expect(results.getByRole("link", { name: productName })).toBeVisible();
  await expect(results).toContainText(`by ${a.businessName}`);
  await expect(results.getByTestId("plan-Basic")).toContainText("10,000 calls / month");
  await expect(results.getByTestId("plan-Pro")).toContainText("then 0.001 USD per call");
  await expect(results).not.toContainText("127.0.0.1:9");
  await shot(pageB, "catalog");

  await results.getByRole("link", { name: productName }).click();
  await expect(pageB).toHaveURL(new RegExp(`/catalog/${slug}$`));
  await expect(pageB.getByTestId("provider-name")).toHaveText(a.businessName);
  await shot(pageB, "product-page");
  await pageB.getByRole("link", { name: "Subscribe to Basic" }).click();
  await expect(pageB.getByRole("heading", { name: `Subscribe to ${productName}` })).toBeVisible();

  // A declined card is refused in words under the number; nothing is created.
  await hydrated(pageB.getByRole("button", { name: "Subscribe" }));
  await pageB.getByLabel("Card number").fill("4000 0000 0000 0002");
  await pageB.getByLabel("Expiry (MM/YY)").fill("12/30");
  await pageB.getByLabel("CVC").fill("123");
  await pageB.getByRole("button", { name: "Subscribe" }).click();
  await expect(pageB.locator("#card-number-error")).toHaveText("Your card was declined.");

  await pageB.getByLabel("Card number").fill("4242 4242 4242 4242");
  await pageB.getByRole("button", { name: "Subscribe" }).click();
  await expect(pageB).toHaveURL(/\/portal\/subscriptions\/sub_/, { timeout: 30_000 });
  const details = pageB.getByTestId("subscription-details");
  await expect(details).toContainText(productName);
  await expect(details).toContainText(a.businessName);
  await expect(details).toContainText("Basic");
  await expect(details).toContainText("active");
  await expect(details).toContainText("visa ending 4242");

  // A key limited to this product, shown once.
  await (await hydrated(pageB.getByRole("button", { name: "Create key for this product" }))).click();
  const productKey = (await pageB.getByTestId("product-key").textContent())!.trim();
  expect(productKey).toMatch(/^sk_test_/);
  await shot(pageB, "subscription");

  // Subscribing again to the same product is refused in words (409).
  await pageB.goto(`/catalog/${slug}`);
  await pageB.getByRole("link", { name: "Subscribe to Pro" }).click();
  await hydrated(pageB.getByRole("button", { name: "Subscribe" }));
  await pageB.getByLabel("Card number").fill("4242424242424242");
  await pageB.getByLabel("Expiry (MM/YY)").fill("12/30");
  await pageB.getByLabel("CVC").fill("123");
  await pageB.getByRole("button", { name: "Subscribe" }).click();
  await expect(pageB.getByText(/already subscribes to this product/)).toBeVisible();

  await pageB.goto("/portal/keys");
  await expect(pageB.getByTestId(`key-products-${productName} key`)).toHaveText(productName);

  // ── A, through the API with its own key: verify B's key, then report 100 units of usage.
  const headers = { ...bearer(providerKey), "Content-Type": "application/json" };
  const verified = await request.post("/v1/keys/verify", { headers, data: { key: productKey, product: productId } });
  expect(verified.status(), await verified.text()).toBe(200);
  const v = (await verified.json()).data;
  expect(v.valid).toBe(true);
  expect(v.consumer.name).toBe(b.businessName);
  expect(v.ratelimit.limit).toBe(100);
  const metered = await request.post("/v1/meter-events", {
    headers,
    data: { product: productId, key: productKey, quantity: 100, identifier: `walkthrough-${tag}` },
  });
  expect(metered.status(), await metered.text()).toBe(201);

  // ── B calls A's API through the gateway, as with curl: the upstream gets the signed consumer headers.
  const called = await request.get(`/gw/${slug}/forecast?city=Oslo`, { headers: bearer(productKey) });
  expect(called.status(), await called.text()).toBe(200);
  expect((await called.json()).forecast).toBe("rain");
  expect(called.headers()["x-request-cost"]).toBe("0.01 USD");
  expect(called.headers()["ratelimit-policy"]).toBe('"plan";q=100;w=60');
  const sent = upstream.seen.at(-1)!;
  expect(sent[":path"]).toBe("/v1/forecast?city=Oslo");
  expect(sent["x-platform-consumer"]).toBe(v.consumer.businessId);
  expect(sent["x-platform-environment"]).toBe("test");
  expect(String(sent["x-platform-signature"])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(sent.authorization).toBeUndefined();
  expect(sent["x-upstream-key"]).toBe("upstream-secret-value");
  upstream.close();

  // 1 verified call + 100 metered units + 1 gateway call at 0.01 USD = 1.02 USD: on B's upcoming invoice, sold by A …
  await pageB.goto("/portal/usage");
  const upcoming = pageB.getByTestId("upcoming-invoice");
  await eventually(pageB, async () => {
    await expect(upcoming.getByTestId("invoice-total")).toHaveText("1.02 USD", { timeout: 2_000 });
  });
  await expect(upcoming.getByTestId("invoice-seller")).toHaveText(a.businessName);
  // The product's costs on their own line: 1 verification + 1 meter event + 1 gateway call, 102 units, 1.02.
  // Usage events are written a moment after the call: reload until the gateway call is counted too.
  const costRow = pageB.getByTestId("costs-by-product").getByRole("row", { name: new RegExp(productName) });
  await eventually(pageB, async () => {
    await expect(costRow.getByRole("cell").nth(1)).toHaveText("102", { timeout: 2_000 });
  });
  await expect(costRow.getByRole("cell").nth(2)).toHaveText("1.02");
  await shot(pageB, "consumer-usage");
  await pageB.goto("/portal/subscriptions");
  await expect(pageB.getByTestId(`subscription-${productName}`)).toContainText("1.02 USD");

  // … and the same money in A's Customers and Revenue.
  await page.goto("/portal/customers");
  const row = page.getByTestId(`customer-row-${b.businessName}`);
  await expect(row).toContainText(productName);
  await expect(row).toContainText("Basic");
  await expect(row).toContainText("102");
  await expect(row).toContainText("1.02 USD");
  await shot(page, "customers");
  await page.goto("/portal/revenue");
  await expect(page.getByTestId("revenue-total-USD")).toHaveText("1.02 USD");
  await expect(page.getByTestId(`revenue-row-${productName}`)).toContainText("1.02 USD");
  await expect(page.locator(".recharts-bar-rectangle").first()).toBeVisible({ timeout: 15_000 });
  await shot(page, "revenue");

  // A's product page shows the calls and the top consumer; B's logs show the gateway call.
  await page.goto(`/portal/products/${productId}`);
  await expect(page.getByTestId("call-stats")).toContainText("Calls");
  await expect(page.getByText(`${b.businessName}: 3 calls`)).toBeVisible();
  await pageB.goto("/portal/logs");
  await pageB.getByTestId(`logs-product-${slug}`).click();
  await expect(pageB).toHaveURL(new RegExp(`path=${encodeURIComponent(`/gw/${slug}/`)}`));
  await eventually(pageB, async () => {
    await expect(pageB.getByText(`/gw/${slug}/forecast`).first()).toBeVisible({ timeout: 2_000 });
  });
  await contextB.close();
});
