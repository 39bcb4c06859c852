// The retry schedule, Retry-After, the 5-day disabling and the 24-hour secret overlap, walked through in seconds:
// a server of its own with the test clock (PLATFORM_TEST_CLOCK=true) on a database of its own (see
// startClockServer for why), a real receiver on 127.0.0.1, and the clock moved to just before and just after
// each due time.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { verifyPlatformSignature } from "@/lib/webhooks/signing";
import { client, type ApiClient } from "../helpers/api";
import {
  startClockServer,
  startReceiver,
  createEndpoint,
  deliveriesOf,
  waitForDeliveries,
  sleep,
  type ClockServer,
  type Receiver,
} from "../helpers/receiver";

const S = 1000;
const DAY = 86_400 * S;

let server: ClockServer;
let api: ApiClient;
let rx: Receiver;
/** The offset the server's clock runs at, as last set here. */
let offset = 0;

/** Moves the server's clock forward to `t` (ms since the epoch); never backwards. */
async function moveTo(t: number) {
  const wanted = t - Date.now();
  if (wanted <= offset) return;
  offset = wanted;
  await server.setOffset(offset);
}
const serverNow = () => Date.now() + offset;

/** Asserts that for `ms` nothing new reaches the receiver on `path`. */
async function quiet(path: string, ms = 800) {
  const before = rx.at(path).length;
  await sleep(ms);
  assert.equal(rx.at(path).length, before, `unexpected delivery to ${path}`);
}

/** How many requests `path` has received, once none has arrived for `ms`. */
async function settled(path: string, ms = 800): Promise<number> {
  for (;;) {
    const before = rx.at(path).length;
    await sleep(ms);
    if (rx.at(path).length === before) return before;
  }
}

async function product(name = "P") {
  const res = await api.post("/v1/products", { name, type: "API" });
  assert.equal(res.status, 201, res.text);
  return res.body.data;
}

before(async () => {
  [server, rx] = await Promise.all([startClockServer(), startReceiver()]);
  api = client(server.testKey, server.url);
});

after(async () => {
  await rx?.close();
  await server?.stop();
});

test("a failing delivery is tried 5 times, 60, 300, 1500 and 7200 s apart, then fails; nothing comes early or after", async () => {
  rx.route("/always-500", { kind: "status", status: 500 });
  const w = await createEndpoint(api, { url: rx.url("/always-500"), events: ["product.created"] });
  await product();
  let [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === 1);
  const offsetsAtAttempt = [offset];
  for (const [i, delay] of [60, 300, 1500, 7200].entries()) {
    assert.equal(d.status, "retrying");
    assert.equal(Date.parse(d.nextRetry) - Date.parse(d.lastAttempt), delay * S, `wait after attempt ${i + 1}`);
    await moveTo(Date.parse(d.nextRetry) - 5 * S);
    await quiet("/always-500");
    assert.equal(rx.at("/always-500").length, i + 1);
    await moveTo(Date.parse(d.nextRetry) + S);
    [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === i + 2);
    offsetsAtAttempt.push(offset);
  }
  assert.equal(d.status, "failed");
  assert.equal(d.nextRetry, null);
  assert.equal(d.attempts, 5);
  assert.deepEqual(
    d.deliveries.map((a: { attempt: number }) => a.attempt),
    [1, 2, 3, 4, 5],
  );
  assert.ok(d.deliveries.every((a: { status: number }) => a.status === 500));
  const gaps = d.deliveries
    .slice(1)
    .map((a: { timestamp: string }, i: number) => (Date.parse(a.timestamp) - Date.parse(d.deliveries[i].timestamp)) / S);
  for (const [i, delay] of [60, 300, 1500, 7200].entries())
    assert.ok(gaps[i] >= delay && gaps[i] < delay + 30, `gap ${i + 1}: ${gaps[i]} s`);

  // The spec's 36,000 s after a 5th attempt never comes: 5 attempts is the budget.
  await moveTo(serverNow() + 11 * 3600 * S);
  await quiet("/always-500");
  const got = rx.at("/always-500");
  assert.equal(got.length, 5);
  // One delivery, so one webhook-id; each attempt signed afresh at its own (server) time.
  assert.equal(new Set(got.map((r) => r.headers["webhook-id"])).size, 1);
  assert.equal(new Set(got.map((r) => r.headers["webhook-timestamp"])).size, 5);
  got.forEach((r, i) =>
    assert.ok(
      verifyPlatformSignature(w.secret, r.headers["x-webhook-signature"], r.body, r.receivedAt + offsetsAtAttempt[i]),
      `attempt ${i + 1}`,
    ),
  );
  // 2.5 hours of failures do not disable an endpoint.
  assert.equal((await api.get(`/v1/webhooks/${w.id}`)).body.data.isActive, true);

  // A manual retry of the failed delivery starts a fresh budget.
  rx.route("/always-500", { kind: "ok" });
  assert.equal((await api.post(`/v1/webhooks/${w.id}/deliveries/${d.id}/retry`)).status, 200);
  [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.status === "success");
  assert.equal(d.attempts, 1);
  await api.delete(`/v1/webhooks/${w.id}`);
});

test("a delivery that fails twice and then succeeds stops there", async () => {
  rx.route("/flaky", { kind: "status", status: 502 });
  const w = await createEndpoint(api, { url: rx.url("/flaky"), events: ["product.created"] });
  await product();
  let [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === 1);
  await moveTo(Date.parse(d.nextRetry) + S);
  [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === 2);
  rx.route("/flaky", { kind: "ok" });
  await moveTo(Date.parse(d.nextRetry) + S);
  [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.status === "success");
  assert.equal(d.attempts, 3);
  assert.equal(d.nextRetry, null);
  assert.deepEqual(
    d.deliveries.map((a: { status: number }) => a.status),
    [502, 502, 200],
  );
  await moveTo(serverNow() + 3 * 3600 * S);
  await quiet("/flaky");
  assert.equal(rx.at("/flaky").length, 3);
  await api.delete(`/v1/webhooks/${w.id}`);
});

test("a Retry-After longer than the schedule's wait is honoured; the attempt does not come at 60 s", async () => {
  rx.route("/busy", { kind: "status", status: 503, headers: { "Retry-After": "600" } });
  const w = await createEndpoint(api, { url: rx.url("/busy"), events: ["product.created"] });
  await product();
  const [d] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === 1);
  assert.equal(Date.parse(d.nextRetry) - Date.parse(d.lastAttempt), 600 * S);
  rx.route("/busy", { kind: "ok" });
  await moveTo(Date.parse(d.lastAttempt) + 61 * S);
  await quiet("/busy");
  await moveTo(Date.parse(d.lastAttempt) + 601 * S);
  const [done] = await waitForDeliveries(api, w.id, (l) => l[0]?.status === "success");
  assert.equal(done.attempts, 2);
  await api.delete(`/v1/webhooks/${w.id}`);
});

test("an endpoint whose deliveries all fail for 5 days is disabled, and a resource.updated event says so", async () => {
  rx.route("/dead", { kind: "status", status: 500 });
  rx.route("/watch", { kind: "ok" });
  const dead = await createEndpoint(api, { url: rx.url("/dead"), events: ["product.*"] });
  const watcher = await createEndpoint(api, { url: rx.url("/watch"), events: ["resource.updated"] });
  await product("day 0");
  const [first] = await waitForDeliveries(api, dead.id, (l) => l[0]?.attempts === 1);
  const start = Date.parse(first.lastAttempt);
  // An event a day, each failing (with the earlier ones' retries) while the endpoint stays on...
  for (const day of [1, 2, 3, 4]) {
    await moveTo(start + day * DAY);
    await product(`day ${day}`);
    await waitForDeliveries(api, dead.id, (l) => l.length === day + 1 && l[0].attempts >= 1);
    assert.equal((await api.get(`/v1/webhooks/${dead.id}`)).body.data.isActive, true, `day ${day}`);
  }
  await moveTo(start + 5 * DAY - 60 * S);
  await product("just under 5 days");
  await waitForDeliveries(api, dead.id, (l) => l.length === 6 && l[0].attempts >= 1);
  assert.equal((await api.get(`/v1/webhooks/${dead.id}`)).body.data.isActive, true);
  assert.equal(rx.at("/watch").length, 0);

  // ... until a failure 5 days after the first.
  await moveTo(start + 5 * DAY + 60 * S);
  await product("day 5");
  const [note] = await rx.waitFor(1, (r) => r.path === "/watch");
  const w = (await api.get(`/v1/webhooks/${dead.id}`)).body.data;
  assert.equal(w.isActive, false);
  assert.equal(w.disabledReason, "Every delivery failed for 5 days.");
  const event = JSON.parse(note.body);
  assert.equal(event.type, "resource.updated");
  assert.equal(event.data.object, "webhook");
  assert.equal(event.data.id, dead.id);
  assert.equal(event.data.isActive, false);
  assert.equal(event.data.disabledReason, "Every delivery failed for 5 days.");
  assert.deepEqual(event.previousAttributes, { isActive: true });
  assert.ok(verifyPlatformSignature(watcher.secret, note.headers["x-webhook-signature"], note.body, note.receivedAt + offset));
  const listed = await api.get("/v1/events?type=resource.updated");
  assert.ok(
    listed.body.data.some((e: { id: string }) => e.id === event.id),
    listed.text,
  );

  // Disabled: a new event makes no delivery for it, and nothing more is sent to it. The clock's jump made earlier
  // events' retries due together, and the worker sends a claimed batch at once: those already on their way when one
  // of them disabled the endpoint still arrive (CI on PostgreSQL saw one land after the notice), so what was sent
  // is counted once the receiver has heard nothing for a while.
  const sent = await settled("/dead");
  const count = (await deliveriesOf(api, dead.id)).length;
  await product("after");
  await moveTo(serverNow() + 3 * 3600 * S);
  await quiet("/dead");
  assert.equal(rx.at("/dead").length, sent);
  assert.equal((await deliveriesOf(api, dead.id)).length, count);
  // Its retries that came due meanwhile were not sent but closed as failed.
  const closed = await waitForDeliveries(api, dead.id, (l) => l.every((d) => d.status === "failed"));
  assert.ok(
    closed.some((d) => d.error === "endpoint disabled"),
    JSON.stringify(closed.map((d) => d.error)),
  );
  await api.delete(`/v1/webhooks/${dead.id}`);
  await api.delete(`/v1/webhooks/${watcher.id}`);
});

test("one successful delivery restarts the 5-day count", async () => {
  rx.route("/wobbly", { kind: "status", status: 500 });
  const w = await createEndpoint(api, { url: rx.url("/wobbly"), events: ["product.created"] });
  await product();
  const [first] = await waitForDeliveries(api, w.id, (l) => l[0]?.attempts === 1);
  const start = Date.parse(first.lastAttempt);
  await moveTo(start + 3 * DAY);
  rx.route("/wobbly", { kind: "ok" });
  await product();
  await waitForDeliveries(api, w.id, (l) => l.some((d) => d.status === "success"));
  rx.route("/wobbly", { kind: "status", status: 500 });
  await moveTo(start + 4 * DAY);
  await product();
  await waitForDeliveries(api, w.id, (l) => l.length === 3 && l[0].attempts >= 1);
  // 6 days after the first failure, but only 2 after the last success.
  await moveTo(start + 6 * DAY);
  await product();
  await waitForDeliveries(api, w.id, (l) => l.length === 4 && l[0].attempts >= 1);
  assert.equal((await api.get(`/v1/webhooks/${w.id}`)).body.data.isActive, true);
  await api.delete(`/v1/webhooks/${w.id}`);
});

test("after rotate-secret both secrets sign for 24 hours, then only the new one", async () => {
  rx.route("/rot", { kind: "ok" });
  const w = await createEndpoint(api, { url: rx.url("/rot"), events: ["product.created"] });
  const rotated = (await api.post(`/v1/webhooks/${w.id}/rotate-secret`)).body.data;
  const expires = Date.parse(rotated.previousSecretExpiresAt);
  await moveTo(expires - 60 * S);
  await product();
  const [during] = await rx.waitFor(1, (r) => r.path === "/rot");
  const at = during.receivedAt + offset;
  assert.equal(during.headers["x-webhook-signature"].split(",").filter((p) => p.startsWith("v1=")).length, 2);
  assert.ok(verifyPlatformSignature(w.secret, during.headers["x-webhook-signature"], during.body, at));
  assert.ok(verifyPlatformSignature(rotated.secret, during.headers["x-webhook-signature"], during.body, at));

  await moveTo(expires + 60 * S);
  await product();
  const [, later] = await rx.waitFor(2, (r) => r.path === "/rot");
  const at2 = later.receivedAt + offset;
  assert.equal(later.headers["x-webhook-signature"].split(",").filter((p) => p.startsWith("v1=")).length, 1);
  assert.equal(later.headers["webhook-signature"].split(" ").length, 1);
  assert.ok(verifyPlatformSignature(rotated.secret, later.headers["x-webhook-signature"], later.body, at2));
  assert.equal(verifyPlatformSignature(w.secret, later.headers["x-webhook-signature"], later.body, at2), false);
  await api.delete(`/v1/webhooks/${w.id}`);
});
