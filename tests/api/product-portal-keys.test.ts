// Keys of a product's developer portal (lib/keys/product-keys.ts): the docs' try-it key is a one-hour TEST key whose
// scopes are exactly `call:<productId>`, hidden from every key list, and it reaches the product's upstream through
// the gateway; a portal key is limited to the product; the keys page lists the keys that may call the product only.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { AuthContext } from "@/lib/http/auth-context";
import { createProductKey, issueProductTryItKey, listProductKeys, mayCallProduct } from "@/lib/keys/product-keys";
import { currentSubscriptionTo } from "@/lib/billing/current-subscription";
import { productCallsByKey } from "@/lib/usage/metrics";
import { TRY_IT_METADATA } from "@/lib/keys/try-it-key";
import { BASE_URL, createProduct, seedBusiness, type ApiClient } from "../helpers/api";
import { db, poll } from "../helpers/usage-db";

const CARD = { card: { number: "4242424242424242", expMonth: 12, expYear: 2030, cvc: "123" } };
const seen: string[] = [];
let upstream: http.Server;
let upstreamUrl = "";

before(async () => {
  upstream = http.createServer((req, res) => {
    seen.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"tide":"high"}');
  });
  await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
after(() => upstream.close());

async function publish(api: ApiClient) {
  const product = await createProduct(api, { name: `Tides ${Date.now().toString(36)}`, type: "API", api: { upstreamUrl } });
  const price = await api.post(`/v1/products/${product.id}/prices`, { name: "Basic", type: "usage", currency: "USD", amount: 0.01 });
  assert.equal(price.status, 201, price.text);
  const published = await api.patch(`/v1/products/${product.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  return { product: published.body.data as { id: string; slug: string; name: string }, priceId: price.body.data.id as string };
}

/** The portal's caller: the signed-in owner of `biz`, looking at `environment`. */
function portalCaller(biz: { businessId: string; projectId: string }, environment: "test" | "production") {
  const auth: AuthContext = {
    principal: { kind: "portal_user", id: `usr_test${biz.businessId.slice(-8)}` },
    businessId: biz.businessId,
    projectId: biz.projectId,
    environment,
    scopes: ["*"],
    plan: "enterprise",
    rateLimit: null,
    restrictions: null,
  };
  return { auth, ip: "127.0.0.1", userAgent: "product-portal-keys.test", actorType: "user" as const };
}

test("the docs' try-it key: test only, call:<productId> only, one hour, in no list, and it reaches the upstream", async () => {
  const a = await seedBusiness();
  const { product, priceId } = await publish(a.test);
  const b = await seedBusiness();
  const sub = await b.test.post("/v1/subscriptions", { priceId, paymentMethod: CARD });
  assert.equal(sub.status, 201, sub.text);

  // Asked while the visitor looks at live data: still a test key.
  const caller = portalCaller(b, "production");
  assert.equal(await currentSubscriptionTo(caller.auth, product.id), null, "no live subscription");
  assert.equal((await currentSubscriptionTo({ ...caller.auth, environment: "test" }, product.id))?.priceName, "Basic");
  const before = Date.now();
  const made = await issueProductTryItKey(caller, product.id, product.name);
  assert.match(made.key, /^sk_test_/);
  assert.deepEqual(made.scopes, [`call:${product.id}`]);
  const row = (await db.apiKey.findUnique({ where: { id: made.id } }))!;
  assert.equal(row.environment, "test");
  assert.deepEqual(row.scopes, [`call:${product.id}`]);
  assert.deepEqual(row.metadata, TRY_IT_METADATA);
  const ttl = row.expiresAt!.getTime() - before;
  assert.ok(ttl > 55 * 60_000 && ttl <= 61 * 60_000, `expires in about an hour (${ttl} ms)`);

  // In no key list: neither GET /v1/api-keys nor the portal's product keys.
  const listed = await b.test.get("/v1/api-keys?limit=100");
  assert.equal(listed.status, 200);
  assert.ok(!listed.body.data.some((k: { id: string }) => k.id === made.id));
  assert.ok(!(await listProductKeys({ ...caller.auth, environment: "test" }, product.id)).some((k) => k.id === made.id));

  // Through the gateway to the upstream; nothing else of the account.
  const called = await fetch(`${BASE_URL}/gw/${product.slug}/tides?port=Oslo`, { headers: { authorization: `Bearer ${made.key}` } });
  assert.equal(called.status, 200, await called.clone().text());
  assert.deepEqual(await called.json(), { tide: "high" });
  assert.ok(seen.includes("/tides?port=Oslo"));
  const other = await fetch(`${BASE_URL}/v1/products`, { headers: { authorization: `Bearer ${made.key}` } });
  assert.equal(other.status, 403);

  // The call is counted for this key and product.
  const counts = await poll(async () => {
    const c = await productCallsByKey({ ...caller.auth, environment: "test" }, product.id, 30);
    return c[made.id] ? c : null;
  }, 15_000);
  assert.equal(counts![made.id], 1);
});

test("a portal key is limited to the product; the keys page lists the keys that may call it", async () => {
  const a = await seedBusiness();
  const { product, priceId } = await publish(a.test);
  const other = await publish(a.test);
  const b = await seedBusiness();
  assert.equal((await b.test.post("/v1/subscriptions", { priceId, paymentMethod: CARD })).status, 201);
  const caller = portalCaller(b, "test");

  const key = await createProductKey(caller, product.id, { name: "Harbour app", expiresInDays: 30 });
  assert.deepEqual(key.scopes, [`call:${product.id}`]);
  assert.equal(key.environment, "test");
  assert.ok(key.expiresAt && Date.parse(key.expiresAt) > Date.now() + 29 * 86_400_000);
  await assert.rejects(createProductKey(caller, product.id, { name: " " }), (e: Error) => e.name === "ZodError" && /name/.test(e.message));

  const reader = await b.test.post("/v1/api-keys", { name: "Reader", scopes: ["products:read"] });
  const elsewhere = await b.test.post("/v1/api-keys", { name: "Other product", scopes: [`call:${other.product.id}`] });
  const ids = (await listProductKeys(caller.auth, product.id)).map((k) => k.name);
  assert.ok(ids.includes("Harbour app"), "the product key");
  assert.ok(!ids.includes("Reader"), "a key without call scopes");
  assert.ok(!ids.includes("Other product"), "a key limited to another product");
  assert.ok(ids.length >= 2, "the unrestricted test key of the business is listed too");
  assert.equal(reader.status, 201);
  assert.equal(elsewhere.status, 201);

  assert.equal(mayCallProduct(["*"], product.id), true);
  assert.equal(mayCallProduct(["call:*"], product.id), true);
  assert.equal(mayCallProduct([`call:${other.product.id}`, "products:*"], product.id), false);
});
