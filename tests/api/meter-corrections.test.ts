// Corrected usage with an audit trail (issue 40): a provider amends or voids a meter event of the open period; the
// original is kept and marked, the correction is an event of the difference that references it, the invoice so far
// follows, both businesses' audit logs say who, when and why, and usage.amended reaches both sides' webhooks. Once
// the period is invoiced a correction is a 409 naming the invoice. Backfill takes many events, each on its own.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { expectError, seedBusiness } from "../helpers/api";
import { db, poll } from "../helpers/usage-db";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { createEndpoint, startReceiver, type Receiver } from "../helpers/receiver";

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
});

async function setup(price: Record<string, unknown> = {}) {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { product, price: p } = await publishApiProduct(a.test, { upstreamUrl: "http://127.0.0.1:9", price: { amount: 0.01, ...price } });
  const sub = await subscribe(b.test, p.id);
  return { a, b, product, sub };
}

test("amend and void: the original kept, corrections referencing it, the invoice following, audited and announced", async () => {
  const { a, b, product, sub } = await setup();
  await createEndpoint(a.test, { url: receiver.url(`/amend-provider-${a.businessId}`), events: ["usage.amended"] });
  await createEndpoint(b.test, { url: receiver.url(`/amend-consumer-${b.businessId}`), events: ["usage.*"] });
  const reported = await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 10, identifier: "job-1" });
  assert.equal(reported.status, 201, reported.text);
  const original = reported.body.data;
  assert.equal(original.cost.amount, "0.1");

  const amended = await a.test.post(`/v1/meter-events/${original.id}/amend`, { quantity: 4, reason: "Double-counted retries" });
  assert.equal(amended.status, 201, amended.text);
  assert.equal(amended.body.data.correctionOf, original.id);
  assert.equal(amended.body.data.quantity, -6);
  assert.equal(amended.body.data.cost.amount, "-0.06");
  assert.equal(amended.body.data.reason, "Double-counted retries");
  const kept = await db.usageEvent.findFirst({ where: { id: original.id } });
  assert.equal(kept?.quantity, 10, "the original is kept as it was reported");
  assert.equal(kept?.correctedBy, amended.body.data.id);

  const total = async () => (await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`)).body.data;
  const upcoming = await total();
  assert.equal(upcoming.lines.find((l: { type: string }) => l.type === "usage").quantity, 4);
  assert.equal(upcoming.total, 4);

  const voided = await a.test.post(`/v1/meter-events/${original.id}/void`, { reason: "Test traffic" });
  assert.equal(voided.status, 201, voided.text);
  assert.equal(voided.body.data.quantity, -4);
  assert.equal((await total()).total, 0);

  // Both sides hear of each correction; both audit logs say who, when and why.
  const consumerSeen = await receiver.waitFor(2, (r) => r.path === `/amend-consumer-${b.businessId}`);
  const providerSeen = await receiver.waitFor(2, (r) => r.path === `/amend-provider-${a.businessId}`);
  const payload = JSON.parse(consumerSeen[0].body);
  assert.equal(payload.type, "usage.amended");
  assert.deepEqual(payload.data.quantity, { from: 10, to: 4, difference: -6 });
  assert.equal(payload.data.reason, "Double-counted retries");
  assert.equal(providerSeen.length, 2);
  for (const side of [a, b]) {
    const entries = await poll(async () => {
      const r = await side.test.get(`/v1/audit-logs?targetId=${original.id}`);
      return r.body.data?.length === 2 ? r.body.data : null;
    });
    assert.ok(entries, "two audit entries for the event");
    const actions = entries.map((e: { action: string }) => e.action).sort();
    assert.deepEqual(actions, ["usage.amended", "usage.voided"]);
    assert.equal(entries.find((e: { action: string }) => e.action === "usage.amended").details.reason, "Double-counted retries");
  }

  // Refusals: a correction is not corrected itself, another business's event is not found, a reason is required.
  expectError(await a.test.post(`/v1/meter-events/${amended.body.data.id}/amend`, { quantity: 1, reason: "x" }), 409, "STATE_CONFLICT");
  expectError(await b.test.post(`/v1/meter-events/${original.id}/void`, { reason: "mine?" }), 404, "RESOURCE_NOT_FOUND");
  expectError(await a.test.post(`/v1/meter-events/${original.id}/amend`, { quantity: 1 }), 400, "MISSING_REQUIRED_FIELD");
  expectError(await a.test.post(`/v1/meter-events/${original.id}/amend`, { quantity: -1, reason: "x" }), 400, "INVALID_FIELD");
});

test("after the period is invoiced a correction is a 409 naming the invoice", async () => {
  const { a, b, product, sub } = await setup();
  const reported = (await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 3 })).body.data;
  const canceled = await b.test.post(`/v1/subscriptions/${sub.id}/cancel`, {});
  assert.equal(canceled.status, 200, canceled.text);
  const invoice = (await b.test.get(`/v1/invoices?subscriptionId=${sub.id}`)).body.data[0];
  assert.ok(invoice, "the final invoice");
  const refused = expectError(
    await a.test.post(`/v1/meter-events/${reported.id}/amend`, { quantity: 1, reason: "late fix" }),
    409,
    "USAGE_INVOICED",
  );
  assert.equal(refused.invoiceId, invoice.id);
  assert.match(refused.suggestion ?? "", /credits/);
});

test("a void on a prepaid plan gives the credits back", async () => {
  const { a, b, product, sub } = await setup({ billing: "prepaid" });
  assert.equal((await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 1 })).status, 201);
  const e = (await a.test.post("/v1/meter-events", { product: product.id, subscription: sub.id, quantity: 20 })).body.data;
  assert.equal((await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data.balance, "0.8");
  assert.equal((await a.test.post(`/v1/meter-events/${e.id}/void`, { reason: "Refund" })).status, 201);
  const view = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
  assert.equal(view.balance, "1");
  const ledger = (await b.test.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100`)).body.data;
  assert.deepEqual(
    ledger.filter((x: { type: string }) => x.type !== "purchase").map((x: { type: string; amount: string }) => [x.type, x.amount]),
    [
      ["refund", "0.2"],
      ["burn", "-0.2"],
    ],
  );
});

test("backfill: many events at once, duplicates by identifier counted once, each refusal on its own", async () => {
  const { a, product, sub } = await setup();
  const at = new Date().toISOString();
  const res = await a.test.post("/v1/meter-events/backfill", {
    events: [
      { product: product.id, subscription: sub.id, quantity: 2, identifier: "b-1", timestamp: at },
      { product: product.id, subscription: sub.id, quantity: 5, identifier: "b-1", timestamp: at },
      { product: product.id, subscription: sub.id, quantity: 1, identifier: "b-2", timestamp: "2001-01-01T00:00:00Z" },
      { product: product.id, subscription: sub.id, quantity: 3, identifier: "b-3" },
    ],
  });
  assert.equal(res.status, 200, res.text);
  const r = res.body.data;
  assert.deepEqual([r.created, r.duplicates, r.errors], [2, 1, 1]);
  assert.deepEqual(
    r.data.map((x: { status: string }) => x.status),
    ["created", "duplicate", "error", "created"],
  );
  assert.equal(r.data[1].event.quantity, 2, "the duplicate answers the event first recorded");
  assert.equal(r.data[2].error.field, "timestamp");
  expectError(await a.test.post("/v1/meter-events/backfill", { events: [] }), 400, "INVALID_FIELD");
  assert.equal(await db.usageEvent.count({ where: { subscriptionId: sub.id } }), 2);
});
