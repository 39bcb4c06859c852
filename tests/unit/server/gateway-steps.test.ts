import { test } from "node:test";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { checkPlanLimits } from "@/lib/server/steps/gateway";
import { forwardableHeaders } from "@/lib/gateway/proxy";
import { newGatewaySecret, signatureHeader, signedContent } from "@/lib/gateway/gateway-secret";
import { compilePrice } from "@/lib/billing/price-plan";
import { newRatingState } from "@/lib/billing/rate-events";
import type { SubscriptionEntry } from "@/lib/billing/rate-request";
import { ApiError } from "@/lib/http/errors";
import { testAuth, testContext } from "../../helpers/request-context";

function subscription(over: Partial<SubscriptionEntry> = {}): SubscriptionEntry {
  const plan = compilePrice({
    id: "price_x",
    type: "usage",
    currency: "USD",
    amount: 0.01,
    includedQuantity: null,
    minVolume: null,
    tiers: null,
    baseSubscription: null,
    overageRate: null,
    metrics: null,
  });
  return {
    subscriptionId: `sub_unit${Math.random().toString(36).slice(2)}`,
    businessId: "biz_c",
    projectId: "proj_c",
    environment: "test",
    productId: "prod_x",
    providerId: "biz_p",
    priceId: "price_x",
    status: "active",
    unpaidInvoice: null,
    cancelAtPeriodEnd: false,
    plan,
    rateLimit: null,
    monthlyQuota: null,
    billFailedCalls: false,
    limiterOutage: "open",
    prepaid: false,
    maxCostPerCallNanos: null,
    creditNetNanos: 0n,
    spendCap: null,
    autoRecharge: null,
    periodStart: Date.parse("2026-11-01T00:00:00Z"),
    periodEnd: Date.parse("2026-12-01T00:00:00Z"),
    state: newRatingState(plan),
    calls: 0,
    ...over,
  };
}

test("plan limits: calls within the plan's window pass with RateLimit headers; the next is a 429 naming the plan", async () => {
  const sub = subscription({ rateLimit: { limit: 2, windowSeconds: 60 } });
  const statuses: (number | string)[] = [];
  let last = testContext({ auth: testAuth() });
  for (let i = 0; i < 3; i++) {
    last = testContext({ auth: testAuth() });
    last.subscription = sub;
    try {
      await checkPlanLimits(last);
      statuses.push(200);
    } catch (e) {
      assert.ok(e instanceof ApiError);
      statuses.push(e.code);
      assert.equal(e.status, 429);
      assert.ok(Number(e.headers?.["Retry-After"]) >= 1);
    }
  }
  assert.deepEqual(statuses, [200, 200, "RATE_LIMIT_EXCEEDED"]);
  assert.equal(last.headers["RateLimit-Policy"], '"plan";q=2;w=60');
  assert.match(last.headers.RateLimit, /^"plan";r=0;t=\d+$/);
});

test("plan limits: a plan without limits adds no headers and refuses nothing", async () => {
  const ctx = testContext({ auth: testAuth() });
  ctx.subscription = subscription();
  await checkPlanLimits(ctx);
  assert.equal(ctx.headers.RateLimit, undefined);
});

test("forwarded headers: hop-by-hop, the client's credentials and its X-Platform-* claims never reach the upstream", () => {
  const out = forwardableHeaders({
    host: "gw.example",
    connection: "keep-alive, x-custom-hop",
    "x-custom-hop": "1",
    "keep-alive": "timeout=5",
    "transfer-encoding": "chunked",
    authorization: "Bearer sk_test_secret",
    "x-api-key": "sk_test_secret",
    "x-platform-consumer": "biz_forged",
    accept: "application/json",
    "content-type": "application/json",
  });
  assert.deepEqual(out, { accept: "application/json", "content-type": "application/json" });
});

test("signature: v1,<base64 HMAC-SHA256> of the documented string under the secret's bytes; two during a rotation", () => {
  const a = newGatewaySecret();
  const b = newGatewaySecret();
  assert.match(a, /^gws_[A-Za-z0-9+/]{43}=$/);
  const content = signedContent({
    requestId: "req_1",
    timestamp: 1764072000,
    method: "GET",
    pathWithQuery: "/v1/forecast?city=Oslo",
    consumer: "biz_c",
    subscription: "sub_1",
    environment: "test",
  });
  assert.equal(content, "req_1.1764072000.GET./v1/forecast?city=Oslo.biz_c.sub_1.test");
  const expected = (s: string) =>
    `v1,${createHmac("sha256", Buffer.from(s.slice(4), "base64"))
      .update(content)
      .digest("base64")}`;
  assert.equal(signatureHeader([a], content), expected(a));
  assert.equal(signatureHeader([b, a], content), `${expected(b)} ${expected(a)}`);
});
