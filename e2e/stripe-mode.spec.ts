import { test, expect, request as apiRequest, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { startStripeServer, type StripeServer } from "../tests/helpers/stripe-server";
// @ts-expect-error: plain ESM script without types
import { startServer } from "../scripts/lib/server.mjs";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../scripts/lib/test-database.mjs";
import { apiGet, apiSend, bearer, createKey, fitsLightAndDark, hydrated, newAccount, signUp } from "./helpers";

// Issue 60 with PAYMENT_PROVIDER=stripe, in the browser on a phone's width. The suite's own server runs the test
// provider, so this file starts a platform of its own in stripe mode (fresh SQLite database) against the project's
// Stripe-compatible server (tests/helpers/stripe-server.ts). Stripe.js cannot come from js.stripe.com here: each
// page serves a small stand-in for it (FAKE_STRIPE_JS) that records what the portal asks of it, as the real one
// would be asked, and answers as Stripe does. Its one call to Stripe's API (confirming a PaymentIntent) is routed to the
// Stripe server; what the bank's 3-D Secure dialog does is the Stripe server's completeAuthentication(), called by the
// test when the page opens that dialog.
//   - the card form mounts Stripe's Payment Element with the SetupIntent's client secret and the publishable key,
//     and "Save card" makes the card Stripe confirmed (pm_card_visa) the business's default;
//   - with js.stripe.com unreachable the form says it could not load, and loads on "Try again" once it can;
//   - "Pay now" on an invoice whose off-session charge needed authentication confirms the PaymentIntent with
//     Stripe.js; once the card holder has passed the bank's check, Stripe's event marks the invoice paid;
//   - the pages' Content-Security-Policy allows Stripe's script, frames and API, and nothing loads Stripe.js before
//     a page needs it.

const PUBLISHABLE_KEY = "pk_test_0123456789abcdef";
const STRIPE_JS = "https://js.stripe.com/v3/**";
const PHONE = { width: 390, height: 844 };

/** Stripe.js's few calls the portal makes (components/marketplace/stripe-js.ts), each recorded in window.__stripeCalls. */
const FAKE_STRIPE_JS = `(() => {
  const calls = (window.__stripeCalls = []);
  window.Stripe = function (publishableKey) {
    calls.push(["Stripe", publishableKey]);
    return {
      elements(options) {
        calls.push(["elements", options.clientSecret, options.appearance && options.appearance.theme]);
        return {
          create(type) {
            calls.push(["create", type]);
            const handlers = {};
            return {
              on(event, handler) { handlers[event] = handler; },
              mount(target) {
                calls.push(["mount"]);
                const frame = document.createElement("div");
                frame.setAttribute("data-fake-stripe", "");
                frame.textContent = "Card number, expiry, CVC (Stripe's frame)";
                frame.style.cssText = "border:1px solid #64748b;padding:12px;border-radius:6px;min-height:96px";
                target.appendChild(frame);
                setTimeout(() => handlers.ready && handlers.ready({}), 50);
              },
              destroy() { calls.push(["destroy"]); },
            };
          },
          update(options) { calls.push(["update", options.appearance && options.appearance.theme]); },
        };
      },
      async confirmSetup(options) {
        calls.push(["confirmSetup", options.redirect]);
        return { setupIntent: { id: "seti_confirmed", status: "succeeded", payment_method: "pm_card_visa" } };
      },
      async retrieveSetupIntent(clientSecret) {
        calls.push(["retrieveSetupIntent", clientSecret]);
        return { setupIntent: { id: clientSecret.split("_secret_")[0], status: "succeeded", payment_method: "pm_card_visa" } };
      },
      // As Stripe.js: confirms the PaymentIntent on Stripe's API with the publishable key and the client secret;
      // when the bank wants its card holder, the dialog (window.__bankDialog, the test's) is passed first.
      async confirmCardPayment(clientSecret) {
        calls.push(["confirmCardPayment", clientSecret]);
        const id = clientSecret.split("_secret_")[0];
        const res = await fetch("https://api.stripe.com/v1/payment_intents/" + id + "/confirm", {
          method: "POST",
          body: new URLSearchParams({ client_secret: clientSecret, key: publishableKey }),
        });
        const intent = await res.json();
        if (!res.ok) return { error: intent.error };
        if (intent.status === "requires_action") await window.__bankDialog(id);
        return { paymentIntent: { id, status: "succeeded" } };
      },
    };
  };
})();`;

let stripe: StripeServer;
let platform: { url: string; stop(): Promise<void> };
let database: { url: string; drop(): Promise<void> };
let api: APIRequestContext;
/** Provider A's public API at 0.50 USD a call (Stripe's smallest charge in USD), which every test's customer buys. */
let seller: { key: string; productId: string; priceId: string };

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  stripe = await startStripeServer();
  database = await createTestDatabase("sqlite");
  platform = await startServer({
    env: {
      DATABASE_URL: database.url,
      ALLOW_PRIVATE_URLS: "true",
      USAGE_FLUSH_MS: "100",
      ROLLUP_FLUSH_MS: "300",
      WEBHOOK_POLL_MS: "200",
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_API_BASE: stripe.url,
    },
  });
  stripe.setWebhookUrl(`${platform.url}/webhooks/stripe`);
  api = await apiRequest.newContext({ baseURL: platform.url });

  const { context, key } = await customer(browser, "stripe-provider");
  await context.close();
  const product = await apiSend(
    api,
    key,
    "/v1/products",
    { name: `Tide gauges ${Date.now().toString(36)}`, type: "API", description: "Water levels, every minute." },
    201,
  );
  const price = await apiSend(
    api,
    key,
    `/v1/products/${product.id}/prices`,
    { name: "Per call", type: "usage", currency: "USD", amount: 0.5 },
    201,
  );
  await apiSend(api, key, `/v1/products/${product.id}`, { visibility: "public" }, 200, "patch");
  seller = { key, productId: product.id, priceId: price.id };
});

test.afterAll(async () => {
  await api?.dispose();
  await platform?.stop();
  await database?.drop();
  await stripe?.close();
});

/** A business signed up in a browser of its own, at a phone's width, on this file's server; its full-access key. */
async function customer(browser: Browser, prefix: string) {
  const context = await browser.newContext({ baseURL: platform.url, viewport: PHONE });
  const page = await context.newPage();
  const stripeJsLoads: string[] = [];
  page.on("request", (r) => {
    if (r.url().startsWith("https://js.stripe.com/")) stripeJsLoads.push(page.url());
  });
  await signUp(page, newAccount(prefix));
  const key = await createKey(page, `${prefix} automation`);
  return { context, page, key, stripeJsLoads };
}

/** Serves FAKE_STRIPE_JS for js.stripe.com's script on `page`. */
const serveFakeStripeJs = (page: Page) =>
  page.route(STRIPE_JS, (route) => route.fulfill({ contentType: "application/javascript", body: FAKE_STRIPE_JS }));

/** What the page asked of Stripe.js so far: [call, ...arguments]. */
const stripeCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __stripeCalls?: (string | undefined)[][] }).__stripeCalls ?? []);

test("the card form mounts Stripe's Payment Element with the SetupIntent and saves the card Stripe confirmed as the default", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const b = await customer(browser, "stripe-card");
  expect(b.stripeJsLoads, "Stripe.js is not loaded by sign-up, the dashboard or the keys page").toEqual([]);
  const sub = await apiSend(api, b.key, "/v1/subscriptions", { priceId: seller.priceId, paymentMethod: "pm_card_chargeCustomerFail" }, 201);

  await serveFakeStripeJs(b.page);
  const response = await b.page.goto(`${platform.url}/portal/subscriptions/${sub.id}`);
  // Stripe's script, its frames (the element, the bank's dialog) and its API are allowed; the rest stays as it was.
  const csp = Object.fromEntries(
    (response!.headers()["content-security-policy"] ?? "")
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...sources]) => [name, sources]),
  ) as Record<string, string[]>;
  expect(csp["script-src"]).toContain("https://js.stripe.com");
  expect(csp["frame-src"]).toEqual(expect.arrayContaining(["https://js.stripe.com", "https://hooks.stripe.com"]));
  expect(csp["frame-src"]).not.toContain("'none'");
  expect(csp["connect-src"]).toContain("https://api.stripe.com");

  await expect(b.page.getByTestId("subscription-payment-method")).toContainText("visa ending 0341");
  await expect(b.page.getByTestId("stripe-payment-element").locator("[data-fake-stripe]")).toBeVisible();
  const save = await hydrated(b.page.getByRole("button", { name: "Save card" }));
  await expect(save).toBeEnabled();
  const [started, elements, created, mounted] = await stripeCalls(b.page);
  expect(started).toEqual(["Stripe", PUBLISHABLE_KEY]);
  expect(elements[0]).toBe("elements");
  expect(elements[2], "Stripe's light theme in a light page").toBe("stripe");
  // The SetupIntent's own client secret, made for this business's Stripe Customer.
  const setupIntent = stripe.objects.get(elements[1]!.split("_secret_")[0]);
  expect(setupIntent?.object).toBe("setup_intent");
  expect(setupIntent.client_secret).toBe(elements[1]);
  expect(stripe.objects.get(setupIntent.customer)?.object).toBe("customer");
  expect([created, mounted]).toEqual([["create", "payment"], ["mount"]]);
  await fitsLightAndDark(b.page, "stripe card form", "stripe-card-form");
  expect(await stripeCalls(b.page), "the form follows the dark scheme").toContainEqual(["update", "night"]);

  await save.click();
  await expect(b.page.getByTestId("payment-method-saved")).toHaveText(
    "Saved visa ending 4242: your current subscriptions are charged to it from now on.",
    { timeout: 20_000 },
  );
  expect(await stripeCalls(b.page)).toContainEqual(["confirmSetup", "if_required"]);
  await expect(b.page.getByTestId("subscription-payment-method")).toContainText("visa ending 4242");
  await expect(b.page.getByRole("button", { name: "Add another card" })).toBeVisible();
  const methods: { brand: string; last4: string; default: boolean }[] = await apiGet(api, b.key, "/v1/payment-methods");
  expect(methods.filter((m) => m.default).map((m) => [m.brand, m.last4])).toEqual([["visa", "4242"]]);
  expect((await apiGet(api, b.key, `/v1/subscriptions/${sub.id}`)).paymentMethod.last4).toBe("4242");
  await b.context.close();
});

test("with js.stripe.com unreachable the card form says so instead of a broken form, and loads on Try again", async ({ browser }) => {
  test.setTimeout(120_000);
  const b = await customer(browser, "stripe-blocked");
  const sub = await apiSend(api, b.key, "/v1/subscriptions", { priceId: seller.priceId, paymentMethod: "pm_card_visa" }, 201);

  await b.page.route(STRIPE_JS, (route) => route.abort("blockedbyclient"));
  await b.page.goto(`${platform.url}/portal/subscriptions/${sub.id}`);
  const blocked = b.page.getByTestId("stripe-unavailable");
  await expect(blocked).toHaveText(
    /Stripe's card form could not load: check your connection or content blocker; your card is never sent to this server\./,
  );
  await expect(b.page.getByTestId("stripe-payment-element")).toHaveCount(0);
  await expect(b.page.getByRole("button", { name: "Save card" })).toHaveCount(0);
  await expect(b.page.getByText("Loading Stripe's card form…")).toHaveCount(0);
  await expect(b.page.getByTestId("subscription-payment-method")).toContainText("visa ending 4242");
  await fitsLightAndDark(b.page, "stripe card form unavailable", "stripe-card-form-unavailable");

  // Reachable again: Try again loads Stripe.js and mounts the element.
  await b.page.unroute(STRIPE_JS);
  await serveFakeStripeJs(b.page);
  await (await hydrated(blocked.getByRole("button", { name: "Try again" }))).click();
  await expect(b.page.getByTestId("stripe-payment-element").locator("[data-fake-stripe]")).toBeVisible();
  await expect(b.page.getByRole("button", { name: "Save card" })).toBeEnabled();
  await expect(blocked).toHaveCount(0);
  await b.context.close();
});

test("Pay now on an invoice that needed authentication confirms its PaymentIntent with Stripe.js, and Stripe's event marks it paid", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const b = await customer(browser, "stripe-3ds");
  const sub = await apiSend(
    api,
    b.key,
    "/v1/subscriptions",
    { priceId: seller.priceId, paymentMethod: "pm_card_authenticationRequired" },
    201,
  );
  // Two calls (1.00 USD), then canceled now: the invoice is finalised and charged off-session, which the bank refuses
  // without its card holder.
  for (let i = 0; i < 2; i++) {
    const verified = await api.post("/v1/keys/verify", { headers: bearer(seller.key), data: { key: b.key, product: seller.productId } });
    expect((await verified.json()).data?.valid, await verified.text()).toBe(true);
  }
  await expect
    .poll(async () => (await apiGet(api, b.key, `/v1/invoices/upcoming?subscriptionId=${sub.id}`)).total, { timeout: 20_000 })
    .toBe(100);
  await apiSend(api, b.key, `/v1/subscriptions/${sub.id}/cancel`, {}, 200);
  const [invoice] = await apiGet(api, b.key, `/v1/invoices?subscriptionId=${sub.id}`);
  expect(invoice.status).toBe("open");

  await serveFakeStripeJs(b.page);
  // Stripe's API as Stripe.js reaches it (CORS, with the publishable key and the PaymentIntent's client secret).
  const confirmed: { intentId: string; status: number }[] = [];
  await b.page.route("https://api.stripe.com/v1/payment_intents/*/confirm", async (route) => {
    const intentId = new URL(route.request().url()).pathname.split("/")[3];
    const form = new URLSearchParams(route.request().postData() ?? "");
    const known = form.get("key") === PUBLISHABLE_KEY && form.get("client_secret") === stripe.objects.get(intentId)?.client_secret;
    const res = known
      ? await fetch(`${stripe.url}/v1/payment_intents/${intentId}/confirm`, {
          method: "POST",
          headers: { authorization: `Bearer ${stripe.secretKey}`, "content-type": "application/x-www-form-urlencoded" },
          body: "",
        })
      : null;
    confirmed.push({ intentId, status: res?.status ?? 401 });
    await route.fulfill({
      status: res?.status ?? 401,
      headers: { "access-control-allow-origin": "*" },
      contentType: "application/json",
      body: res ? await res.text() : JSON.stringify({ error: { type: "invalid_request_error", message: "No such client_secret" } }),
    });
  });
  // The bank's dialog: while it is open the PaymentIntent waits for its card holder and the invoice is still open;
  // the card holder passes it, Stripe charges and tells the platform (its webhook, delivered before this returns).
  const dialogs: { intentId: string; intentStatus: string; invoiceStatus: string }[] = [];
  await b.page.exposeFunction("__bankDialog", async (intentId: string) => {
    const invoiceNow = await api.get(`/v1/invoices/${invoice.id}`, { headers: bearer(b.key) });
    dialogs.push({ intentId, intentStatus: stripe.objects.get(intentId)?.status, invoiceStatus: (await invoiceNow.json()).data?.status });
    await stripe.completeAuthentication(intentId);
  });
  await b.page.goto(`${platform.url}/portal/subscriptions/${sub.id}`);
  const item = b.page.getByTestId(`invoice-${invoice.id}`);
  await expect(item).toContainText("1.00 USD due");
  const attempts = item.getByTestId("payment-attempt");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText(/Attempt 1.*failed.*authentication_required/);
  expect(b.stripeJsLoads, "an ended subscription has no card form: Stripe.js waits for Pay now").toEqual([]);

  await (await hydrated(item.getByRole("button", { name: `Pay now: ${invoice.number}` }))).click();
  await expect(b.page.getByTestId(`pay-result-${invoice.id}`)).toContainText(
    "Payment confirmed: the invoice shows as paid when Stripe confirms it",
  );
  const calls = await stripeCalls(b.page);
  expect(calls.map((c) => c[0])).toEqual(["Stripe", "confirmCardPayment"]);
  expect(calls[0]).toEqual(["Stripe", PUBLISHABLE_KEY]);
  const clientSecret = calls[1][1]!;
  expect(clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
  const intentId = clientSecret.split("_secret_")[0];
  const intent = stripe.objects.get(intentId);
  expect([intent?.object, intent?.metadata?.invoice_id, intent?.amount]).toEqual(["payment_intent", invoice.id, 100]);
  expect(confirmed, "confirmed on Stripe's API from the page").toEqual([{ intentId, status: 200 }]);
  expect(dialogs).toEqual([{ intentId, intentStatus: "requires_action", invoiceStatus: "open" }]);
  expect(intent.status).toBe("succeeded");

  await expect.poll(async () => (await apiGet(api, b.key, `/v1/invoices/${invoice.id}`)).status, { timeout: 20_000 }).toBe("paid");
  expect((await apiGet(api, b.key, `/v1/invoices/${invoice.id}`)).amountPaid).toBe(100);
  // The page looks again a few seconds after the confirmation: paid, nothing left to pay.
  await expect(item.getByRole("button", { name: /^Pay now/ })).toHaveCount(0, { timeout: 20_000 });
  await expect(item).toContainText(" · paid ");
  await expect(attempts).toHaveCount(2);
  await expect(attempts.last()).toContainText(/paid.*1\.00 USD/);
  await b.context.close();
});
