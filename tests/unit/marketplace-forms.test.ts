// The marketplace pages' forms and words: typed strings become the API's inputs (or a message on the field), plans
// and keys are described the way the catalogue and the Keys view show them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PriceForm, ProductForm, SubscribeForm } from "@/lib/portal/marketplace-forms";
import { PriceCreate } from "@/lib/schemas/price";
import { ProductCreate } from "@/lib/schemas/product";
import { callableProducts, describeLimits, describePrice, type PriceView } from "@/components/marketplace/price-text";

const firstIssue = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  assert.equal(r.success, false);
  const issue = r.error!.issues[0];
  return { field: issue.path.join("."), message: issue.message };
};

const blankApi = { upstreamUrl: "", sandboxUpstreamUrl: "", timeoutMs: "", openapiUrl: "", secretHeaders: [] };

test("a product form becomes a ProductCreate with its api block and secret headers", () => {
  const out = ProductForm.parse({
    name: " Weather API ",
    type: "API",
    description: "",
    api: {
      ...blankApi,
      upstreamUrl: "http://127.0.0.1:9/v1",
      timeoutMs: "5,000",
      secretHeaders: [
        { name: "X-Key", value: "s3cret" },
        { name: "", value: "" },
      ],
    },
  });
  assert.deepEqual(out, {
    name: "Weather API",
    type: "API",
    description: null,
    api: {
      upstreamUrl: "http://127.0.0.1:9/v1",
      sandboxUpstreamUrl: null,
      timeoutMs: 5000,
      openapiUrl: null,
      secretHeaders: { "X-Key": "s3cret" },
    },
  });
  assert.ok(ProductCreate.safeParse(out).success);
  // Without any API field, no api block; a SaaS product never gets one.
  assert.equal(ProductForm.parse({ name: "Bare", type: "API", description: "", api: blankApi }).api, undefined);
  assert.equal(
    ProductForm.parse({ name: "App", type: "SaaS", description: "", api: { ...blankApi, upstreamUrl: "http://x" } }).api,
    undefined,
  );
});

test("a product form names the field it refuses, in words", () => {
  assert.deepEqual(firstIssue(ProductForm.safeParse({ name: " ", type: "API", description: "", api: blankApi })), {
    field: "name",
    message: "Name the product.",
  });
  assert.deepEqual(
    firstIssue(ProductForm.safeParse({ name: "W", type: "API", description: "", api: { ...blankApi, timeoutMs: "fast" } })),
    {
      field: "api.timeoutMs",
      message: "The timeout must be a whole number from 100 to 120,000.",
    },
  );
  const noUpstream = firstIssue(
    ProductForm.safeParse({ name: "W", type: "API", description: "", api: { ...blankApi, openapiUrl: "http://x/o.json" } }),
  );
  assert.equal(noUpstream.field, "api.upstreamUrl");
  const unnamed = firstIssue(
    ProductForm.safeParse({
      name: "W",
      type: "API",
      description: "",
      api: { ...blankApi, upstreamUrl: "http://127.0.0.1:9", secretHeaders: [{ name: "", value: "v" }] },
    }),
  );
  assert.deepEqual(unnamed, { field: "api.secretHeaders.0.name", message: "Name the header." });
});

const priceForm = {
  name: "Basic",
  kind: "usage",
  currency: "usd",
  amount: "0.01",
  baseAmount: "",
  includedQuota: "",
  overageRate: "",
  rateLimit: { limit: "", windowSeconds: "" },
  monthlyQuota: "",
};

test("a plan form becomes a usage or a subscription price with its limits", () => {
  const usage = PriceForm.parse({ ...priceForm, rateLimit: { limit: "10", windowSeconds: "" }, monthlyQuota: "1000" });
  assert.deepEqual(usage, {
    name: "Basic",
    type: "usage",
    currency: "USD",
    amount: 0.01,
    interval: "call",
    rateLimit: { limit: 10, windowSeconds: 60 },
    monthlyQuota: 1000,
  });
  assert.ok(PriceCreate.safeParse(usage).success);
  const sub = PriceForm.parse({
    ...priceForm,
    name: "Pro",
    kind: "subscription",
    amount: "",
    baseAmount: "49",
    includedQuota: "100000",
    overageRate: "0.001",
  });
  assert.deepEqual(sub, {
    name: "Pro",
    type: "subscription",
    currency: "USD",
    baseSubscription: { amount: 49, interval: "month", includedQuota: 100000 },
    overageRate: 0.001,
    rateLimit: null,
    monthlyQuota: null,
  });
  assert.ok(PriceCreate.safeParse(sub).success);
});

test("a plan form refuses what it cannot price, on the field", () => {
  assert.deepEqual(firstIssue(PriceForm.safeParse({ ...priceForm, amount: "" })), { field: "amount", message: "Give the price per call." });
  assert.equal(firstIssue(PriceForm.safeParse({ ...priceForm, amount: "1e3" })).field, "amount");
  assert.equal(firstIssue(PriceForm.safeParse({ ...priceForm, amount: "-1" })).field, "amount");
  assert.deepEqual(firstIssue(PriceForm.safeParse({ ...priceForm, kind: "subscription", amount: "" })).field, "baseSubscription.amount");
  assert.deepEqual(
    firstIssue(PriceForm.safeParse({ ...priceForm, rateLimit: { limit: "", windowSeconds: "60" } })).field,
    "rateLimit.limit",
  );
  assert.deepEqual(firstIssue(PriceForm.safeParse({ ...priceForm, monthlyQuota: "0" })), {
    field: "monthlyQuota",
    message: "The monthly quota must be a whole number from 1 to 2,147,483,647.",
  });
  assert.equal(firstIssue(PriceForm.safeParse({ ...priceForm, currency: "XXX" })).field, "currency");
});

test("the card form takes spaces in the number and MM/YY", () => {
  assert.deepEqual(SubscribeForm.parse({ priceId: "price_1", number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123" }), {
    priceId: "price_1",
    paymentMethod: { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } },
  });
  assert.equal(firstIssue(SubscribeForm.safeParse({ priceId: "p", number: "4242", expiry: "12/30", cvc: "123" })).field, "number");
  assert.equal(
    firstIssue(SubscribeForm.safeParse({ priceId: "p", number: "4242424242424242", expiry: "13/30", cvc: "123" })).field,
    "expiry",
  );
  assert.equal(firstIssue(SubscribeForm.safeParse({ priceId: "p", number: "4242424242424242", expiry: "12/30", cvc: "12" })).field, "cvc");
});

const price = (p: Partial<PriceView>): PriceView => ({
  id: "price_x",
  name: "P",
  type: "usage",
  currency: "USD",
  amount: null,
  interval: "call",
  includedQuantity: null,
  tiers: null,
  tiersMode: null,
  baseSubscription: null,
  overageRate: null,
  metrics: null,
  rateLimit: null,
  monthlyQuota: null,
  ...p,
});

test("plans in words: per call, tiers, subscription + overage, metered, and their limits", () => {
  assert.equal(describePrice(price({ amount: 0.002 })).headline, "0.002 USD per call");
  const tiered = describePrice(
    price({
      tiers: [
        { upTo: 1000, amount: 0.01 },
        { upTo: null, amount: 0.005 },
      ],
      tiersMode: "volume",
    }),
  );
  assert.equal(tiered.shape, "Tiered (volume)");
  assert.deepEqual(tiered.details, ["1–1,000: 0.01 USD per call", "1,001+: 0.005 USD per call"]);
  const sub = describePrice(
    price({ type: "subscription", baseSubscription: { amount: 49, interval: "month", includedQuota: 100000 }, overageRate: 0.001 }),
  );
  assert.equal(sub.headline, "49 USD / month");
  assert.deepEqual(sub.details, ["100,000 calls included per month", "then 0.001 USD per call"]);
  assert.equal(
    describePrice(price({ type: "metered", metrics: [{ name: "tokens", amount: 0.5, unit: "1K tokens" }] })).headline,
    "tokens: 0.5 USD per 1K tokens",
  );
  assert.deepEqual(describeLimits(price({ rateLimit: { limit: 3, windowSeconds: 60 }, monthlyQuota: 1000 })), {
    rate: "3 calls / minute",
    quota: "1,000 calls / month",
  });
  assert.deepEqual(describeLimits(price({})), { rate: "No limit", quota: "Unlimited" });
});

test("which products a key may call", () => {
  const names = new Map([["prod_a", "Weather API"]]);
  assert.equal(callableProducts(["*"], names), "all products");
  assert.equal(callableProducts(["products:read", "call:*"], names), "all products");
  assert.equal(callableProducts(["call:prod_a", "call:prod_b"], names), "Weather API, prod_b");
  assert.equal(callableProducts(["products:read"], names), "none");
});
