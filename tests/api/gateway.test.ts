// The gateway against real upstreams on loopback: a JSON echo (live and sandbox), a slow one, one that resets,
// a 100 MB stream and an SSE stream. Developer B calls provider A's product through /gw/{slug}/…: the checks and
// refusals, the signed consumer headers (verified here as docs/gateway.md shows), the plan's limit, the cost,
// streaming both ways, upstream faults, and the calls in both sides' records.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import { BASE_URL, seedBusiness, expectError, type ApiClient } from "../helpers/api";
import { db, poll, sleep } from "../helpers/usage-db";
import { publishApiProduct, subscribe, withinOneWindow } from "../helpers/marketplace";
import { portalUser } from "../helpers/oauth";

const servers: http.Server[] = [];

async function upstream(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let echoLive = "";
let echoSandbox = "";
let slow = "";
let resetting = "";
let big = "";
let sse = "";
let closedPort = "";
const MB = 1024 * 1024;

const echo =
  (name: string): http.RequestListener =>
  (req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "x-upstream": name, connection: "keep-alive" });
      res.end(JSON.stringify({ upstream: name, method: req.method, url: req.url, headers: req.headers, body }));
    });
  };

before(async () => {
  echoLive = await upstream(echo("live"));
  echoSandbox = await upstream(echo("sandbox"));
  slow = await upstream((_req, res) => setTimeout(() => res.end("late"), 2000));
  resetting = await upstream((req) => req.socket.destroy());
  big = await upstream((_req, res) => {
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(100 * MB) });
    const chunk = Buffer.alloc(MB, 7);
    let sent = 0;
    const pump = () => {
      while (sent < 100) {
        sent++;
        if (!res.write(chunk)) return res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  sse = await upstream((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("data: first\n\n");
    setTimeout(() => {
      res.write("data: second\n\n");
      res.end();
    }, 700);
  });
  const closed = await upstream(() => {});
  closedPort = closed;
  await new Promise<void>((r) => servers.pop()!.close(() => r()));
});
after(() => {
  for (const s of servers) s.close();
});

const publish = (api: ApiClient, apiBlock: Record<string, unknown>, price: Record<string, unknown> = {}) =>
  publishApiProduct(api, { api: apiBlock, price });

async function subscribed(priceId: string) {
  const b = await seedBusiness();
  return { b, sub: await subscribe(b.test, priceId) };
}

const gw = (slug: string, path: string, key?: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  fetch(`${BASE_URL}/gw/${slug}${path}`, {
    ...init,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.headers ?? {}) },
  });

/** docs/gateway.md's verification, in a test: HMAC-SHA256 under the secret's bytes, any of the signatures. */
function verifySignature(secret: string, h: Record<string, string>, method: string, pathWithQuery: string): boolean {
  const content = [
    h["x-platform-request-id"],
    h["x-platform-timestamp"],
    method,
    pathWithQuery,
    h["x-platform-consumer"],
    h["x-platform-subscription"],
    h["x-platform-environment"],
  ].join(".");
  const expected = createHmac("sha256", Buffer.from(secret.slice(4), "base64"))
    .update(content)
    .digest("base64");
  return h["x-platform-signature"].split(" ").some((s) => s === `v1,${expected}`);
}

test("B calls A's product: sandbox for test keys, signed consumer headers, secrets added, credentials removed, cost, 429 past the plan", async () => {
  const a = await seedBusiness();
  const { product, price, secret } = await publish(
    a.test,
    { upstreamUrl: `${echoLive}/v1`, sandboxUpstreamUrl: `${echoSandbox}/sandbox`, secretHeaders: { "X-Upstream-Key": "provider-secret" } },
    { rateLimit: { limit: 3, windowSeconds: 60 } },
  );
  assert.match(secret, /^gws_[A-Za-z0-9+/]{43}=$/, "the gateway secret is shown on first publishing");
  const { b, sub } = await subscribed(price.id);

  // Four calls in one of the plan's one-minute windows: the fourth is refused.
  await withinOneWindow(60);
  // Headers the client makes up under the names of the provider's secret and the gateway's own are replaced, not
  // sent beside them.
  const res = await gw(product.slug, "/forecast?city=Oslo", b.testKey, {
    headers: {
      "x-forwarded-for": "203.0.113.9",
      cookie: "c=1",
      "x-upstream-key": "forged-by-client",
      "x-platform-consumer": "biz_forged",
      "x-forwarded-proto": "gopher",
    },
  });
  assert.equal(res.status, 200, await res.clone().text());
  const seen = (await res.json()) as { upstream: string; url: string; headers: Record<string, string> };
  assert.equal(seen.upstream, "sandbox", "a test key goes to the sandbox upstream");
  assert.equal(seen.url, "/sandbox/forecast?city=Oslo");
  assert.equal(seen.headers.authorization, undefined, "the client's key never reaches the upstream");
  assert.equal(seen.headers["x-upstream-key"], "provider-secret");
  assert.equal(seen.headers["x-platform-consumer"], b.businessId);
  assert.equal(seen.headers["x-platform-subscription"], sub.id);
  assert.equal(seen.headers["x-platform-plan"], price.id);
  assert.equal(seen.headers["x-platform-environment"], "test");
  assert.equal(seen.headers["x-forwarded-proto"], "http");
  assert.match(seen.headers["x-platform-key-id"], /^key_/);
  assert.equal(seen.headers["x-platform-request-id"], res.headers.get("x-request-id"));
  assert.ok(Math.abs(Number(seen.headers["x-platform-timestamp"]) - Date.now() / 1000) < 30);
  assert.ok(
    verifySignature(secret, seen.headers, "GET", "/sandbox/forecast?city=Oslo"),
    "the signature verifies with the product's secret",
  );
  assert.ok(!verifySignature(secret, { ...seen.headers, "x-platform-consumer": "biz_other" }, "GET", "/sandbox/forecast?city=Oslo"));
  assert.match(seen.headers["x-forwarded-for"], /^203\.0\.113\.9, /);
  assert.equal(seen.headers["x-forwarded-proto"], "http");
  assert.ok(seen.headers["x-forwarded-host"]);
  assert.equal(res.headers.get("x-request-cost"), "0.01 USD");
  assert.equal(res.headers.get("x-upstream"), "sandbox", "the upstream's own headers come back");
  assert.match(res.headers.get("server-timing") ?? "", /gateway;dur=[\d.]+, upstream;dur=[\d.]+/);
  assert.equal(res.headers.get("ratelimit-policy"), '"plan";q=3;w=60');

  // X-API-Key works too; the plan allows three calls a minute.
  const second = await gw(product.slug, "/x", undefined, { headers: { "x-api-key": b.testKey } });
  assert.equal(second.status, 200);
  await second.arrayBuffer();
  assert.equal((await gw(product.slug, "/x", b.testKey)).status, 200);
  const limited = await gw(product.slug, "/x", b.testKey);
  assert.equal(limited.status, 429);
  const err = (await limited.json()) as { error: { code: string; retryAfter: number } };
  assert.equal(err.error.code, "RATE_LIMIT_EXCEEDED");
  assert.ok(Number(limited.headers.get("retry-after")) >= 1);
  assert.match(limited.headers.get("ratelimit") ?? "", /^"plan";r=0;t=\d+$/);

  // Both sides' records: B's usage events carry the product and subscription; A sees the customer's calls.
  const events = (await poll(async () => {
    const rows = await db.usageEvent.findMany({ where: { businessId: b.businessId, productId: product.id } });
    return rows.length >= 4 ? rows : null;
  }))!;
  assert.deepEqual(events.map((e) => e.statusCode).sort(), [200, 200, 200, 429]);
  assert.ok(events.every((e) => e.subscriptionId === sub.id && e.providerId === a.businessId && e.endpoint === `/gw/${product.slug}`));
  assert.equal(events.find((e) => e.statusCode === 429)!.cost, null, "a refused call is recorded, not rated");
  const usage = await a.test.get(`/v1/customers/${b.businessId}/usage`);
  assert.equal(usage.body.data.products[0].calls, 4);
  assert.equal(usage.body.data.products[0].errors, 1);
  const stats = (await a.test.get(`/v1/products/${product.id}/call-stats`)).body.data;
  assert.deepEqual([stats.calls, stats.errors, stats.serverErrors], [4, 1, 0]);
  assert.deepEqual(
    stats.topConsumers.map((c: { businessId: string; calls: number }) => [c.businessId, c.calls]),
    [[b.businessId, 4]],
  );
  assert.ok(stats.latencyMs.p50 > 0 && stats.latencyMs.p99 >= stats.latencyMs.p50);
  assert.equal(stats.circuit.state, "closed");
  expectError(await b.test.get(`/v1/products/${product.id}/call-stats`), 404, "RESOURCE_NOT_FOUND");
  const invoice = await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`);
  assert.equal(invoice.body.data.lines[0].quantity, 3, "three calls on B's invoice");
  const log = await poll(async () => {
    const r = await b.test.get(`/v1/logs?limit=5`);
    return r.body.data.find((l: { path: string }) => l.path.startsWith(`/gw/${product.slug}/forecast`)) ?? null;
  });
  assert.ok(!JSON.stringify(log).includes(b.testKey), "the consumer's log never holds its key");
});

/** A request sent with its target exactly as written (fetch would resolve dot segments first, as a browser does). */
function rawGet(path: string, key: string): Promise<{ status: number; body: string }> {
  const base = new URL(BASE_URL);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: base.hostname, port: base.port, path, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject).end();
  });
}

test("the path after the slug stays a path under the product's upstream: never another host, never above its prefix", async () => {
  let strayCalls = 0;
  const stray = await upstream((_req, res) => {
    strayCalls++;
    res.end("{}");
  });
  const strayHost = new URL(stray).host;
  const a = await seedBusiness();
  // The sandbox upstream has no path prefix (where "//host" would be taken for an authority), the live one has one.
  const { product, price, secret } = await publish(a.test, { upstreamUrl: `${echoLive}/v1`, sandboxUpstreamUrl: echoSandbox });
  const { b } = await subscribed(price.id);
  for (const [path, expected] of [
    [`//${strayHost}/steal?x=1`, `//${strayHost}/steal?x=1`],
    [`///${strayHost}/steal`, `///${strayHost}/steal`],
    [`/\\${strayHost}/steal`, `//${strayHost}/steal`],
    ["/a/../b?c=1", "/b?c=1"],
    ["/../../etc/passwd", "/etc/passwd"],
    ["/%2e%2e/%2E%2E/admin", "/admin"],
  ]) {
    const res = await rawGet(`/gw/${product.slug}${path}`, b.testKey);
    assert.equal(res.status, 200, `${path}: ${res.body}`);
    const seen = JSON.parse(res.body) as { upstream: string; url: string; headers: Record<string, string> };
    assert.equal(seen.upstream, "sandbox", path);
    assert.equal(seen.url, expected, path);
    assert.ok(verifySignature(secret, seen.headers, "GET", seen.url), `${path}: the signed path is the one sent`);
  }
  assert.equal(strayCalls, 0, "no call reached another host, with the provider's secret headers and signature");

  // An upstream with a path prefix: the dot segments are resolved within the caller's path, under the prefix.
  const prefixed = await publish(a.test, { upstreamUrl: `${echoLive}/v1`, sandboxUpstreamUrl: `${echoSandbox}/sandbox` });
  const c = await subscribed(prefixed.price.id);
  for (const [path, expected] of [
    ["/../../admin", "/sandbox/admin"],
    ["/x/%2e%2e/%2e%2e/admin?q=1", "/sandbox/admin?q=1"],
    [`//${strayHost}/steal`, `/sandbox//${strayHost}/steal`],
  ]) {
    const res = await rawGet(`/gw/${prefixed.product.slug}${path}`, c.b.testKey);
    assert.equal(res.status, 200, `${path}: ${res.body}`);
    assert.equal((JSON.parse(res.body) as { url: string }).url, expected, path);
  }
  assert.equal(strayCalls, 0);
});

test("the platform's cookies never reach a provider, and a provider's answer never sets them", async () => {
  // A browser signed in to the portal sends its session with a call made from the page (the product portal's
  // "try it" calls /gw/{slug}/… on this origin): the real cookies of a real sign-in.
  const user = await portalUser();
  assert.match(user.cookie, /next-auth\.session-token=/);
  const setter = await upstream((req, res) => {
    res.setHeader("set-cookie", [
      "next-auth.session-token=chosen-by-provider; Path=/; HttpOnly",
      "__Secure-next-auth.session-token=chosen; Path=/; Secure",
      "portal_business=biz_provider; Path=/",
      "theme=light; Path=/",
    ]);
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ cookie: req.headers.cookie ?? null }));
  });
  const a = await seedBusiness();
  const { product, price } = await publish(a.test, { upstreamUrl: setter });
  const { b } = await subscribed(price.id);
  const res = await gw(product.slug, "/me", b.testKey, {
    headers: { cookie: `${user.cookie}; theme=dark; portal_env=production; __Host-next-auth.csrf-token=x` },
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.deepEqual(await res.json(), { cookie: "theme=dark" }, "only the provider's own cookies go up");
  assert.deepEqual(res.headers.getSetCookie(), ["theme=light; Path=/"], "only the provider's own cookies come back");

  // Nothing but platform cookies: no Cookie header at all.
  const bare = await gw(product.slug, "/me", b.testKey, { headers: { cookie: user.cookie } });
  assert.deepEqual(await bare.json(), { cookie: null });
});

test("refusals: no key, unknown product, not subscribed, key limited to another product, canceled subscription", async () => {
  const a = await seedBusiness();
  const { product, price } = await publish(a.test, { upstreamUrl: echoLive });
  const other = await publish(a.test, { upstreamUrl: echoLive });
  const { b, sub } = await subscribed(price.id);

  const anonymous = await gw(product.slug, "/x");
  assert.equal(anonymous.status, 401);
  assert.equal(((await anonymous.json()) as { error: { code: string } }).error.code, "INVALID_API_KEY");
  const unknown = await gw("no-such-product-here", "/x", b.testKey);
  assert.equal(unknown.status, 404);
  assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, "RESOURCE_NOT_FOUND");
  const notSubscribed = await gw(other.product.slug, "/x", b.testKey);
  assert.equal(notSubscribed.status, 403);
  assert.equal(((await notSubscribed.json()) as { error: { code: string } }).error.code, "PRODUCT_NOT_SUBSCRIBED");

  const narrow = (await b.test.post("/v1/api-keys", { name: "other only", scopes: [`call:${other.product.id}`] })).body.data.key;
  const limitedKey = await gw(product.slug, "/x", narrow);
  assert.equal(limitedKey.status, 403, "a key limited to other products is refused");
  await limitedKey.arrayBuffer();

  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/cancel`, {})).status, 200);
  const canceled = await gw(product.slug, "/x", b.testKey);
  assert.equal(canceled.status, 403);
  assert.equal(((await canceled.json()) as { error: { code: string } }).error.code, "SUBSCRIPTION_INACTIVE");

  // A private product is not served, whoever calls.
  await a.test.patch(`/v1/products/${product.id}`, { visibility: "private" });
  const hidden = await gw(product.slug, "/x", a.testKey);
  assert.equal(hidden.status, 404);
  await hidden.arrayBuffer();
});

test("upstream faults: refused 502, reset 502, no answer within timeoutMs 504; the server goes on", async () => {
  const a = await seedBusiness();
  for (const [base, status, code, timeoutMs] of [
    [closedPort, 502, "UPSTREAM_UNAVAILABLE", 30_000],
    [resetting, 502, "UPSTREAM_UNAVAILABLE", 30_000],
    [slow, 504, "UPSTREAM_TIMEOUT", 300],
  ] as const) {
    const { product, price } = await publish(a.test, { upstreamUrl: base, timeoutMs });
    const { b } = await subscribed(price.id);
    const res = await gw(product.slug, "/x", b.testKey);
    assert.equal(res.status, status, base);
    const body = (await res.json()) as { error: { code: string } };
    assert.equal(body.error.code, code);
    assert.equal(res.headers.get("x-request-cost"), null, "a failed call is not billed by default");
  }
  assert.equal((await fetch(`${BASE_URL}/api/health`)).status, 200);
});

test("streaming: a 100 MB answer passes without being buffered; a request body is streamed up; SSE events arrive as sent", async () => {
  const a = await seedBusiness();
  const bigProduct = await publish(a.test, { upstreamUrl: big });
  const { b: bigConsumer } = await subscribed(bigProduct.price.id);
  const res = await gw(bigProduct.product.slug, "/file", bigConsumer.testKey);
  assert.equal(res.status, 200);
  let received = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) received += chunk.byteLength;
  assert.equal(received, 100 * MB);

  const echoProduct = await publish(a.test, { upstreamUrl: echoLive });
  const { b } = await subscribed(echoProduct.price.id);
  const payload = JSON.stringify({ hello: "world", pad: "x".repeat(200_000) });
  const posted = await gw(echoProduct.product.slug, "/items", b.testKey, {
    method: "POST",
    body: payload,
    headers: { "content-type": "application/json" },
  });
  const seen = (await posted.json()) as { method: string; body: string };
  assert.equal(seen.method, "POST");
  assert.equal(seen.body, payload);

  const sseProduct = await publish(a.test, { upstreamUrl: sse });
  const { b: listener } = await subscribed(sseProduct.price.id);
  const stream = await gw(sseProduct.product.slug, "/events", listener.testKey);
  assert.equal(stream.headers.get("content-type"), "text/event-stream");
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const started = Date.now();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /data: first/);
  assert.ok(Date.now() - started < 600, "the first event arrived before the upstream sent the second");
  let rest = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    rest += new TextDecoder().decode(value);
  }
  assert.match(rest, /data: second/);
});

test("a client that goes away mid-answer releases the upstream's connection; a streamed request body is metered by its size", async () => {
  let upstreamClosed = false;
  const endless = await upstream((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    const tick = setInterval(() => res.write("tick\n"), 20);
    res.on("close", () => {
      clearInterval(tick);
      upstreamClosed = true;
    });
  });
  const a = await seedBusiness();
  const endlessProduct = await publish(a.test, { upstreamUrl: endless });
  const { b } = await subscribed(endlessProduct.price.id);
  const abort = new AbortController();
  const res = await gw(endlessProduct.product.slug, "/ticks", b.testKey, { signal: abort.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  assert.match(new TextDecoder().decode((await reader.read()).value), /tick/);
  abort.abort();
  assert.equal(await poll(async () => upstreamClosed || null, 3_000), true, "the upstream saw its connection closed");

  // Clients that give up before the upstream answers are not the upstream's failures: the circuit stays closed.
  const slowProduct = await publish(a.test, { upstreamUrl: slow });
  const { b: impatient } = await subscribed(slowProduct.price.id);
  for (let i = 0; i < 6; i++) {
    await assert.rejects(gw(slowProduct.product.slug, "/wait", impatient.testKey, { signal: AbortSignal.timeout(100) }));
  }
  // Every one of them has been seen to its end (recorded) before the circuit is read.
  const recorded = await poll(
    // By product: the subscription's own /v1 call is a usage event of this business too.
    async () =>
      (await db.usageEvent.count({ where: { businessId: impatient.businessId, productId: slowProduct.product.id } })) >= 6 ? true : null,
    5_000,
  );
  assert.equal(recorded, true, "the six abandoned calls were recorded");
  const stats = (await a.test.get(`/v1/products/${slowProduct.product.id}/call-stats`)).body.data;
  assert.equal(stats.circuit.state, "closed");

  const echoProduct = await publish(a.test, { upstreamUrl: echoLive });
  const { b: poster } = await subscribed(echoProduct.price.id);
  const payload = "y".repeat(300_000);
  const posted = await gw(echoProduct.product.slug, "/upload", poster.testKey, { method: "POST", body: payload });
  assert.equal(((await posted.json()) as { body: string }).body.length, payload.length);
  const event = await poll(() =>
    db.usageEvent.findFirst({ where: { businessId: poster.businessId, productId: echoProduct.product.id, method: "POST" } }),
  );
  assert.equal(event!.requestSize, payload.length);
});

test("rotating the gateway secret: the old one signs beside the new for 24 h", async () => {
  const a = await seedBusiness();
  const { product, price, secret } = await publish(a.test, { upstreamUrl: echoLive });
  const rotated = await a.test.post(`/v1/products/${product.id}/gateway-secret/rotate`);
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = rotated.body.data.gatewaySecret as string;
  assert.notEqual(fresh, secret);
  assert.ok(Date.parse(rotated.body.data.previousSecretExpiresAt) > Date.now() + 23 * 3_600_000);
  const { b } = await subscribed(price.id);
  const seen = (await (await gw(product.slug, "/x", b.testKey)).json()) as { headers: Record<string, string> };
  assert.equal(seen.headers["x-platform-signature"].split(" ").length, 2);
  assert.ok(verifySignature(fresh, seen.headers, "GET", "/x"));
  assert.ok(verifySignature(secret, seen.headers, "GET", "/x"));
  const row = await db.product.findUniqueOrThrow({ where: { id: product.id } });
  assert.ok(!row.gatewaySecret!.includes(fresh.slice(4, 20)), "stored sealed");
  await sleep(0);
});

test("WebSocket: an Upgrade is tunnelled to the upstream after the same checks; a refused one gets the envelope", async () => {
  const wsServer = http.createServer();
  wsServer.on("upgrade", (req, socket) => {
    socket.write(
      "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        `X-Seen-Consumer: ${req.headers["x-platform-consumer"]}\r\nX-Seen-Auth: ${req.headers.authorization ?? "none"}\r\n\r\n`,
    );
    socket.on("data", (d) => socket.write(`pong:${d}`));
  });
  servers.push(wsServer);
  await new Promise<void>((r) => wsServer.listen(0, "127.0.0.1", r));
  const wsUrl = `http://127.0.0.1:${(wsServer.address() as AddressInfo).port}`;
  const a = await seedBusiness();
  const { product, price } = await publish(a.test, { upstreamUrl: wsUrl });
  const { b } = await subscribed(price.id);
  const open = (key?: string) =>
    new Promise<{
      upgraded: boolean;
      status: number;
      headers: http.IncomingHttpHeaders;
      socket?: import("node:net").Socket;
      body?: string;
    }>((resolve, reject) => {
      const req = http.request(`${BASE_URL}/gw/${product.slug}/live`, {
        headers: { connection: "Upgrade", upgrade: "websocket", ...(key ? { authorization: `Bearer ${key}` } : {}) },
      });
      req.on("upgrade", (res, socket) => resolve({ upgraded: true, status: res.statusCode!, headers: res.headers, socket }));
      req.on("response", (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ upgraded: false, status: res.statusCode!, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  const ok = await open(b.testKey);
  assert.equal(ok.upgraded, true);
  assert.equal(ok.headers["x-seen-consumer"], b.businessId, "the upstream knows who is calling");
  assert.equal(ok.headers["x-seen-auth"], "none", "and never sees the key");
  const reply = await new Promise<string>((resolve) => {
    ok.socket!.once("data", (d) => resolve(String(d)));
    ok.socket!.write("ping");
  });
  assert.equal(reply, "pong:ping");
  ok.socket!.destroy();

  const refused = await open();
  assert.equal(refused.upgraded, false);
  assert.equal(refused.status, 401);
  assert.equal(JSON.parse(refused.body!).error.code, "INVALID_API_KEY");
});
