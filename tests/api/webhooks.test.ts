// Webhook endpoints through the public API: create (the secret shown once), read, list, update, delete,
// rotate-secret, event names and patterns, custom headers, the URL rules (a second server without
// ALLOW_PRIVATE_URLS shows the SSRF refusals; link-local and metadata addresses are refused by both), tenancy and scopes.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { EVENT_TYPES } from "@/lib/events/event-types";
import { seedBusiness, client, expectError } from "../helpers/api";
import { startServer, type TestServer } from "../helpers/server";
import { createEndpoint } from "../helpers/receiver";

// Nothing listens here; no test below makes an event these endpoints subscribe to reach it, except where noted.
const URL_A = "http://127.0.0.1:9/hooks/a";

let strict: TestServer | undefined;

before(async () => {
  // Private targets refused, as in production. Its worker stays off: it shares the suite's database and would
  // otherwise refuse (and record as failed) other tests' deliveries to their 127.0.0.1 receivers.
  strict = await startServer({
    DATABASE_URL: process.env.DATABASE_URL!,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET!,
    ALLOW_PRIVATE_URLS: "false",
    WEBHOOK_WORKER: "false",
  });
});

after(async () => {
  await strict?.stop();
});

test("POST /v1/webhooks answers 201 with the full secret once; later reads show only its last four characters", async () => {
  const biz = await seedBusiness();
  const res = await biz.test.post("/v1/webhooks", {
    url: URL_A,
    events: ["product.created"],
    description: "Orders",
    headers: { "X-Team": "billing" },
    metadata: { owner: "ops" },
  });
  assert.equal(res.status, 201, res.text);
  const w = res.body.data;
  assert.match(w.id, /^wh_[0-9A-Z]{26}$/);
  assert.equal(w.url, URL_A);
  assert.deepEqual(w.events, ["product.created"]);
  assert.equal(w.description, "Orders");
  assert.equal(w.isActive, true);
  assert.equal(w.active, true);
  assert.deepEqual(w.headers, { "X-Team": "billing" });
  assert.deepEqual(w.metadata, { owner: "ops" });
  assert.equal(w.environment, "test");
  assert.equal(w.disabledReason, null);
  assert.match(w.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(w.secret.slice(6), "base64").length, 32);

  const read = await biz.test.get(`/v1/webhooks/${w.id}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.data.secret, `whsec_…${w.secret.slice(-4)}`);
  assert.ok(!read.text.includes(w.secret.slice(6, 30)), "a read must not carry the secret");
  const { secret: _s1, ...restCreated } = w;
  const { secret: _s2, ...restRead } = read.body.data;
  assert.deepEqual(restRead, restCreated);

  const list = await biz.test.get("/v1/webhooks");
  assert.equal(list.status, 200);
  assert.deepEqual(
    list.body.data.map((x: { id: string }) => x.id),
    [w.id],
  );
  assert.equal(list.body.data[0].secret, `whsec_…${w.secret.slice(-4)}`);
  assert.ok(!list.text.includes(w.secret.slice(6, 30)));
});

test("each endpoint gets its own secret", async () => {
  const biz = await seedBusiness();
  const a = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  const b = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  assert.notEqual(a.secret, b.secret);
});

test("events may be exact names, '*' or a prefix pattern such as 'product.*'; repeats are dropped", async () => {
  const biz = await seedBusiness();
  for (const events of [["*"], ["product.*"], ["resource.*", "usage.threshold_reached"], [...EVENT_TYPES]]) {
    const w = await createEndpoint(biz.test, { url: URL_A, events });
    assert.deepEqual(w.events, events);
  }
  const dup = await createEndpoint(biz.test, { url: URL_A, events: ["product.created", "product.created", "product.*"] });
  assert.deepEqual(dup.events, ["product.created", "product.*"]);
});

test("an unknown event name or pattern is a 400 on events whose suggestion lists every valid name", async () => {
  const biz = await seedBusiness();
  for (const name of ["product.exploded", "foo.*", "product", "*.created", "PRODUCT.CREATED", "webhook.test", ""]) {
    const e = expectError(await biz.test.post("/v1/webhooks", { url: URL_A, events: [name] }), 400, "INVALID_FIELD");
    assert.equal(e.type, "validation_error");
    assert.equal(e.field, "events", name);
    for (const t of EVENT_TYPES) assert.ok(e.suggestion?.includes(t), `suggestion for '${name}' lacks ${t}: ${e.suggestion}`);
  }
  // The same rule on update.
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  const e = expectError(await biz.test.patch(`/v1/webhooks/${w.id}`, { events: ["product.created", "nope"] }), 400, "INVALID_FIELD");
  assert.equal(e.field, "events");
  assert.match(e.message, /'nope'/);
  assert.deepEqual((await biz.test.get(`/v1/webhooks/${w.id}`)).body.data.events, ["*"]);
});

test("missing or empty events, a missing url and unknown fields are 400s", async () => {
  const biz = await seedBusiness();
  for (const body of [
    { url: URL_A },
    { url: URL_A, events: [] },
    { events: ["*"] },
    { url: URL_A, events: "product.created" },
    { url: URL_A, events: ["*"], secret: "whsec_mine" },
  ]) {
    const res = await biz.test.post("/v1/webhooks", body);
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
    assert.equal(res.body.error.type, "validation_error");
  }
  assert.equal((await biz.test.get("/v1/webhooks")).body.data.length, 0);
});

test("URLs that are not valid or not http(s) are refused with a 400 on url", async () => {
  const biz = await seedBusiness();
  for (const url of [
    "not a url",
    "example.com/hook",
    "ftp://example.com/hook",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "gopher://example.com/",
    "https://user:secret@example.com/hook",
  ]) {
    const e = expectError(await biz.test.post("/v1/webhooks", { url, events: ["*"] }), 400, "INVALID_FIELD");
    assert.equal(e.field, "url", url);
    assert.ok(e.suggestion, url);
  }
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  expectError(await biz.test.patch(`/v1/webhooks/${w.id}`, { url: "ftp://example.com/x" }), 400, "INVALID_FIELD");
  assert.equal((await biz.test.get(`/v1/webhooks/${w.id}`)).body.data.url, URL_A);
});

test("without ALLOW_PRIVATE_URLS, loopback, private and reserved targets are refused on create and update", async () => {
  assert.ok(strict);
  const biz = await seedBusiness();
  const api = client(biz.testKey, strict.url);
  for (const url of [
    "http://127.0.0.1:3000/hook",
    "http://localhost/hook",
    "http://[::1]/hook",
    "http://240.0.0.1/hook",
    "http://10.0.0.5/hook",
    "http://172.16.3.4/hook",
    "http://192.168.1.20:8080/hook",
    "http://0.0.0.0/hook",
    "http://2130706433/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fd00::1]/hook",
    // IPv6 forms carrying a private IPv4 address: NAT64, local-use NAT64, 6to4, Teredo (client 127.0.0.1), IPv4-compatible.
    "http://[64:ff9b::7f00:1]/hook",
    "http://[64:ff9b::10.0.0.1]/hook",
    "http://[64:ff9b:1::c0a8:101]/hook",
    "http://[2002:c0a8:101::1]/hook",
    "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook",
    "http://[::127.0.0.1]/hook",
  ]) {
    const e = expectError(await api.post("/v1/webhooks", { url, events: ["payment.failed"] }), 400, "INVALID_FIELD");
    assert.equal(e.field, "url", url);
    assert.match(e.message, /may not point to/, url);
  }
  // A public address is fine (subscribed to a name nothing in this test emits, so nothing is ever sent there).
  const res = await api.post("/v1/webhooks", { url: "https://8.8.8.8/hook", events: ["payment.failed"] });
  assert.equal(res.status, 201, res.text);
  const e = expectError(await api.patch(`/v1/webhooks/${res.body.data.id}`, { url: "http://127.0.0.1/hook" }), 400, "INVALID_FIELD");
  assert.equal(e.field, "url");
  assert.equal((await api.delete(`/v1/webhooks/${res.body.data.id}`)).status, 204);
});

// The forbidden class (link-local, metadata, reserved) is shown here with reserved addresses, which nothing answers:
// no test names a link-local or metadata address in a URL; tests/unit/url-safety.test.ts classifies those as
// addresses, in every spelling, and the same check refuses the whole class.
test("with ALLOW_PRIVATE_URLS=true (the suite's server), forbidden (reserved, link-local, metadata) targets are still refused", async () => {
  const biz = await seedBusiness();
  for (const url of [
    "http://240.0.0.1/hook",
    "http://[64:ff9b::f000:1]/hook",
    "http://[2002:f000:1::1]/hook",
    "http://[::ffff:240.0.0.1]/hook",
    "http://0.0.0.0/hook",
  ]) {
    const e = expectError(await biz.test.post("/v1/webhooks", { url, events: ["payment.failed"] }), 400, "INVALID_FIELD");
    assert.equal(e.field, "url", url);
    assert.match(e.message, /link-local, cloud metadata or reserved/, url);
  }
  // Loopback stays open under the switch, and an update to a forbidden address is refused like a create.
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["payment.failed"] });
  expectError(await biz.test.patch(`/v1/webhooks/${w.id}`, { url: "http://240.0.0.1/" }), 400, "INVALID_FIELD");
  assert.equal((await biz.test.get(`/v1/webhooks/${w.id}`)).body.data.url, URL_A);
});

test("custom headers are kept, but platform headers, bad names and multi-line values are refused", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, {
    url: URL_A,
    events: ["*"],
    headers: { Authorization: "Bearer receiver-token", "X-Tenant": "42" },
  });
  assert.deepEqual(w.headers, { Authorization: "Bearer receiver-token", "X-Tenant": "42" });
  for (const headers of [
    { "X-Webhook-Signature": "forged" },
    { "webhook-signature": "v1,forged" },
    { "Content-Type": "text/plain" },
    { "X-Event-Type": "x" },
    { "X-Delivery-ID": "x" },
    { Host: "evil.example" },
    { "Bad Header": "x" },
    { "X-Ok": "line1\r\nInjected: yes" },
  ]) {
    const res = await biz.test.post("/v1/webhooks", { url: URL_A, events: ["*"], headers });
    assert.equal(res.status, 400, `${JSON.stringify(headers)}: ${res.text}`);
  }
  const cleared = await biz.test.patch(`/v1/webhooks/${w.id}`, { headers: null });
  assert.equal(cleared.status, 200, cleared.text);
  assert.equal(cleared.body.data.headers, null);
});

test("PATCH changes url, events, description and isActive; the secret stays and stays hidden", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["product.created"] });
  const res = await biz.test.patch(`/v1/webhooks/${w.id}`, {
    url: "http://127.0.0.1:9/hooks/b",
    events: ["product.*"],
    description: "moved",
    isActive: false,
  });
  assert.equal(res.status, 200, res.text);
  const u = res.body.data;
  assert.equal(u.url, "http://127.0.0.1:9/hooks/b");
  assert.deepEqual(u.events, ["product.*"]);
  assert.equal(u.description, "moved");
  assert.equal(u.isActive, false);
  assert.equal(u.active, false);
  assert.equal(u.secret, `whsec_…${w.secret.slice(-4)}`);
  assert.ok(Date.parse(u.updatedAt) >= Date.parse(w.updatedAt));
  const again = await biz.test.patch(`/v1/webhooks/${w.id}`, { isActive: true, description: null });
  assert.equal(again.body.data.isActive, true);
  assert.equal(again.body.data.description, null);
  assert.equal((await biz.test.get("/v1/webhooks?isActive=true")).body.data.length, 1);
  assert.equal((await biz.test.get("/v1/webhooks?isActive=false")).body.data.length, 0);
});

test("DELETE answers 204 with no body; the endpoint is gone", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  const del = await biz.test.delete(`/v1/webhooks/${w.id}`);
  assert.equal(del.status, 204);
  assert.equal(del.text, "");
  expectError(await biz.test.get(`/v1/webhooks/${w.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.delete(`/v1/webhooks/${w.id}`), 404, "RESOURCE_NOT_FOUND");
  expectError(await biz.test.get(`/v1/webhooks/${w.id}/deliveries`), 404, "RESOURCE_NOT_FOUND");
});

test("rotate-secret answers with a new full secret and when the old one stops signing (24 hours)", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  const before = Date.now();
  const res = await biz.test.post(`/v1/webhooks/${w.id}/rotate-secret`);
  assert.equal(res.status, 200, res.text);
  const r = res.body.data;
  assert.match(r.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.notEqual(r.secret, w.secret);
  const expires = Date.parse(r.previousSecretExpiresAt);
  assert.ok(Math.abs(expires - (before + 24 * 3_600_000)) < 60_000, r.previousSecretExpiresAt);
  assert.equal((await biz.test.get(`/v1/webhooks/${w.id}`)).body.data.secret, `whsec_…${r.secret.slice(-4)}`);
  // The rotation is a write to the endpoint: a resource.updated event, without either secret in it.
  const events = await biz.test.get("/v1/events?type=resource.updated");
  const ev = events.body.data.find((e: any) => e.data.id === w.id);
  assert.ok(ev, events.text);
  assert.ok(!JSON.stringify(ev).includes(r.secret.slice(6, 30)) && !JSON.stringify(ev).includes(w.secret.slice(6, 30)));
  assert.equal(ev.previousAttributes.secret, `whsec_…${w.secret.slice(-4)}`);
});

test("an endpoint belongs to its business and environment: others get 404 on every route", async () => {
  const owner = await seedBusiness();
  const stranger = await seedBusiness();
  const w = await createEndpoint(owner.test, { url: URL_A, events: ["*"] });
  for (const api of [stranger.test, owner.live]) {
    expectError(await api.get(`/v1/webhooks/${w.id}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.patch(`/v1/webhooks/${w.id}`, { isActive: false }), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.delete(`/v1/webhooks/${w.id}`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.post(`/v1/webhooks/${w.id}/test`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.post(`/v1/webhooks/${w.id}/rotate-secret`), 404, "RESOURCE_NOT_FOUND");
    expectError(await api.get(`/v1/webhooks/${w.id}/deliveries`), 404, "RESOURCE_NOT_FOUND");
    assert.equal((await api.get("/v1/webhooks")).body.data.length, 0);
  }
  assert.equal((await owner.test.get(`/v1/webhooks/${w.id}`)).body.data.isActive, true);
  expectError(await owner.test.get("/v1/webhooks/wh_00000000000000000000000000"), 404, "RESOURCE_NOT_FOUND");
  expectError(await owner.test.get("/v1/webhooks/prod_00000000000000000000000000"), 404, "RESOURCE_NOT_FOUND");
});

test("webhook routes need the webhooks scopes", async () => {
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: URL_A, events: ["*"] });
  const made = await biz.test.post("/v1/api-keys", { name: "read only", scopes: ["webhooks:read"] });
  assert.equal(made.status, 201, made.text);
  const reader = client(made.body.data.key);
  assert.equal((await reader.get(`/v1/webhooks/${w.id}`)).status, 200);
  assert.equal((await reader.get(`/v1/webhooks/${w.id}/deliveries`)).status, 200);
  expectError(await reader.post("/v1/webhooks", { url: URL_A, events: ["*"] }), 403, "INSUFFICIENT_SCOPE");
  expectError(await reader.patch(`/v1/webhooks/${w.id}`, { isActive: false }), 403, "INSUFFICIENT_SCOPE");
  expectError(await reader.post(`/v1/webhooks/${w.id}/rotate-secret`), 403, "INSUFFICIENT_SCOPE");
  expectError(await reader.post(`/v1/webhooks/${w.id}/test`), 403, "INSUFFICIENT_SCOPE");
  expectError(await reader.delete(`/v1/webhooks/${w.id}`), 403, "INSUFFICIENT_SCOPE");
  const other = await biz.test.post("/v1/api-keys", { name: "products only", scopes: ["products:read"] });
  expectError(await client(other.body.data.key).get("/v1/webhooks"), 403, "INSUFFICIENT_SCOPE");
});

test("the list pages with limit and cursor, newest first", async () => {
  const biz = await seedBusiness();
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await createEndpoint(biz.test, { url: `${URL_A}/${i}`, events: ["*"] })).id);
  const first = await biz.test.get("/v1/webhooks?limit=2");
  assert.equal(first.status, 200);
  assert.deepEqual(
    first.body.data.map((w: { id: string }) => w.id),
    [ids[4], ids[3]],
  );
  assert.equal(first.body.pagination.hasMore, true);
  const second = await biz.test.get(`/v1/webhooks?limit=2&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`);
  assert.deepEqual(
    second.body.data.map((w: { id: string }) => w.id),
    [ids[2], ids[1]],
  );
  expectError(await biz.test.get("/v1/webhooks?limit=0"), 400, "INVALID_PARAMETER");
});
