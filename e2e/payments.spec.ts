import { test, expect } from "@playwright/test";
import { apiGet, apiSend, bearer, createKey, fitsLightAndDark, hydrated, newAccount, signUp } from "./helpers";

// Issue 60, the consumer's side of paying, in the default test mode (PAYMENT_PROVIDER=test), on a phone's width:
// provider A sells an API at 0.50 USD a call; developer B's subscriptions are each billed for two calls and
// canceled now, so their invoice is charged at once. One paid with 4242… and partly refunded by A shows its
// attempt and refund; one charged to 4000 0000 0000 0341 (saved, then every charge fails) is open with its failed
// attempt and card_declined, and "Pay now" tries again and says why it failed. On a current subscription B saves
// pm_card_visa with the test card form and sees it as the default card. The pages fit 390 px, light and dark, and
// have no serious axe violation.
//
// Not covered here: the past_due and unpaid banners (a subscription gets there only when a period's invoice fails and
// its retries run out, which needs the test clock this server does not enable: the API tests cover dunning), and
// Stripe's Payment Element and "Pay now"'s 3-D Secure confirmation, which render only with PAYMENT_PROVIDER=stripe.

const CARD = (number: string) => ({ card: { number, expMonth: 12, expYear: 2030, cvc: "123" } });

test("invoices show their attempts and refunds, Pay now charges an open one again, and a new card is saved", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const tag = Date.now().toString(36);

  // ── A: an API at 0.50 USD a call, public.
  await signUp(page, newAccount("payments-provider"));
  const keyA = await createKey(page, "Payments provider automation");
  const product = await apiSend(
    request,
    keyA,
    "/v1/products",
    { name: `Tide gauges ${tag}`, type: "API", description: "Water levels, every minute." },
    201,
  );
  const price = await apiSend(
    request,
    keyA,
    `/v1/products/${product.id}/prices`,
    { name: "Per call", type: "usage", currency: "USD", amount: 0.5 },
    201,
  );
  const published = await request.patch(`/v1/products/${product.id}`, { headers: bearer(keyA), data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);

  // ── B, on a phone.
  const contextB = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 390, height: 844 } });
  const pageB = await contextB.newPage();
  await signUp(pageB, newAccount("payments-customer"));
  const keyB = await createKey(pageB, "Tide gauges customer");

  /** A subscription of B's with `card`, billed for two calls (1.00 USD) and canceled now: its invoice is charged at once. */
  async function billedAndCanceled(card: string) {
    const sub = await apiSend(request, keyB, "/v1/subscriptions", { priceId: price.id, paymentMethod: CARD(card) }, 201);
    for (let i = 0; i < 2; i++) {
      const verified = await request.post("/v1/keys/verify", { headers: bearer(keyA), data: { key: keyB, product: product.id } });
      expect((await verified.json()).data?.valid, await verified.text()).toBe(true);
    }
    // Usage is written a moment after the calls: cancel once both are on the running invoice.
    await expect
      .poll(async () => (await apiGet(request, keyB, `/v1/invoices/upcoming?subscriptionId=${sub.id}`)).total, { timeout: 20_000 })
      .toBe(100);
    await apiSend(request, keyB, `/v1/subscriptions/${sub.id}/cancel`, {}, 200);
    const [invoice] = await apiGet(request, keyB, `/v1/invoices?subscriptionId=${sub.id}`);
    return { subscriptionId: sub.id as string, invoice: invoice as { id: string; number: string; status: string } };
  }

  // ── Paid with 4242…, then A refunds 0.40 USD of it: one attempt, paid; the refund beside it; nothing to pay.
  const paid = await billedAndCanceled("4242424242424242");
  expect(paid.invoice.status).toBe("paid");
  await apiSend(request, keyA, `/v1/invoices/${paid.invoice.id}/refunds`, { amount: 40, reason: "requested_by_customer" }, 201);
  await pageB.goto(`/portal/subscriptions/${paid.subscriptionId}`);
  const paidItem = pageB.getByTestId(`invoice-${paid.invoice.id}`);
  await expect(paidItem).toContainText(paid.invoice.number);
  await expect(paidItem).toContainText("partly refunded");
  await expect(paidItem.getByTestId("subscription-invoice-total")).toHaveText("1.00 USD");
  await expect(paidItem.getByTestId("payment-attempt")).toHaveCount(1);
  await expect(paidItem.getByTestId("payment-attempt")).toContainText(/Attempt 1.*paid.*1\.00 USD/);
  await expect(paidItem.getByTestId("invoice-refund")).toContainText(/0\.40 USD.*refunded.*requested by you/);
  await expect(paidItem.getByRole("button", { name: /Pay/ })).toHaveCount(0);

  // ── Charged to 4000 0000 0000 0341: open, one failed attempt (card_declined), the next attempt planned.
  const declined = await billedAndCanceled("4000000000000341");
  expect(declined.invoice.status).toBe("open");
  await pageB.goto(`/portal/subscriptions/${declined.subscriptionId}`);
  const openItem = pageB.getByTestId(`invoice-${declined.invoice.id}`);
  await expect(openItem).toContainText("open");
  await expect(openItem).toContainText("1.00 USD due");
  await expect(openItem).toContainText("next attempt");
  const attempts = openItem.getByTestId("payment-attempt");
  await expect(attempts).toHaveCount(1);
  await expect(attempts.first()).toContainText(/Attempt 1.*failed.*card_declined.*Your card was declined\./);
  // A canceled subscription is neither past_due nor unpaid: no banner; and no card form (a new card goes to current ones).
  await expect(pageB.getByTestId(/^payment-banner-/)).toHaveCount(0);
  await expect(pageB.getByTestId("payment-method-card")).toContainText("The subscription has ended");
  await fitsLightAndDark(pageB, "open-invoice", "payments-open-invoice");

  // "Pay now" charges the same card again: it fails, says why, and the second attempt is listed.
  await (await hydrated(openItem.getByRole("button", { name: `Pay now: ${declined.invoice.number}` }))).click();
  await expect(pageB.getByTestId(`pay-result-${declined.invoice.id}`)).toHaveText(
    "The charge failed: Your card was declined. Add another card under Payment method: it pays open invoices at once.",
  );
  await expect(attempts).toHaveCount(2);
  await expect(attempts.nth(1)).toContainText(/Attempt 2.*failed.*card_declined/);
  const after = await apiGet(request, keyB, `/v1/invoices/${declined.invoice.id}`);
  expect([after.status, after.attemptCount]).toEqual(["open", 2]);

  // ── A current subscription charged to 0341: the test card form saves pm_card_visa as the business's default card.
  const current = await apiSend(request, keyB, "/v1/subscriptions", { priceId: price.id, paymentMethod: CARD("4000000000000341") }, 201);
  await pageB.goto(`/portal/subscriptions/${current.id}`);
  await expect(pageB.getByTestId("subscription-payment-method")).toContainText("visa ending 0341");
  await expect(pageB.getByTestId("subscription-invoices")).toContainText("No invoices yet");
  const field = pageB.getByLabel("Test card number or PaymentMethod id");
  await hydrated(pageB.getByRole("button", { name: "Use this card" }));
  // A PaymentMethod the test provider does not know is refused under the field, in the API's words.
  await field.fill("pm_nope");
  await pageB.getByRole("button", { name: "Use this card" }).click();
  await expect(pageB.locator(`#payment-method-${current.id}-error`)).toContainText("knows no PaymentMethod 'pm_nope'");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await field.fill("pm_card_visa");
  await pageB.getByRole("button", { name: "Use this card" }).click();
  await expect(pageB.getByTestId("payment-method-saved")).toContainText("Saved visa ending 4242");
  await expect(pageB.getByTestId("subscription-payment-method")).toContainText("visa ending 4242");
  await expect(pageB.getByTestId("subscription-details")).toContainText("visa ending 4242");
  const saved = pageB.getByTestId("payment-methods").getByTestId("payment-method");
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText(/visa ending 4242.*default/);
  const methods = await apiGet(request, keyB, "/v1/payment-methods");
  expect(methods.map((m: { last4: string; default: boolean }) => [m.last4, m.default])).toEqual([["4242", true]]);
  await fitsLightAndDark(pageB, "card-form", "payments-card-form");

  await contextB.close();
});
