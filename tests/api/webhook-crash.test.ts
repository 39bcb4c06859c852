// Deliveries survive a crash: they are rows written with the event (an outbox), claimed with leases.
//  1. The receiver is down; events are created; the server is killed with SIGKILL while its worker is at them.
//     Two fresh server processes (two workers on one database) start, the receiver comes up, and every delivery
//     completes: each one answered exactly once, none lost, none sent by both workers.
//  2. The receiver hangs; the workers are killed with SIGKILL while their attempts are in flight (claimed, nothing
//     recorded). A new server finds those deliveries again when their leases end and completes each once.
// The servers have the test clock and a database of their own (startClockServer), so the retry waits and lease
// ends are reached by moving the clock instead of waiting a minute. Every server process runs at the same offset
// (BASE ahead of real time, so a freshly started process, still on real time, finds nothing due before its clock
// is set).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { client } from "../helpers/api";
import {
  startClockServer,
  startReceiver,
  createEndpoint,
  deliveriesOf,
  waitForDeliveries,
  sleep,
  type ClockServer,
  type PlatformProcess,
  type Receiver,
} from "../helpers/receiver";

const BASE = 3_600_000; // every server's clock runs an hour ahead of real time, then further
const ENDPOINTS = 3;
const PRODUCTS = 15; // 45 deliveries

let cluster: ClockServer;
let rx: Receiver;

function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Answered (2xx) requests per webhook-id. */
function answeredCounts(r: Receiver) {
  const counts = new Map<string, number>();
  for (const q of r.requests)
    if (q.answered !== null && q.answered < 300) counts.set(q.headers["webhook-id"], (counts.get(q.headers["webhook-id"]) ?? 0) + 1);
  return counts;
}

before(async () => {
  // Reserve a port for the receiver but do not listen yet: it is down.
  [cluster, rx] = await Promise.all([startClockServer(), startReceiver({ listen: false })]);
  await cluster.setOffset(BASE);
});

after(async () => {
  await rx?.close();
  await cluster?.stop();
});

test("kill -9 while the receiver is down, restart two workers, bring the receiver up: every delivery completes exactly once", async () => {
  const api = client(cluster.testKey, cluster.url);
  const endpoints = [];
  for (let i = 0; i < ENDPOINTS; i++) endpoints.push(await createEndpoint(api, { url: rx.url(`/down/${i}`), events: ["product.created"] }));
  for (let i = 0; i < PRODUCTS; i++) {
    const res = await api.post("/v1/products", { name: `Crash ${i}`, type: "API" });
    assert.equal(res.status, 201, res.text);
  }
  // Kill at once: some attempts made and recorded as failed, others claimed or not yet touched.
  await kill9(cluster.child);

  const [a, b] = await Promise.all([cluster.startAnother(), cluster.startAnother()]);
  const api2 = client(cluster.testKey, a.url);
  // Nothing was lost with the process.
  let total = 0;
  for (const w of endpoints) {
    const list = await deliveriesOf(api2, w.id);
    assert.equal(list.length, PRODUCTS, `${w.id}: ${list.length} deliveries after the crash`);
    assert.ok(
      list.every((d) => d.status === "pending" || d.status === "retrying"),
      JSON.stringify(list.map((d) => d.status)),
    );
    total += list.length;
  }
  assert.equal(total, ENDPOINTS * PRODUCTS);
  assert.equal(rx.requests.length, 0);

  // The receiver comes up; both new workers move past every retry wait and lease (60 s) and deliver.
  await rx.up();
  await Promise.all([a.setOffset(BASE + 2 * 60_000), b.setOffset(BASE + 2 * 60_000)]);
  for (const w of endpoints)
    await waitForDeliveries(api2, w.id, (l) => l.length === PRODUCTS && l.every((d) => d.status === "success"), 60_000);
  await sleep(1500); // room for a duplicate to show up

  const counts = answeredCounts(rx);
  assert.equal(counts.size, ENDPOINTS * PRODUCTS, "every delivery reached the receiver");
  const dupes = [...counts].filter(([, n]) => n !== 1);
  assert.deepEqual(dupes, [], "a delivery was answered more than once");
  assert.equal(rx.requests.length, ENDPOINTS * PRODUCTS, "a delivery was sent more than once");
  // Both workers took part (they share the database and claim with leases); the API still answers on either.
  assert.equal((await client(cluster.testKey, b.url).get(`/v1/webhooks/${endpoints[0].id}/deliveries?status=success&limit=1`)).status, 200);
  for (const w of endpoints) assert.equal((await api2.delete(`/v1/webhooks/${w.id}`)).status, 204); // not part of the next test
  await Promise.all([kill9(a.child), kill9(b.child)]);
});

test("kill -9 with attempts in flight: the leases end, a new server sends each delivery again and it completes once", async () => {
  // The previous test's servers are gone; one starts for this test.
  const first: PlatformProcess = await cluster.startAnother();
  await first.setOffset(BASE + 10 * 60_000);
  const api = client(cluster.testKey, first.url);
  rx.route("/hang", { kind: "hang" });
  // A fresh process loads each route on first use; warmed first, the eight creations below take well under 10 s.
  assert.equal((await api.post("/v1/products", { name: "warm-up", type: "API" })).status, 201);
  const w = await createEndpoint(api, { url: rx.url("/hang"), events: ["product.created"] });
  await deliveriesOf(api, w.id);
  // All at once, so that every attempt is in flight (the receiver holding all eight unanswered) well within the
  // 10 s an attempt may take.
  const made = await Promise.all(Array.from({ length: 8 }, (_, i) => api.post("/v1/products", { name: `Hang ${i}`, type: "API" })));
  assert.deepEqual(
    made.map((r) => r.status),
    Array(8).fill(201),
  );
  await rx.waitFor(8, (r) => r.path === "/hang", 20_000);
  await kill9(first.child);

  rx.route("/hang", { kind: "ok" });
  const next = await cluster.startAnother();
  const api2 = client(cluster.testKey, next.url);
  // The crash lost none and recorded none of the cut attempts.
  const atCrash = await deliveriesOf(api2, w.id);
  assert.equal(atCrash.length, 8);
  assert.ok(
    atCrash.every((d) => d.status === "pending" && d.attempts === 0),
    `state after the crash: ${JSON.stringify(atCrash.map((d) => [d.status, d.attempts, d.error]))}`,
  );
  // The killed worker claimed them just before they arrived, for 60 s of its clock. Before that lease ends nobody
  // touches them...
  const leaseEnd = Math.min(...rx.at("/hang").map((r) => r.receivedAt)) + BASE + 10 * 60_000 + 60_000;
  await next.setOffset(leaseEnd - 15_000 - Date.now());
  await sleep(1000);
  assert.equal(rx.at("/hang").length, 8, "a delivery still under another worker's lease was sent");
  // ... after it, each is sent once more and completes.
  await next.setOffset(leaseEnd + 5_000 - Date.now());
  const done = await waitForDeliveries(api2, w.id, (l) => l.length === 8 && l.every((d) => d.status === "success"), 60_000);
  await sleep(1000);
  assert.ok(
    done.every((d) => d.attempts === 1),
    "the killed attempts were never recorded, the new ones were",
  );
  const answered = rx.at("/hang").filter((r) => r.answered !== null);
  assert.equal(answered.length, 8);
  assert.equal(new Set(answered.map((r) => r.headers["webhook-id"])).size, 8, "a delivery was answered twice");
  // At-least-once, as the docs say: the receiver saw each delivery twice (the unanswered request cut by the
  // crash, then the retry), with the same webhook-id to deduplicate on.
  assert.equal(rx.at("/hang").length, 16);
  await kill9(next.child);
});
