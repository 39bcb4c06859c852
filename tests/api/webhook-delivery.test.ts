// Real deliveries from the suite's server (its worker polls every 200 ms) to a real receiver on 127.0.0.1:
// the request as contract.md describes it, verified with the standardwebhooks package as an outside receiver
// would and with the platform's own check; fan-out to subscribed, active endpoints only; the delivery record;
// test events; manual retries; Retry-After; 410; a rotated secret; and receivers that misbehave (hang, answer
// slowly, redirect, send 10 MB, close the socket), each ending as a recorded failed attempt and a scheduled retry
// while the worker goes on delivering to everyone else. (The time-moving tests are in webhook-retries.test.ts.)
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { Webhook } from "standardwebhooks";
import { verifyPlatformSignature } from "@/lib/webhooks/signing";
import { seedBusiness, createProduct, expectError } from "../helpers/api";
import {
  startReceiver,
  standardHeaders,
  createEndpoint,
  deliveriesOf,
  waitForDeliveries,
  sleep,
  type Receiver,
  type ReceivedRequest,
} from "../helpers/receiver";

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
after(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

/** Both signatures of a received request, checked with `secret` as receivers check them. */
function assertSigned(r: ReceivedRequest, secret: string) {
  assert.ok(
    verifyPlatformSignature(secret, r.headers["x-webhook-signature"], r.body),
    `X-Webhook-Signature does not verify: ${r.headers["x-webhook-signature"]}`,
  );
  assert.doesNotThrow(() => new Webhook(secret).verify(r.body, standardHeaders(r)), "standardwebhooks rejects the delivery");
}

test("a product write is delivered as a signed POST that the standardwebhooks package and our check both verify", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, {
    url: rx.url("/hooks"),
    events: ["product.created"],
    headers: { Authorization: "Bearer receiver-token" },
  });
  const product = await createProduct(biz.test, { name: "Signed product" });
  const [req] = await rx.waitFor(1);
  assert.equal(req.method, "POST");
  assert.equal(req.path, "/hooks");
  assertSigned(req, w.secret);

  // Headers of contract.md and the spec.
  const h = req.headers;
  assert.equal(h["content-type"], "application/json");
  assert.equal(h["user-agent"], "DeveloperPlatform-Webhooks/1.0");
  assert.equal(h["x-webhook-id"], w.id);
  assert.equal(h["x-event-type"], "product.created");
  assert.match(h["x-event-id"], /^evt_/);
  assert.match(h["x-delivery-id"], /^whd_/);
  assert.equal(h["webhook-id"], h["x-delivery-id"]);
  assert.equal(h.authorization, "Bearer receiver-token");
  const sig = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(h["x-webhook-signature"]);
  assert.ok(sig, h["x-webhook-signature"]);
  assert.equal(h["webhook-timestamp"], String(Math.floor(Number(sig[1]) / 1000)));
  assert.ok(Math.abs(Number(sig[1]) - req.receivedAt) < 30_000, "the signature's timestamp is the time of sending");
  assert.match(h["webhook-signature"], /^v1,[A-Za-z0-9+/]+=*$/);

  // The body is the event record: the same as GET /v1/events/{id}, without the environment.
  const payload = JSON.parse(req.body);
  assert.equal(payload.id, h["x-event-id"]);
  assert.equal(payload.type, "product.created");
  assert.equal(payload.apiVersion, "v1");
  assert.equal(payload.timestamp, payload.createdAt);
  assert.equal(payload.data.object, "product");
  assert.equal(payload.data.id, product.id);
  assert.equal(payload.data.name, "Signed product");
  assert.equal("previousAttributes" in payload, false);
  const event = await biz.test.get(`/v1/events/${payload.id}`);
  assert.equal(event.status, 200);
  const { environment, ...stored } = event.body.data;
  assert.equal(environment, "test");
  assert.deepEqual(payload, stored);

  // A signature made with another secret, or over another body, does not verify.
  assert.equal(verifyPlatformSignature(w.secret, h["x-webhook-signature"], req.body.replace("Signed", "Forged")), false);
  assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(req.body, standardHeaders(req)));
});

test("the delivery record shows status, attempts, request and response", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/ok"), events: ["product.*"] });
  await createProduct(biz.test);
  const [req] = await rx.waitFor(1);
  const [d] = await waitForDeliveries(biz.test, w.id, (l) => l.length === 1 && l[0].status === "success");
  assert.match(d.id, /^whd_/);
  assert.equal(d.id, req.headers["webhook-id"]);
  assert.equal(d.webhookId, w.id);
  assert.equal(d.eventId, req.headers["x-event-id"]);
  assert.equal(d.eventType, "product.created");
  assert.equal(d.url, rx.url("/ok"));
  assert.equal(d.attempts, 1);
  assert.ok(!Number.isNaN(Date.parse(d.lastAttempt)));
  assert.equal(d.nextRetry, null);
  assert.equal(d.error, null);
  assert.equal(d.request.body, req.body);
  assert.equal(d.request.headers["X-Event-Type"], "product.created");
  assert.equal(d.request.headers["webhook-id"], d.id);
  // The stored signatures are cut short: the log is no oracle for them.
  assert.ok(d.request.headers["X-Webhook-Signature"].length < 30, d.request.headers["X-Webhook-Signature"]);
  assert.equal(d.response.statusCode, 200);
  assert.equal(d.response.body, '{"received":true}');
  assert.equal(d.response.headers["content-type"], "application/json");
  assert.equal(typeof d.response.duration, "number");
  assert.equal(d.deliveries.length, 1);
  assert.equal(d.deliveries[0].attempt, 1);
  assert.equal(d.deliveries[0].status, 200);
  const one = await biz.test.get(`/v1/webhooks/${w.id}/deliveries/${d.id}`);
  assert.equal(one.status, 200);
  assert.deepEqual(one.body.data, d);
});

test("each event reaches exactly the active endpoints subscribed to it, once each", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  const exact = await createEndpoint(biz.test, { url: rx.url("/exact"), events: ["product.updated"] });
  const pattern = await createEndpoint(biz.test, { url: rx.url("/pattern"), events: ["product.*"] });
  const all = await createEndpoint(biz.test, { url: rx.url("/all"), events: ["*"] });
  const other = await createEndpoint(biz.test, { url: rx.url("/other"), events: ["resource.deleted", "payment.failed"] });
  const paused = await createEndpoint(biz.test, { url: rx.url("/paused"), events: ["*"], isActive: false });
  // Another business's endpoint on the same receiver hears nothing of this one.
  const stranger = await seedBusiness();
  await createEndpoint(stranger.test, { url: rx.url("/stranger"), events: ["*"] });
  // And nor does one of this business's live environment.
  await createEndpoint(biz.live, { url: rx.url("/live"), events: ["*"] });

  const p = await createProduct(biz.test);
  assert.equal((await biz.test.patch(`/v1/products/${p.id}`, { name: "Renamed" })).status, 200);
  await rx.waitFor(1, (r) => r.path === "/exact");
  await rx.waitFor(2, (r) => r.path === "/pattern");
  await sleep(1000); // time for anything that should not arrive

  const types = (path: string) =>
    rx
      .at(path)
      .map((r) => r.headers["x-event-type"])
      .sort();
  assert.deepEqual(types("/exact"), ["product.updated"]);
  assert.deepEqual(types("/pattern"), ["product.created", "product.updated"]);
  // '*' also hears the endpoints created after it (resource.created), but no endpoint hears itself paused etc.
  assert.deepEqual(
    types("/all").filter((t) => t.startsWith("product.")),
    ["product.created", "product.updated"],
  );
  assert.deepEqual(types("/other"), []);
  assert.deepEqual(types("/paused"), []);
  assert.deepEqual(
    types("/stranger").filter((t) => t.startsWith("product.")),
    [],
  );
  assert.deepEqual(
    types("/live").filter((t) => t.startsWith("product.")),
    [],
  );
  assert.equal((await deliveriesOf(biz.test, paused.id)).length, 0);
  assert.equal((await deliveriesOf(biz.test, other.id)).length, 0);
  assert.equal((await deliveriesOf(biz.test, exact.id)).length, 1);
  // No request twice: one delivery id each.
  const ids = rx.requests.map((r) => r.headers["webhook-id"]);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(all.id && pattern.id);
});

test("deliveries of an update carry previousAttributes; activate/deactivate are updates", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  await createEndpoint(biz.test, { url: rx.url("/p"), events: ["product.updated", "product.deleted"] });
  const p = await createProduct(biz.test, { name: "Before", description: "d" });
  await biz.test.patch(`/v1/products/${p.id}`, { name: "After" });
  await biz.test.post(`/v1/products/${p.id}/deactivate`);
  await biz.test.delete(`/v1/products/${p.id}`);
  const got = await rx.waitFor(3);
  const byType = (t: string) => got.filter((r) => r.headers["x-event-type"] === t).map((r) => JSON.parse(r.body));
  const updates = byType("product.updated").sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  assert.equal(updates.length, 2);
  assert.deepEqual(updates[0].previousAttributes, { name: "Before" });
  assert.equal(updates[0].data.name, "After");
  assert.deepEqual(updates[1].previousAttributes, { isActive: true });
  assert.equal(updates[1].data.isActive, false);
  const [deleted] = byType("product.deleted");
  assert.equal(deleted.data.id, p.id);
  assert.equal("previousAttributes" in deleted, false);
});

test("POST /v1/webhooks/{id}/test sends a signed webhook.test event to that endpoint only", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  const target = await createEndpoint(biz.test, { url: rx.url("/target"), events: ["payment.failed"] });
  await createEndpoint(biz.test, { url: rx.url("/bystander"), events: ["*"] });
  const res = await biz.test.post(`/v1/webhooks/${target.id}/test`);
  assert.equal(res.status, 201, res.text);
  const d = res.body.data;
  assert.match(d.id, /^whd_/);
  assert.equal(d.webhookId, target.id);
  assert.equal(d.eventType, "webhook.test");
  assert.ok(["pending", "success"].includes(d.status));
  const [req] = await rx.waitFor(1, (r) => r.path === "/target");
  assertSigned(req, target.secret);
  assert.equal(req.headers["x-event-type"], "webhook.test");
  assert.equal(req.headers["webhook-id"], d.id);
  const body = JSON.parse(req.body);
  assert.equal(body.type, "webhook.test");
  assert.equal(body.data.id, target.id);
  await waitForDeliveries(biz.test, target.id, (l) => l.some((x) => x.id === d.id && x.status === "success"));
  await sleep(500);
  assert.equal(rx.at("/bystander").filter((r) => r.headers["x-event-type"] === "webhook.test").length, 0);
});

test("a failing receiver: the attempt is recorded and the retry is due 60 s later; deliveries filter by status and event", async () => {
  const rx = await receiver({ mode: { kind: "status", status: 500, body: "database down" } });
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/fail"), events: ["product.*"] });
  const p = await createProduct(biz.test);
  const [d] = await waitForDeliveries(biz.test, w.id, (l) => l.length === 1 && l[0].status === "retrying");
  assert.equal(d.attempts, 1);
  assert.equal(d.response.statusCode, 500);
  assert.equal(d.response.body, "database down");
  assert.equal(Date.parse(d.nextRetry) - Date.parse(d.lastAttempt), 60_000);
  assert.equal(d.deliveries.length, 1);
  assert.equal(d.deliveries[0].status, 500);

  // A second event that succeeds, to filter against.
  rx.setMode({ kind: "ok" });
  await biz.test.delete(`/v1/products/${p.id}`);
  await waitForDeliveries(biz.test, w.id, (l) => l.some((x) => x.eventType === "product.deleted" && x.status === "success"));
  const ids = async (q: string) => (await deliveriesOf(biz.test, w.id, q)).map((x) => x.eventType).sort();
  assert.deepEqual(await ids("status=retrying"), ["product.created"]);
  assert.deepEqual(await ids("status=success"), ["product.deleted"]);
  assert.deepEqual(await ids("status=failed"), []);
  assert.deepEqual(await ids("event=product.deleted"), ["product.deleted"]);
  assert.deepEqual(await ids("event=product.created,product.deleted"), ["product.created", "product.deleted"]);
  assert.deepEqual(await ids("status=retrying&event=product.deleted"), []);
  expectError(await biz.test.get(`/v1/webhooks/${w.id}/deliveries?status=exploded`), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get(`/v1/webhooks/${w.id}/deliveries?color=red`), 400, "INVALID_FILTER");
});

test("manual retry sends a retrying delivery now; a successful one cannot be retried", async () => {
  const rx = await receiver({ mode: { kind: "status", status: 503 } });
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/r"), events: ["product.created"] });
  await createProduct(biz.test);
  const [d] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "retrying");
  rx.setMode({ kind: "ok" });
  const res = await biz.test.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.id, d.id);
  const [done] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "success");
  assert.equal(done.attempts, 2);
  assert.deepEqual(
    done.deliveries.map((a: { status: number }) => a.status),
    [503, 200],
  );
  assert.equal(rx.requests.length, 2);
  assert.equal(new Set(rx.requests.map((r) => r.headers["webhook-id"])).size, 1, "a retry keeps the delivery's webhook-id");
  assert.notEqual(
    rx.requests[0].headers["x-webhook-signature"],
    rx.requests[1].headers["x-webhook-signature"],
    "each attempt is signed afresh",
  );
  const again = expectError(await biz.test.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`), 409, "STATE_CONFLICT");
  assert.match(again.message, /success/);
  expectError(await biz.test.post(`/v1/webhooks/${w.id}/deliveries/whd_00000000000000000000000000/retry`), 404, "RESOURCE_NOT_FOUND");
  // Another endpoint's path does not reach this delivery.
  const other = await createEndpoint(biz.test, { url: rx.url("/x"), events: ["payment.failed"] });
  expectError(await biz.test.get(`/v1/webhooks/${other.id}/deliveries/${d.id}`), 404, "RESOURCE_NOT_FOUND");
  const stranger = await seedBusiness();
  expectError(await stranger.test.get(`/v1/webhooks/${w.id}/deliveries/${d.id}`), 404, "RESOURCE_NOT_FOUND");
});

test("a 410 fails the delivery without retries, disables the endpoint and says so in a resource.updated event", async () => {
  const rx = await receiver();
  rx.route("/gone", { kind: "status", status: 410 });
  const biz = await seedBusiness();
  const gone = await createEndpoint(biz.test, { url: rx.url("/gone"), events: ["product.*"] });
  const watcher = await createEndpoint(biz.test, { url: rx.url("/watch"), events: ["resource.updated"] });
  const p = await createProduct(biz.test);
  const [d] = await waitForDeliveries(biz.test, gone.id, (l) => l[0]?.status === "failed");
  assert.equal(d.attempts, 1);
  assert.equal(d.nextRetry, null);
  assert.equal(d.response.statusCode, 410);
  const w = (await biz.test.get(`/v1/webhooks/${gone.id}`)).body.data;
  assert.equal(w.isActive, false);
  assert.match(w.disabledReason, /410/);
  const [note] = await rx.waitFor(1, (r) => r.path === "/watch");
  const event = JSON.parse(note.body);
  assert.equal(event.type, "resource.updated");
  assert.equal(event.data.object, "webhook");
  assert.equal(event.data.id, gone.id);
  assert.equal(event.data.isActive, false);
  assert.deepEqual(event.previousAttributes, { isActive: true });
  assertSigned(note, watcher.secret);

  // Disabled: later events make no delivery for it.
  await biz.test.patch(`/v1/products/${p.id}`, { name: "Later" });
  await sleep(800);
  assert.equal((await deliveriesOf(biz.test, gone.id)).length, 1);
  assert.equal(rx.at("/gone").length, 1);

  // Re-enabled and answering again, a manual retry of the failed delivery goes through with a fresh budget.
  rx.route("/gone", { kind: "ok" });
  assert.equal((await biz.test.patch(`/v1/webhooks/${gone.id}`, { isActive: true })).body.data.disabledReason, null);
  assert.equal((await biz.test.post(`/v1/webhooks/${gone.id}/deliveries/${d.id}/retry`)).status, 200);
  const list = await waitForDeliveries(biz.test, gone.id, (l) => l.find((x) => x.id === d.id)?.status === "success");
  assert.equal(list.find((x) => x.id === d.id).attempts, 1, "a failed delivery retried by hand starts a new budget");
});

test("pending deliveries of an endpoint paused before they are sent fail as 'endpoint disabled' and are not sent", async () => {
  const rx = await receiver({ mode: { kind: "status", status: 500 } });
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/paused"), events: ["product.created"] });
  await createProduct(biz.test);
  const [d] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "retrying");
  await biz.test.patch(`/v1/webhooks/${w.id}`, { isActive: false });
  rx.setMode({ kind: "ok" });
  assert.equal((await biz.test.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`)).status, 200);
  const [after] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "failed");
  assert.equal(after.error, "endpoint disabled");
  assert.equal(rx.requests.length, 1, "nothing is sent to a disabled endpoint");
  // A test event is still sent on request, so an endpoint can be checked before it is switched back on.
  assert.equal((await biz.test.post(`/v1/webhooks/${w.id}/test`)).status, 201);
  await rx.waitFor(1, (r) => r.headers["x-event-type"] === "webhook.test");
});

test("Retry-After lengthens the wait (never shortens it) and counts for at most a day", async () => {
  const rx = await receiver();
  rx.route("/long", { kind: "status", status: 503, headers: { "Retry-After": "900" } });
  rx.route("/short", { kind: "status", status: 429, headers: { "Retry-After": "5" } });
  rx.route("/date", { kind: "status", status: 503, headers: { "Retry-After": new Date(Date.now() + 3 * 3_600_000).toUTCString() } });
  rx.route("/absurd", { kind: "status", status: 503, headers: { "Retry-After": "99999999999999999999" } });
  const biz = await seedBusiness();
  const ws = await Promise.all(
    ["/long", "/short", "/date", "/absurd"].map((path) => createEndpoint(biz.test, { url: rx.url(path), events: ["product.created"] })),
  );
  await createProduct(biz.test);
  const waits = await Promise.all(
    ws.map(async (w) => {
      const [d] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "retrying");
      return (Date.parse(d.nextRetry) - Date.parse(d.lastAttempt)) / 1000;
    }),
  );
  assert.equal(waits[0], 900);
  assert.equal(waits[1], 60);
  assert.ok(waits[2] > 3 * 3600 - 120 && waits[2] <= 3 * 3600 + 5, `HTTP-date Retry-After gave ${waits[2]} s`);
  assert.equal(waits[3], 86_400);
});

test("after rotate-secret deliveries carry two signatures; the old and the new secret each verify them", async () => {
  const rx = await receiver();
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/rot"), events: ["product.created"] });
  const rotated = (await biz.test.post(`/v1/webhooks/${w.id}/rotate-secret`)).body.data;
  await createProduct(biz.test);
  const [req] = await rx.waitFor(1);
  assert.equal(req.headers["x-webhook-signature"].split(",").filter((p) => p.startsWith("v1=")).length, 2);
  assert.equal(req.headers["webhook-signature"].split(" ").length, 2);
  assertSigned(req, w.secret);
  assertSigned(req, rotated.secret);
  assert.throws(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(req.body, standardHeaders(req)));
});

test("misbehaving receivers each end as a recorded failed attempt with a retry, and the worker keeps delivering", async () => {
  const rx = await receiver();
  rx.route("/hang", { kind: "hang" });
  rx.route("/slow", { kind: "slow", delayMs: 12_000 });
  rx.route("/trickle", { kind: "trickle" });
  rx.route("/redirect", { kind: "redirect", location: rx.url("/redirect-target") });
  rx.route("/huge-error", { kind: "huge", status: 500 });
  rx.route("/destroy", { kind: "destroy" });
  rx.route("/huge-ok", { kind: "huge", status: 200 });
  const biz = await seedBusiness();
  const paths = ["/hang", "/slow", "/trickle", "/redirect", "/huge-error", "/destroy", "/huge-ok"];
  const ws = Object.fromEntries(
    await Promise.all(
      paths.map(async (p) => [p, await createEndpoint(biz.test, { url: rx.url(p), events: ["product.created"] })] as const),
    ),
  );
  const started = Date.now();
  await createProduct(biz.test);
  // The slow ones are all in flight...
  await rx.waitFor(paths.length);

  // ... and meanwhile another business's delivery goes out at once: no receiver holds up the worker.
  const healthy = await seedBusiness();
  const hw = await createEndpoint(healthy.test, { url: rx.url("/healthy"), events: ["product.created"] });
  await createProduct(healthy.test);
  const [fine] = await rx.waitFor(1, (r) => r.path === "/healthy", 8_000);
  assert.ok(fine.receivedAt - started < 8_000, `the healthy delivery took ${fine.receivedAt - started} ms while others hung`);
  await waitForDeliveries(healthy.test, hw.id, (l) => l[0]?.status === "success");

  const settled = async (p: string) => (await waitForDeliveries(biz.test, ws[p].id, (l) => l[0] && l[0].status !== "pending", 25_000))[0];
  const results = Object.fromEntries(await Promise.all(paths.map(async (p) => [p, await settled(p)] as const)));
  for (const p of ["/hang", "/slow", "/trickle", "/redirect", "/huge-error", "/destroy"]) {
    const d = results[p];
    assert.equal(d.status, "retrying", `${p}: ${JSON.stringify(d)}`);
    assert.equal(d.attempts, 1, p);
    assert.equal(Date.parse(d.nextRetry) - Date.parse(d.lastAttempt), 60_000, p);
    assert.equal(d.deliveries.length, 1, p);
  }
  for (const p of ["/hang", "/slow", "/trickle"]) {
    assert.match(results[p].error, /timed out after 10 s/, p);
    assert.ok(
      results[p].deliveries[0].durationMs >= 9_900 && results[p].deliveries[0].durationMs < 11_500,
      `${p}: ${results[p].deliveries[0].durationMs} ms`,
    );
  }
  assert.equal(results["/redirect"].response.statusCode, 302);
  assert.match(results["/redirect"].error, /redirect .* not followed/);
  assert.equal(rx.at("/redirect-target").length, 0, "the redirect was followed");
  assert.equal(results["/huge-error"].response.statusCode, 500);
  assert.ok(results["/huge-error"].response.body.length <= 16 * 1024, "the stored response body is cut to 16 KB");
  assert.ok(results["/huge-error"].deliveries[0].durationMs < 5_000, "10 MB are not read to the end");
  assert.equal(results["/destroy"].response, null);
  assert.match(results["/destroy"].error, /socket hang up|ECONNRESET/);
  // A 2xx is a success whatever follows it: the receiver has the event; 16 KB of the 10 MB are kept.
  assert.equal(results["/huge-ok"].status, "success");
  assert.equal(results["/huge-ok"].response.body.length, 16 * 1024);

  // Done with them: the suite's worker would try them again in a minute.
  await Promise.all(Object.values(ws).map((w) => biz.test.delete(`/v1/webhooks/${w.id}`)));
});

test("a refused connection and a receiver that is down are failed attempts too", async () => {
  const rx = await receiver({ listen: false });
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/down"), events: ["product.created"] });
  await createProduct(biz.test);
  const [d] = await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "retrying");
  assert.equal(d.attempts, 1);
  assert.match(d.error, /ECONNREFUSED/);
  assert.equal(d.response, null);
  // Up again, a manual retry delivers it.
  await rx.up();
  await biz.test.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`);
  await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "success");
  assert.equal(rx.requests.length, 1);
});

test("deleting an endpoint drops its pending deliveries", async () => {
  const rx = await receiver({ mode: { kind: "status", status: 500 } });
  const biz = await seedBusiness();
  const w = await createEndpoint(biz.test, { url: rx.url("/del"), events: ["product.created"] });
  await createProduct(biz.test);
  await waitForDeliveries(biz.test, w.id, (l) => l[0]?.status === "retrying");
  assert.equal((await biz.test.delete(`/v1/webhooks/${w.id}`)).status, 204);
  expectError(await biz.test.get(`/v1/webhooks/${w.id}/deliveries`), 404, "RESOURCE_NOT_FOUND");
});
