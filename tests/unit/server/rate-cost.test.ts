import { test } from "node:test";
import assert from "node:assert/strict";
import { rateCost, requestBytes } from "@/lib/server/steps/rate-cost";
import { testAuth, testContext } from "../../helpers/request-context";

test("rate cost: bytes in are the declared length, else the body read", () => {
  assert.equal(requestBytes(testContext({ headers: { "content-length": "42" } })), 42);
  const ctx = testContext();
  ctx.rawBody = "héllo";
  assert.equal(requestBytes(ctx), 6);
});

test("rate cost: failed and anonymous calls are not rated", async () => {
  const failed = testContext({ auth: testAuth() });
  failed.response = { status: 404, headers: {}, body: "{}" };
  await rateCost(failed);
  assert.equal(failed.response.headers["X-Request-Cost"], undefined);
  assert.equal(failed.cost, null);
  const anonymous = testContext({ auth: null });
  anonymous.response = { status: 200, headers: {}, body: "{}" };
  await rateCost(anonymous);
  assert.equal(anonymous.cost, null);
});

test("rate cost: a control-plane call (no subscription) is never rated; a product call is, by its subscription's price", async () => {
  const { compilePrice } = await import("@/lib/billing/price-plan");
  const { newRatingState } = await import("@/lib/billing/rate-events");
  const controlPlane = testContext({ auth: testAuth() });
  controlPlane.response = { status: 200, headers: {}, body: "{}" };
  await rateCost(controlPlane);
  assert.equal(controlPlane.response.headers["X-Request-Cost"], undefined);
  assert.equal(controlPlane.cost, null);

  const plan = compilePrice({
    id: "price_x",
    type: "usage",
    currency: "USD",
    amount: 0.002,
    includedQuantity: null,
    minVolume: null,
    tiers: null,
    baseSubscription: null,
    overageRate: null,
    metrics: null,
  });
  const productCall = testContext({ auth: testAuth() });
  productCall.subscription = {
    subscriptionId: "sub_x",
    businessId: "biz_consumer",
    projectId: "proj_x",
    environment: "production",
    productId: "prod_x",
    providerId: "biz_provider",
    priceId: "price_x",
    status: "active",
    cancelAtPeriodEnd: false,
    plan,
    rateLimit: null,
    monthlyQuota: null,
    billFailedCalls: false,
    periodStart: productCall.at.getTime() - 1000,
    periodEnd: productCall.at.getTime() + 86_400_000,
    state: newRatingState(plan),
    calls: 0,
  };
  productCall.response = { status: 200, headers: {}, body: "{}" };
  await rateCost(productCall);
  assert.equal(productCall.response.headers["X-Request-Cost"], "0.002 USD");
  assert.equal(productCall.subscription.calls, 1);
});
