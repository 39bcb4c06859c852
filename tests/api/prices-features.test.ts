// Prices (every pricing shape of the spec) and features of a product: create, list, read, update, delete,
// and the validation of each shape.
import { test } from "node:test";
import assert from "node:assert/strict";
import { seedBusiness, createProduct, expectError, type ApiClient } from "../helpers/api";

async function productWith(api: ApiClient) {
  return createProduct(api, { name: "Priced API" });
}

test("a usage price per request with included quantity and minimum volume", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const res = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "Pay per call",
    type: "usage",
    currency: "usd",
    amount: 0.001,
    interval: "request",
    includedQuantity: 1000,
    minVolume: 100,
    description: "First 1000 free",
  });
  assert.equal(res.status, 201);
  const price = res.body.data;
  assert.match(price.id, /^price_[0-9A-Z]{26}$/);
  assert.equal(price.productId, p.id);
  assert.equal(price.type, "usage");
  assert.equal(price.currency, "USD");
  assert.equal(price.amount, 0.001);
  assert.equal(price.interval, "request");
  assert.equal(price.includedQuantity, 1000);
  assert.equal(price.minVolume, 100);
  assert.equal(price.description, "First 1000 free");
  assert.equal(price.isActive, true);
  assert.equal(price.tiers, null);
  assert.equal(price.environment, "test");
  const read = await biz.test.get(`/v1/prices/${price.id}`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, price);
  const perCall = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "EUR",
    amount: 2,
    interval: "call",
  });
  assert.equal(perCall.body.data.interval, "call");
  // With no interval a usage price is per request.
  const dflt = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Default", type: "usage", currency: "GBP", amount: 0 });
  assert.equal(dflt.status, 201);
  assert.equal(dflt.body.data.interval, "request");
  assert.equal(dflt.body.data.amount, 0);
});

test("a tiered usage price keeps its tiers, the last one unbounded", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const tiers = [
    { upTo: 1000, amount: 0, description: "free tier" },
    { upTo: 10000, amount: 0.01 },
    { upTo: 100000, amount: 0.005 },
    { upTo: null, amount: 0.001 },
  ];
  const res = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Volume", type: "usage", currency: "USD", tiers });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body.data.tiers, tiers);
  assert.equal(res.body.data.amount, null);
  assert.deepEqual((await biz.test.get(`/v1/prices/${res.body.data.id}`)).body.data.tiers, tiers);
  // "inf" is another way to write the unbounded tier; it reads back as null.
  const inf = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "Inf",
    type: "usage",
    currency: "USD",
    tiers: [
      { upTo: 10, amount: 1 },
      { upTo: "inf", amount: 0.5 },
    ],
  });
  assert.equal(inf.status, 201);
  assert.deepEqual(inf.body.data.tiers, [
    { upTo: 10, amount: 1 },
    { upTo: null, amount: 0.5 },
  ]);
});

test("a subscription price with base subscription and overage rate", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const baseSubscription = { amount: 49, interval: "month", includedQuota: 100000 };
  const res = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "Pro",
    type: "subscription",
    currency: "USD",
    baseSubscription,
    overageRate: 0.0005,
  });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body.data.baseSubscription, baseSubscription);
  assert.equal(res.body.data.overageRate, 0.0005);
  assert.equal(res.body.data.interval, "month");
  const yearly = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "Pro yearly",
    type: "subscription",
    currency: "USD",
    baseSubscription: { ...baseSubscription, interval: "year" },
  });
  assert.equal(yearly.status, 201);
  assert.equal(yearly.body.data.interval, "year");
  assert.equal(yearly.body.data.overageRate, null);
});

test("a metered price with several metrics", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const metrics = [
    { name: "requests", amount: 0.001, unit: "request", includedQuantity: 1000 },
    { name: "data transfer", amount: 0.09, unit: "GB" },
    { name: "tokens", amount: 0.002, unit: "1K tokens", includedQuantity: 0 },
  ];
  const res = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Metered", type: "metered", currency: "USD", metrics });
  assert.equal(res.status, 201);
  assert.deepEqual(res.body.data.metrics, metrics);
  assert.deepEqual((await biz.test.get(`/v1/prices/${res.body.data.id}`)).body.data.metrics, metrics);
});

test("invalid prices are 400 with the field named", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const post = (body: Record<string, unknown>) => biz.test.post(`/v1/products/${p.id}/prices`, { name: "x", currency: "USD", ...body });

  const noAmount = expectError(await post({ type: "usage" }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(noAmount.field, "amount");
  assert.equal(noAmount.type, "validation_error");

  const outOfOrder = expectError(
    await post({
      type: "usage",
      tiers: [
        { upTo: 1000, amount: 1 },
        { upTo: 500, amount: 0.5 },
        { upTo: null, amount: 0.1 },
      ],
    }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(outOfOrder.field, "tiers[1].upTo");
  const equalTiers = expectError(
    await post({
      type: "usage",
      tiers: [
        { upTo: 1000, amount: 1 },
        { upTo: 1000, amount: 0.5 },
      ],
    }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(equalTiers.field, "tiers[1].upTo");
  const openMiddle = expectError(
    await post({
      type: "usage",
      tiers: [
        { upTo: null, amount: 1 },
        { upTo: 500, amount: 0.5 },
      ],
    }),
    400,
    "INVALID_FIELD",
  );
  assert.equal(openMiddle.field, "tiers[0].upTo");
  assert.equal(expectError(await post({ type: "usage", tiers: [] }), 400, "INVALID_FIELD").field, "tiers");

  assert.equal(expectError(await post({ type: "usage", amount: -1 }), 400, "INVALID_FIELD").field, "amount");
  assert.equal(
    expectError(await post({ type: "usage", tiers: [{ upTo: 10, amount: -0.5 }] }), 400, "INVALID_FIELD").field,
    "tiers[0].amount",
  );
  assert.equal(expectError(await post({ type: "usage", amount: "1.00" }), 400, "INVALID_FIELD").field, "amount");

  const currency = expectError(await post({ type: "usage", amount: 1, currency: "XYZ" }), 400, "INVALID_FIELD");
  assert.equal(currency.field, "currency");
  assert.ok(currency.suggestion?.includes("USD"), currency.suggestion);
  assert.equal(
    expectError(await biz.test.post(`/v1/products/${p.id}/prices`, { name: "x", type: "usage", amount: 1 }), 400, "MISSING_REQUIRED_FIELD")
      .field,
    "currency",
  );

  const noBase = expectError(await post({ type: "subscription", overageRate: 0.1 }), 400, "MISSING_REQUIRED_FIELD");
  assert.equal(noBase.field, "baseSubscription");
  assert.equal(
    expectError(
      await post({ type: "subscription", baseSubscription: { amount: 10, interval: "week", includedQuota: 1 } }),
      400,
      "INVALID_FIELD",
    ).field,
    "baseSubscription.interval",
  );
  assert.equal(
    expectError(await post({ type: "subscription", baseSubscription: { amount: 10, interval: "month" } }), 400, "MISSING_REQUIRED_FIELD")
      .field,
    "baseSubscription.includedQuota",
  );

  assert.equal(expectError(await post({ type: "metered" }), 400, "MISSING_REQUIRED_FIELD").field, "metrics");
  assert.equal(
    expectError(
      await post({
        type: "metered",
        metrics: [
          { name: "a", amount: 1, unit: "u" },
          { name: "a", amount: 2, unit: "u" },
        ],
      }),
      400,
      "INVALID_FIELD",
    ).field,
    "metrics[1].name",
  );

  assert.equal(expectError(await post({ type: "usage", amount: 1, interval: "month" }), 400, "INVALID_FIELD").field, "interval");
  assert.equal(expectError(await post({ type: "donation", amount: 1 }), 400, "INVALID_TYPE").field, "type");
  assert.equal(
    expectError(await post({ type: "usage", amount: 1, includedQuantity: 1.5 }), 400, "INVALID_FIELD").field,
    "includedQuantity",
  );
  // Counts beyond what the database column holds are refused, not a server error.
  assert.equal(
    expectError(await post({ type: "usage", amount: 1, includedQuantity: 3_000_000_000 }), 400, "INVALID_FIELD").field,
    "includedQuantity",
  );
  assert.equal(expectError(await post({ type: "usage", amount: 1, minVolume: 1e15 }), 400, "INVALID_FIELD").field, "minVolume");
  assert.equal(expectError(await post({ type: "usage", amount: 1, colour: "red" }), 400, "INVALID_FIELD").field, "colour");

  assert.equal((await biz.test.get(`/v1/products/${p.id}/prices`)).body.pagination.total, 0);
});

test("prices are listed per product, newest first, and can be filtered", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const other = await createProduct(biz.test, { name: "Other" });
  const a = await biz.test.post(`/v1/products/${p.id}/prices`, { name: "A", type: "usage", currency: "USD", amount: 1 });
  const b = await biz.test.post(`/v1/products/${p.id}/prices`, {
    name: "B",
    type: "metered",
    currency: "USD",
    metrics: [{ name: "gb", amount: 1, unit: "GB" }],
  });
  await biz.test.post(`/v1/products/${other.id}/prices`, { name: "C", type: "usage", currency: "USD", amount: 3 });
  const list = await biz.test.get(`/v1/products/${p.id}/prices`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.data.map((x: any) => x.id),
    [b.body.data.id, a.body.data.id],
  );
  assert.equal(list.body.pagination.total, 2);
  assert.deepEqual(
    (await biz.test.get(`/v1/products/${p.id}/prices?type=metered`)).body.data.map((x: any) => x.id),
    [b.body.data.id],
  );
  assert.deepEqual(
    (await biz.test.get(`/v1/products/${p.id}/prices?amount[gte]=1`)).body.data.map((x: any) => x.id),
    [a.body.data.id],
  );
  const one = await biz.test.get(`/v1/products/${p.id}/prices?limit=1`);
  assert.equal(one.body.pagination.hasMore, true);
  const next = await biz.test.get(`/v1/products/${p.id}/prices?limit=1&cursor=${encodeURIComponent(one.body.pagination.nextCursor)}`);
  assert.deepEqual(
    next.body.data.map((x: any) => x.id),
    [a.body.data.id],
  );
  assert.equal(next.body.pagination.hasMore, false);
  expectError(await biz.test.get(`/v1/products/${p.id}/prices?colour=red`), 400, "INVALID_FILTER");
});

test("PATCH /v1/prices/{id} changes name, description and isActive, never the amount", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const price = (await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Old", type: "usage", currency: "USD", amount: 1 })).body.data;
  const res = await biz.test.patch(`/v1/prices/${price.id}`, { name: "New", description: "renamed", isActive: false });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.name, "New");
  assert.equal(res.body.data.description, "renamed");
  assert.equal(res.body.data.isActive, false);
  assert.equal(res.body.data.amount, 1);
  assert.equal(res.body.data.currency, "USD");
  assert.deepEqual((await biz.test.get(`/v1/prices/${price.id}`)).body.data, res.body.data);
  const cleared = await biz.test.patch(`/v1/prices/${price.id}`, { description: null });
  assert.equal(cleared.body.data.description, null);
  assert.equal(cleared.body.data.name, "New");
  for (const field of ["amount", "currency", "type", "tiers"]) {
    assert.equal(expectError(await biz.test.patch(`/v1/prices/${price.id}`, { [field]: 2 }), 400, "INVALID_FIELD").field, field);
  }
  assert.equal((await biz.test.get(`/v1/prices/${price.id}`)).body.data.amount, 1);
  assert.equal(expectError(await biz.test.patch(`/v1/prices/${price.id}`, { name: "" }), 400, "INVALID_FIELD").field, "name");
});

test("DELETE /v1/prices/{id} answers 204 and the price is gone", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const keep = (await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Keep", type: "usage", currency: "USD", amount: 1 })).body.data;
  const price = (await biz.test.post(`/v1/products/${p.id}/prices`, { name: "Drop", type: "usage", currency: "USD", amount: 1 })).body.data;
  const del = await biz.test.delete(`/v1/prices/${price.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.text, "");
  expectError(await biz.test.get(`/v1/prices/${price.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.patch(`/v1/prices/${price.id}`, { name: "x" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.delete(`/v1/prices/${price.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.deepEqual(
    (await biz.test.get(`/v1/products/${p.id}/prices`)).body.data.map((x: any) => x.id),
    [keep.id],
  );
  assert.equal((await biz.test.get(`/v1/products/${p.id}`)).status, 200);
  expectError(await biz.test.get(`/v1/prices/${p.id}`), 404, "RESOURCE_NOT_FOUND");
});

test("prices on a product that does not exist are 404", async () => {
  const biz = await seedBusiness("enterprise");
  expectError(
    await biz.test.post("/v1/products/prod_01ZZZZZZZZZZZZZZZZZZZZZZZZ/prices", { name: "x", type: "usage", currency: "USD", amount: 1 }),
    404,
    "RESOURCE_NOT_FOUND",
  );
  expectError(await biz.test.get("/v1/products/nope/prices"), 404, "RESOURCE_NOT_FOUND");
});

test("features: create, list, read, update and delete", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const created = await biz.test.post(`/v1/products/${p.id}/features`, {
    name: "Radar maps",
    description: "Live radar",
    key: "radar_maps",
    value: true,
  });
  assert.equal(created.status, 201);
  const f = created.body.data;
  assert.match(f.id, /^feat_[0-9A-Z]{26}$/);
  assert.equal(f.productId, p.id);
  assert.equal(f.name, "Radar maps");
  assert.equal(f.description, "Live radar");
  assert.equal(f.key, "radar_maps");
  assert.equal(f.value, true);
  assert.equal(f.environment, "test");
  const limit = (await biz.test.post(`/v1/products/${p.id}/features`, { name: "Requests per second", key: "rps", value: 50 })).body.data;
  assert.equal(limit.value, 50);
  const bare = (await biz.test.post(`/v1/products/${p.id}/features`, { name: "Support" })).body.data;
  assert.equal(bare.value, null);
  assert.equal(bare.key, null);
  assert.equal(bare.description, null);

  const list = await biz.test.get(`/v1/products/${p.id}/features`);
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.data.map((x: any) => x.id),
    [bare.id, limit.id, f.id],
  );
  assert.equal(list.body.pagination.total, 3);
  assert.deepEqual(
    (await biz.test.get(`/v1/products/${p.id}/features?q=radar`)).body.data.map((x: any) => x.id),
    [f.id],
  );
  assert.deepEqual(
    (await biz.test.get(`/v1/products/${p.id}/features?key=rps`)).body.data.map((x: any) => x.id),
    [limit.id],
  );

  const read = await biz.test.get(`/v1/features/${f.id}`);
  assert.equal(read.status, 200);
  assert.deepEqual(read.body.data, f);

  const patched = await biz.test.patch(`/v1/features/${limit.id}`, { value: 100, description: "raised" });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.data.value, 100);
  assert.equal(patched.body.data.description, "raised");
  assert.equal(patched.body.data.name, "Requests per second");
  const text = await biz.test.patch(`/v1/features/${limit.id}`, { value: "unlimited" });
  assert.equal(text.body.data.value, "unlimited");
  const cleared = await biz.test.patch(`/v1/features/${limit.id}`, { value: null });
  assert.equal(cleared.status, 200);
  assert.equal(cleared.body.data.value, null);
  assert.equal((await biz.test.get(`/v1/features/${limit.id}`)).body.data.value, null);

  const del = await biz.test.delete(`/v1/features/${f.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.text, "");
  expectError(await biz.test.get(`/v1/features/${f.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.delete(`/v1/features/${f.id}`), 404, "RESOURCE_NOT_FOUND");
  assert.equal((await biz.test.get(`/v1/products/${p.id}/features`)).body.pagination.total, 2);
});

test("invalid features are 400 with the field named", async () => {
  const biz = await seedBusiness("enterprise");
  const p = await productWith(biz.test);
  const post = (body: unknown) => biz.test.post(`/v1/products/${p.id}/features`, body);
  assert.equal(expectError(await post({}), 400, "MISSING_REQUIRED_FIELD").field, "name");
  assert.equal(expectError(await post({ name: 5 }), 400, "INVALID_FIELD").field, "name");
  assert.equal(expectError(await post({ name: "x", key: "Not A Key" }), 400, "INVALID_FIELD").field, "key");
  assert.equal(expectError(await post({ name: "x", value: { nested: true } }), 400, "INVALID_FIELD").field, "value");
  assert.equal(expectError(await post({ name: "x", extra: 1 }), 400, "INVALID_FIELD").field, "extra");
  const f = (await post({ name: "ok" })).body.data;
  assert.equal(expectError(await biz.test.patch(`/v1/features/${f.id}`, { productId: p.id }), 400, "INVALID_FIELD").field, "productId");
  assert.equal((await biz.test.get(`/v1/products/${p.id}/features`)).body.pagination.total, 1);
});
