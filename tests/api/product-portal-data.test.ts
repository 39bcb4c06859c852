// A product portal's data: the request log and the usage rollups carry the product a gateway call was for, so a
// product's portal (/p/{slug}) lists and charts that product's calls only. Consumer B calls two products of
// provider A through the gateway, and a /v1 route; each product's view holds its own calls and never another's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthContext } from "@/lib/http/auth-context";
import { usageMetrics } from "@/lib/usage/metrics";
import { searchLogs } from "@/lib/usage/log-search";
import { getLogDetail } from "@/lib/usage/log-detail";
import { productSubscriptions, productUsageOverview, keysThatMayCall } from "@/lib/billing/product-usage";
import { ApiError } from "@/lib/http/errors";
import { db, poll } from "../helpers/usage-db";
import { BASE_URL, seedBusiness, createProduct, type ApiClient } from "../helpers/api";

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };
let upstreamUrl = "";
let server: http.Server;

before(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

async function publish(api: ApiClient, name: string, price: Record<string, unknown> = {}) {
  const product = await createProduct(api, {
    name: `${name} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`,
    type: "API",
    api: { upstreamUrl, sandboxUpstreamUrl: upstreamUrl },
  });
  const p = await api.post(`/v1/products/${product.id}/prices`, { name: "Basic", type: "usage", currency: "USD", amount: 0.01, ...price });
  assert.equal(p.status, 201, p.text);
  const published = await api.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  return { product: published.body.data as { id: string; slug: string }, price: p.body.data as { id: string } };
}

const gw = (slug: string, path: string, key: string) =>
  fetch(`${BASE_URL}/gw/${slug}${path}`, { headers: { authorization: `Bearer ${key}` } });

function authOf(b: { businessId: string; projectId: string }): AuthContext {
  return {
    principal: { kind: "portal_user", id: "usr_test" },
    businessId: b.businessId,
    projectId: b.projectId,
    environment: "test",
    scopes: ["*"],
    plan: "enterprise",
    rateLimit: null,
    restrictions: null,
  } as AuthContext;
}

test("logs and usage of one product never show another product's calls or /v1 calls", async () => {
  const a = await seedBusiness();
  const one = await publish(a.test, "Portal one", { rateLimit: { limit: 100, windowSeconds: 60 }, monthlyQuota: 500 });
  const two = await publish(a.test, "Portal two");
  const b = await seedBusiness();
  for (const p of [one, two]) {
    const res = await b.test.post("/v1/subscriptions", { priceId: p.price.id, paymentMethod: CARD });
    assert.equal(res.status, 201, res.text);
  }
  for (const path of ["/a", "/b", "/c"]) assert.equal((await gw(one.product.slug, path, b.testKey)).status, 200);
  assert.equal((await gw(two.product.slug, "/other", b.testKey)).status, 200);
  assert.equal((await b.test.get("/v1/products")).status, 200);

  const project = { businessId: b.businessId, projectId: b.projectId };
  // The two subscription calls are logged too, so a count alone could be met before the
  // GET /v1/products log is written: wait for the four gateway calls and that one by path.
  const logged = (path: { startsWith: string }) => db.requestLog.count({ where: { projectId: project.projectId, path } });
  assert.ok(
    await poll(async () => (await logged({ startsWith: "/gw/" })) >= 4 && (await logged({ startsWith: "/v1/products" })) >= 1, 10_000),
    "the five calls' request logs are written",
  );
  // Each product's rollups (they may reach the table in different flushes).
  const rolledUp = async (productId: string) =>
    (await db.usageRollup.aggregate({ where: { projectId: project.projectId, productId }, _sum: { count: true } }))._sum.count ?? 0;
  assert.ok(
    await poll(async () => (await rolledUp(one.product.id)) >= 3 && (await rolledUp(two.product.id)) >= 1, 10_000),
    "both products' rollups are written",
  );

  // The API's log filter: GET /v1/logs?productId=…, each log naming its product.
  const ofOne = await b.test.get(`/v1/logs?productId=${one.product.id}&limit=100`);
  assert.equal(ofOne.status, 200, ofOne.text);
  assert.deepEqual((ofOne.body.data as { path: string; productId: string }[]).map((l) => [l.productId, l.path]).sort(), [
    [one.product.id, `/gw/${one.product.slug}/a`],
    [one.product.id, `/gw/${one.product.slug}/b`],
    [one.product.id, `/gw/${one.product.slug}/c`],
  ]);
  const all = await b.test.get("/v1/logs?limit=100");
  const v1Call = (all.body.data as { path: string; productId: string | null }[]).find((l) => l.path.startsWith("/v1/products"));
  assert.equal(v1Call?.productId, null, "a /v1 call has no product");

  // The portal's log search and drawer, scoped to product one.
  const auth = authOf(project);
  const page = await searchLogs(auth, new URLSearchParams(), { productIds: [one.product.id], days: 30 });
  assert.equal(page.data.length, 3);
  assert.ok(page.data.every((l) => l.path.startsWith(`/gw/${one.product.slug}/`)));
  const otherLog = (all.body.data as { id: string; productId: string | null }[]).find((l) => l.productId === two.product.id)!;
  await assert.rejects(
    getLogDetail(auth, otherLog.id, { productIds: [one.product.id] }),
    (e: unknown) => e instanceof ApiError && e.status === 404,
    "another product's call is not found through this product's portal",
  );
  const detail = await getLogDetail(auth, page.data[0].id, { productIds: [one.product.id], days: 30 });
  assert.match(detail.response.headers["server-timing"] ?? "", /gateway;dur=[0-9.]+, upstream;dur=[0-9.]+/, "the timing split is kept");

  // Usage metrics from the rollups, by product; the project's total holds every call.
  const m1 = await usageMetrics(auth, "day", { productIds: [one.product.id] });
  const m2 = await usageMetrics(auth, "day", { productIds: [two.product.id] });
  const whole = await usageMetrics(auth, "day");
  assert.equal(m1.totalRequests, 3);
  assert.equal(m2.totalRequests, 1);
  assert.ok(whole.totalRequests >= 5, `the project's metrics count every call (${whole.totalRequests})`);
  assert.deepEqual(Object.keys(m1.requestsByEndpoint), [`GET /gw/${one.product.slug}`]);

  // The plan's quota and rate limit, with the period's use, for the portal's usage view.
  const [sub] = await productSubscriptions(auth, [one.product.id]);
  assert.equal(sub.productId, one.product.id);
  assert.equal(sub.monthlyQuota, 500);
  assert.deepEqual(sub.rateLimit, { limit: 100, windowSeconds: 60 });
  assert.equal(sub.periodUsed, 3);
  const overview = await productUsageOverview(auth, "day", [one.product.id]);
  assert.equal(overview.totalRequests, 3);
  assert.equal(overview.quota.limit, 500);
  assert.equal(overview.quota.used, 3);
  assert.equal(overview.quota.month.at(-1)?.used, 3);

  // The bootstrap test key is full access: it may call the product (the live key is of the other environment).
  assert.equal(await keysThatMayCall(auth, [one.product.id]), 1);
});

test("a visitor with no subscription to the product gets a 404 for its usage, in words", async () => {
  const a = await seedBusiness();
  const { product } = await publish(a.test, "Unsubscribed");
  const b = await seedBusiness();
  await assert.rejects(
    productUsageOverview(authOf(b), "day", [product.id]),
    (e: unknown) => e instanceof ApiError && e.status === 404 && /no current subscription/.test(e.message),
  );
});
