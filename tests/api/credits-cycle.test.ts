// Credits across periods, with the test clock (a server of its own, startClockServer): a postpaid invoice takes
// the credits first ("Credits applied", the ledger's `invoice` entry in the same transaction), a prepaid plan's
// invoice shows its usage paid from credits, and a grant past its expiresAt lapses with what is left of it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { client, type ApiClient } from "../helpers/api";
import { clockMover, startClockServer, type ClockServer } from "../helpers/receiver";
import { TEST_CARD } from "../helpers/marketplace";

const DAY = 86_400_000;
let server: ClockServer;
let api: ApiClient;

const { moveTo, now: serverNow } = clockMover(() => server.url);

/** A product of the server's business with one price, and the business's own subscription to it. */
async function subscribed(price: Record<string, unknown>) {
  const product = (await api.post("/v1/products", { name: `Credits ${Math.random().toString(36).slice(2, 7)}`, type: "API" })).body.data;
  const created = await api.post(`/v1/products/${product.id}/prices`, { name: "Plan", type: "usage", currency: "USD", ...price });
  assert.equal(created.status, 201, created.text);
  const sub = await api.post("/v1/subscriptions", { priceId: created.body.data.id, paymentMethod: TEST_CARD });
  assert.equal(sub.status, 201, sub.text);
  return { productId: product.id as string, sub: sub.body.data };
}

async function calls(productId: string, n: number) {
  for (let i = 0; i < n; i++) {
    const res = await api.post("/v1/keys/verify", { key: server.testKey, product: productId });
    assert.equal(res.body.data.valid, true, res.text);
  }
}

const creditsOf = async (subId: string) => (await api.get(`/v1/subscriptions/${subId}/credits`)).body.data;
const invoiceOf = async (subId: string) => (await api.get(`/v1/invoices?subscriptionId=${subId}`)).body.data[0];

before(async () => {
  server = await startClockServer();
  api = client(server.testKey, server.url);
});
after(async () => {
  await server?.stop();
});

test("a postpaid invoice takes the credits first; a prepaid one shows its usage paid from credits", async () => {
  const postpaid = await subscribed({ amount: 0.01 });
  const grant = await api.post(`/v1/customers/${server.businessId}/credits`, {
    subscription: postpaid.sub.id,
    amount: 0.05,
    note: "Launch credit",
  });
  assert.equal(grant.status, 201, grant.text);
  await calls(postpaid.productId, 10);

  const prepaid = await subscribed({ amount: 0.01, billing: "prepaid" });
  assert.equal((await api.post(`/v1/subscriptions/${prepaid.sub.id}/credits`, { amount: 1 })).status, 201);
  await calls(prepaid.productId, 7);

  // Past the period's end and its grace (INVOICE_GRACE_HOURS, 1 by default): the invoices are finalised.
  await moveTo(Date.parse(postpaid.sub.currentPeriodEnd) + 3_600_000 + 60_000);

  const inv = await invoiceOf(postpaid.sub.id);
  assert.ok(inv, "the period's invoice");
  const credit = inv.lines.find((l: { type: string }) => l.type === "credits");
  assert.deepEqual([credit.description, credit.amount, credit.exactAmount], ["Credits applied", -5, "-0.05"]);
  assert.equal(inv.subtotal, 10);
  assert.equal(inv.total, 5, "what is left after the credits is due");
  const after = await creditsOf(postpaid.sub.id);
  assert.equal(after.balance, "0");
  const ledger = (await api.get(`/v1/subscriptions/${postpaid.sub.id}/credit-ledger?limit=100`)).body.data;
  const applied = ledger.find((e: { type: string }) => e.type === "invoice");
  assert.deepEqual([applied.amount, applied.invoiceId], ["-0.05", inv.id]);

  const pre = await invoiceOf(prepaid.sub.id);
  const paid = pre.lines.find((l: { type: string }) => l.type === "credits");
  assert.deepEqual([paid.description, paid.amount], ["Paid from prepaid credits", -7]);
  assert.equal(pre.subtotal, 7);
  assert.equal(pre.total, 0);
  assert.equal(pre.status, "paid", "nothing is due, nothing is charged");
  assert.equal((await creditsOf(prepaid.sub.id)).balance, "0.93", "the burns stay the ledger's: no second debit for the invoice");
});

test("a grant lapses at expiresAt with what is left of it, after the calls have spent it first", async () => {
  const { productId, sub } = await subscribed({ amount: 0.1, billing: "prepaid" });
  const now = serverNow();
  const expiresAt = new Date(now + 2 * DAY).toISOString();
  await api.post(`/v1/customers/${server.businessId}/credits`, { subscription: sub.id, amount: 1, note: "Lasting" });
  const soon = await api.post(`/v1/customers/${server.businessId}/credits`, {
    subscription: sub.id,
    amount: 0.5,
    note: "Trial",
    expiresAt,
  });
  assert.equal(soon.status, 201, soon.text);
  await calls(productId, 2);
  const before = await creditsOf(sub.id);
  assert.equal(before.balance, "1.3");
  const trial = before.grants.find((g: { note: string }) => g.note === "Trial");
  assert.deepEqual([trial.remaining, trial.expired], ["0.3", null]);

  await moveTo(now + 3 * DAY);
  const after = await creditsOf(sub.id);
  assert.equal(after.balance, "1", "the trial's 0.3 left lapsed; the lasting grant is whole");
  assert.equal(after.expired, "0.3");
  const lapsed = after.grants.find((g: { note: string }) => g.note === "Trial");
  assert.deepEqual([lapsed.remaining, lapsed.expired], ["0", "0.3"]);
  const ledger = (await api.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100`)).body.data;
  const expiry = ledger.filter((e: { type: string }) => e.type === "expiry");
  assert.equal(expiry.length, 1);
  assert.equal(expiry[0].amount, "-0.3");
  assert.equal(expiry[0].grantId, trial.id);
  // The job again finds nothing more to expire.
  await moveTo(now + 3 * DAY + 60_000);
  assert.equal(
    (await api.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100`)).body.data.filter((e: { type: string }) => e.type === "expiry")
      .length,
    1,
  );
  // Calls now spend the lasting grant.
  await calls(productId, 1);
  assert.equal((await creditsOf(sub.id)).balance, "0.9");
});

test("late usage in the grace: an event dated in the closed period and an amendment reach the finalised invoice, audited", async () => {
  const { productId, sub } = await subscribed({ amount: 0.01 });
  const first = await api.post("/v1/meter-events", { product: productId, subscription: sub.id, quantity: 5 });
  assert.equal(first.status, 201, first.text);
  const end = Date.parse(sub.currentPeriodEnd);

  await moveTo(end + 60_000);
  const draft = await invoiceOf(sub.id);
  assert.deepEqual([draft.status, draft.total], ["draft", 5], "in its grace the invoice is a draft");
  // Reported late, dated in the closed period: taken, rated against that period.
  const late = await api.post("/v1/meter-events", {
    product: productId,
    subscription: sub.id,
    quantity: 3,
    timestamp: new Date(end - 3_600_000).toISOString(),
  });
  assert.equal(late.status, 201, late.text);
  assert.equal(late.body.data.cost.amount, "0.03");
  const amended = await api.post(`/v1/meter-events/${first.body.data.id}/amend`, { quantity: 2, reason: "Over-reported" });
  assert.equal(amended.status, 201, amended.text);

  await moveTo(end + 3_600_000 + 60_000);
  const final = await invoiceOf(sub.id);
  assert.equal(final.id, draft.id);
  assert.notEqual(final.status, "draft");
  const usage = final.lines.find((l: { type: string }) => l.type === "usage");
  assert.equal(usage.quantity, 5, "2 (amended from 5) + 3 reported late");
  assert.equal(final.total, 5);
  // The audit log is written off the request's path (a short queue): read until it is there.
  let audit: { action: string; details: { reason: string } }[] = [];
  for (let i = 0; i < 50 && !audit.length; i++) {
    audit = (await api.get(`/v1/audit-logs?targetId=${first.body.data.id}`)).body.data ?? [];
    if (!audit.length) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(audit[0]?.action, "usage.amended");
  assert.equal(audit[0]?.details.reason, "Over-reported");

  // Finalised: a correction is refused naming the invoice, and the period takes no more usage.
  const refused = await api.post(`/v1/meter-events/${late.body.data.id}/void`, { reason: "too late" });
  assert.equal(refused.status, 409, refused.text);
  assert.equal(refused.body.error.code, "USAGE_INVOICED");
  assert.equal(refused.body.error.invoiceId, final.id);
  const tooLate = await api.post("/v1/meter-events", {
    product: productId,
    subscription: sub.id,
    quantity: 1,
    timestamp: new Date(end - 60_000).toISOString(),
  });
  assert.equal(tooLate.status, 400);
  assert.equal(tooLate.body.error.field, "timestamp");
});
