// A provider's API product published with one price, and a consumer's subscription to it: what every gateway and
// marketplace test starts from.
import assert from "node:assert/strict";
import { createProduct, type ApiClient } from "./api";

/** Stripe's test card that always succeeds. */
export const TEST_CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };

/**
 * Waits, when needed, until a plan's fixed rate-limit window (aligned to the epoch, as
 * lib/product-calls/plan-limits.ts counts it) has at least `marginMs` left: calls meant to fill one window, then be
 * refused, must not straddle two (at a minute's turn the fourth of "three a minute" would pass).
 */
export async function withinOneWindow(windowSeconds: number, marginMs = 5_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 50));
}

const uniqueName = (stem: string) => `${stem} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/**
 * Creates an API product on `api` (`upstreamUrl`, or a whole `api` block), adds a usage price (0.01 USD a call unless
 * `price` says otherwise) and publishes it. Answers the published product, its price, slug and gateway secret.
 */
export async function publishApiProduct(
  api: ApiClient,
  o: { upstreamUrl?: string; api?: Record<string, unknown>; price?: Record<string, unknown>; name?: string } = {},
) {
  const product = await createProduct(api, {
    name: o.name ?? uniqueName("Gateway"),
    type: "API",
    api: o.api ?? { upstreamUrl: o.upstreamUrl },
  });
  const price = await api.post(`/v1/products/${product.id}/prices`, {
    name: "Basic",
    type: "usage",
    currency: "USD",
    amount: 0.01,
    ...o.price,
  });
  assert.equal(price.status, 201, price.text);
  const published = await api.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  const data = published.body.data;
  return { product: data, price: price.body.data, slug: data.slug as string, secret: data.gatewaySecret as string };
}

/** The consumer's subscription to a price, paid with the test card. */
export async function subscribe(api: ApiClient, priceId: string) {
  const res = await api.post("/v1/subscriptions", { priceId, paymentMethod: TEST_CARD });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}
