import { test, expect, type APIRequestContext } from "@playwright/test";
import { startJsonUpstream, type JsonUpstream } from "../tests/helpers/json-upstream";
import { bearer, confirmDialog, createKey, hydrated, newAccount, signUp } from "./helpers";

// Issue 37: the portal runs in Next's process and the API and gateway in the data plane's. A change made in the
// portal (a real browser clicking) is honoured by the very next /gw and /v1 call: one call each, no retrying. The
// data plane's caches hold the key and the subscription from the calls made before the change.

let upstream: JsonUpstream;
let upstreamUrl = "";
test.beforeAll(async () => {
  upstream = await startJsonUpstream();
  upstreamUrl = upstream.url;
});
test.afterAll(() => upstream?.close());

async function post(request: APIRequestContext, key: string, path: string, data: unknown, status = 201) {
  const res = await request.post(path, { headers: { ...bearer(key), "Content-Type": "application/json" }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
  return (await res.json()).data;
}

async function callGateway(request: APIRequestContext, slug: string, key: string) {
  const res = await request.get(`/gw/${slug}/forecast`, { headers: bearer(key) });
  return { status: res.status(), code: res.status() === 200 ? null : ((await res.json()).error?.code as string) };
}

test("a subscription cancelled and a key revoked in the portal are refused by the very next gateway and /v1 call", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // ── A provider publishes an API product through the API.
  const providerContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const providerPage = await providerContext.newPage();
  await signUp(providerPage, newAccount("dp-provider"));
  const providerKey = await createKey(providerPage, "Provider automation");
  const product = await post(request, providerKey, "/v1/products", {
    name: `Forecasts ${Date.now().toString(36)}`,
    type: "API",
    api: { upstreamUrl },
  });
  const price = await post(request, providerKey, `/v1/products/${product.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "USD",
    amount: 0.01,
  });
  const published = await request.patch(`/v1/products/${product.id}`, { headers: bearer(providerKey), data: { visibility: "public" } });
  expect(published.status(), await published.text()).toBe(200);
  const slug = (await published.json()).data.slug as string;
  await providerContext.close();

  // ── A developer signs up, makes two keys in the portal and subscribes; both keys call the product.
  await signUp(page, newAccount("dp-consumer"));
  const kept = await createKey(page, "Kept key");
  const revoked = await createKey(page, "Revoked key");
  const sub = await post(request, kept, "/v1/subscriptions", {
    priceId: price.id,
    paymentMethod: { card: { number: "4242424242424242" } },
  });
  for (const key of [kept, revoked]) {
    expect(await callGateway(request, slug, key)).toEqual({ status: 200, code: null });
    expect((await request.get("/v1/products", { headers: bearer(key) })).status()).toBe(200);
  }

  // ── The key is revoked in the portal: its very next /gw and /v1 calls are refused; the other key still works.
  await page.goto("/portal/keys");
  await (await hydrated(page.getByRole("button", { name: "Revoke Revoked key", exact: true }))).click();
  await confirmDialog(page, { title: `Revoke "Revoked key"?`, says: "stops working on its next request", button: "Revoke key" });
  await expect(page.getByTestId("key-row-Revoked key").getByText("revoked", { exact: true })).toBeVisible();
  expect(await callGateway(request, slug, revoked)).toEqual({ status: 401, code: "API_KEY_REVOKED" });
  const v1 = await request.get("/v1/products", { headers: bearer(revoked) });
  expect(v1.status()).toBe(401);
  expect((await v1.json()).error.code).toBe("API_KEY_REVOKED");
  expect(await callGateway(request, slug, kept)).toEqual({ status: 200, code: null });

  // ── The subscription is cancelled now in the portal: the very next gateway call is refused.
  await page.goto(`/portal/subscriptions/${sub.id}`);
  await (await hydrated(page.getByRole("button", { name: "Cancel now" }))).click();
  await confirmDialog(page, { title: "Cancel the subscription now?", button: "Cancel now" });
  await expect(page.getByText(/canceled on/)).toBeVisible();
  const afterCancel = await callGateway(request, slug, kept);
  expect(afterCancel.status, JSON.stringify(afterCancel)).toBe(403);
  expect(["PRODUCT_NOT_SUBSCRIBED", "SUBSCRIPTION_INACTIVE"]).toContain(afterCancel.code);
  // The key itself is still good for the platform's own API.
  expect((await request.get("/v1/products", { headers: bearer(kept) })).status()).toBe(200);
});
