// Products on hosts of their own: with GATEWAY_HOST_SUFFIX and APP_HOST_SUFFIX set, {slug}.{gateway suffix} is the
// product's gateway and {slug}.{app suffix} its developer portal, on the same server (scripts/lib/host-routing.mjs).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { client, seedBusiness } from "../helpers/api";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";

let server: ServerWithLogs;
let upstream: JsonUpstream;
let upstreamUrl = "";
const seen: { url: string; host: string }[] = [];

before(async () => {
  upstream = await startJsonUpstream((req) => seen.push({ url: req.url ?? "", host: String(req.headers["x-forwarded-host"] ?? "") }));
  upstreamUrl = upstream.url;
  server = await startSecondServer({ ALLOW_PRIVATE_URLS: "true", GATEWAY_HOST_SUFFIX: "gw.localhost", APP_HOST_SUFFIX: "apps.localhost" });
});
after(async () => {
  await server?.stop();
  upstream?.close();
});

/** A request to the server's address with a Host of our choosing (what DNS for *.gw.example.com would lead to). */
function get(host: string, path: string, headers: Record<string, string> = {}) {
  const { port } = new URL(server.url);
  return new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers: { ...headers, host: `${host}:${port}` } }, (res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

test("{slug}.{GATEWAY_HOST_SUFFIX} is the product's gateway; {slug}.{APP_HOST_SUFFIX} is its portal", async () => {
  const provider = await seedBusiness();
  const { product, slug, price } = await publishApiProduct(client(provider.testKey, server.url), {
    upstreamUrl,
    name: `Hosted ${Math.random().toString(36).slice(2, 8)}`,
  });
  const consumer = await seedBusiness();
  await subscribe(client(consumer.testKey, server.url), price.id);

  const call = await get(`${slug}.gw.localhost`, "/tides/today?tz=utc", { authorization: `Bearer ${consumer.testKey}` });
  assert.equal(call.status, 200, call.body);
  assert.deepEqual(JSON.parse(call.body), { path: "/tides/today?tz=utc" });
  assert.match(String(call.headers["x-request-cost"]), /USD$/);
  assert.equal(seen.at(-1)?.host, `${slug}.gw.localhost:${new URL(server.url).port}`, "the upstream is told the host the client used");
  // Refusals answer in the envelope there too; another slug is another product (unknown here).
  const refused = await get(`${slug}.gw.localhost`, "/x");
  assert.equal(refused.status, 401);
  assert.equal(JSON.parse(refused.body).error.code, "INVALID_API_KEY");
  assert.equal((await get(`nope-${slug}.gw.localhost`, "/x", { authorization: `Bearer ${consumer.testKey}` })).status, 404);

  const portal = await get(`${slug}.apps.localhost`, "/");
  assert.equal(portal.status, 200);
  assert.match(portal.body, new RegExp(`data-product-portal="${slug}"`));
  assert.match(portal.body, new RegExp(product.name));
  const docs = await get(`${slug}.apps.localhost`, "/docs");
  assert.equal(docs.status, 200);
  assert.match(docs.body, /data-product-portal/);
  // The API itself is not moved by an app host.
  const v1 = await get(`${slug}.apps.localhost`, "/v1/products", { authorization: `Bearer ${provider.testKey}` });
  assert.equal(v1.status, 200);
});
