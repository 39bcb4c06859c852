// The billing cycle walked through with the test clock: a server of its own (startClockServer) whose clock the
// test moves past period ends and payment retry times, running the scheduled jobs at each stop
// (POST /api/test-clock {"runJobs": true}). Invoices are finalised by the job, their lines add up to the costs the
// product calls were told and to the CSV of their usage events; failed payments retry 1, 3 and 5 days later with
// the subscription past_due and served, the fourth failure makes it unpaid and refused (402), and a new card pays.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { client, type ApiClient } from "../helpers/api";
import { clockMover, startClockServer, type ClockServer } from "../helpers/receiver";

const DAY = 86_400_000;
// INVOICE_GRACE_HOURS' default: a closed period's invoice is a draft this long, then finalised and charged.
const GRACE = 3_600_000;
let server: ClockServer;
let api: ApiClient;

const { moveTo } = clockMover(() => server.url);

async function newPrice(body: Record<string, unknown>) {
  const product = await api.post("/v1/products", { name: "Metered API", type: "API" });
  const price = await api.post(`/v1/products/${product.body.data.id}/prices`, { name: "Plan", currency: "USD", ...body });
  assert.equal(price.status, 201, price.text);
  return price.body.data;
}

/** One call of the product (the business verifies its own key for its own product): its announced cost, or null. */
async function productCall(productId: string): Promise<string | null> {
  const res = await api.post("/v1/keys/verify", { key: server.testKey, product: productId });
  assert.equal(res.status, 200, res.text);
  return res.body.data.cost?.amount ?? null;
}

const invoicesOf = async (subId: string) => (await api.get(`/v1/invoices?subscriptionId=${subId}&sort=periodStart`)).body.data;
const eventTypes = async () =>
  (await api.get("/v1/events?limit=100&sort=createdAt")).body.data.map((e: { type: string }) => e.type) as string[];
const sumDecimals = (values: string[]) => {
  // Exact: decimal strings added as integers of 10^-9.
  const nanos = values.reduce((s, v) => {
    const [w, f = ""] = v.split(".");
    return s + BigInt(w) * 1_000_000_000n + BigInt((f + "000000000").slice(0, 9));
  }, 0n);
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "");
  return `${nanos / 1_000_000_000n}${frac ? `.${frac}` : ""}`;
};

before(async () => {
  server = await startClockServer();
  api = client(server.testKey, server.url);
});
after(async () => {
  await server?.stop();
});

test("the job finalises the period: tiered lines equal the announced costs and the CSV, the card pays, the subscription renews", async () => {
  const price = await newPrice({
    type: "usage",
    tiers: [
      { upTo: 3, amount: 0.1 },
      { upTo: null, amount: 0.0125 },
    ],
  });
  const created = await api.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4242424242424242" } } });
  assert.equal(created.status, 201, created.text);
  const sub = created.body.data;
  const announced: (string | null)[] = [];
  for (let i = 0; i < 9; i++) announced.push(await productCall(price.productId));
  assert.deepEqual(
    announced,
    ["0.1", "0.1", "0.1", "0.0125", "0.0125", "0.0125", "0.0125", "0.0125", "0.0125"],
    "graduated: three at 0.10, then 0.0125",
  );
  // Control-plane calls in the period are not the product's: the invoice counts the nine calls only.
  await api.get("/v1/products?limit=1");
  const upcoming = (await api.get("/v1/invoices/upcoming")).body.data;
  assert.equal(upcoming.status, "upcoming");
  assert.equal((await invoicesOf(sub.id)).length, 0, "nothing is finalised before the period ends");

  const periodEnd = Date.parse(sub.currentPeriodEnd);
  await moveTo(periodEnd + 60_000);
  const [draft] = await invoicesOf(sub.id);
  assert.equal(draft?.status, "draft", "in its grace the period's invoice is a draft");
  assert.equal(draft.finalizesAt, new Date(periodEnd + GRACE).toISOString(), "a draft says when it will be finalised");
  assert.equal(draft.finalizedAt, null, "a draft is not final yet: finalizedAt is null, as Stripe's finalized_at");
  await moveTo(periodEnd + GRACE + 60_000);
  const [invoice] = await invoicesOf(sub.id);
  assert.ok(invoice, "the scheduled job wrote the invoice");
  assert.equal(invoice.periodStart, sub.currentPeriodStart);
  assert.equal(invoice.periodEnd, sub.currentPeriodEnd);
  assert.equal(invoice.status, "paid");
  assert.equal(invoice.finalizesAt, null, "a final invoice has no due time for finalising");
  assert.ok(Date.parse(invoice.finalizedAt) >= periodEnd + GRACE, "finalizedAt is when it became final");
  const line = invoice.lines[0];
  assert.equal(line.quantity, 9);
  assert.equal(line.tiersMode, "graduated");
  assert.deepEqual(
    line.tiers.map((t: { quantity: number }) => t.quantity),
    [3, 6],
  );
  assert.equal(line.exactAmount, "0.375");
  assert.equal(line.amount, 38, "0.375 rounds half up to 38 cents");
  assert.equal(invoice.total, 38);
  assert.equal(sumDecimals(announced as string[]), line.exactAmount, "what the calls were told adds up to the line");

  const csv = await api.get(line.usage.csv);
  assert.equal(csv.status, 200);
  assert.match(csv.headers.get("content-type")!, /^text\/csv/);
  const rows = csv.text
    .trim()
    .split("\n")
    .map((r) => r.split(","));
  assert.deepEqual(rows[0], ["event_id", "timestamp", "method", "endpoint", "status_code", "api_key", "quantity", "cost", "currency"]);
  const events = rows.slice(1, -2);
  assert.equal(events.length, 9);
  assert.ok(events.every((r) => r[0].startsWith("use_")));
  assert.equal(sumDecimals(events.map((r) => r[7])), line.exactAmount, "the CSV's costs add up to the line exactly");
  assert.deepEqual(rows.at(-2)!.slice(6, 8), ["9", "0.375"]);
  assert.deepEqual(rows.at(-1)!.slice(7, 8), ["0.38"]);

  const full = (await api.get(`/v1/invoices/${invoice.id}`)).body.data;
  assert.deepEqual(
    full.payments.map((p: { status: string; amount: number }) => [p.status, p.amount]),
    [["succeeded", 38]],
  );
  const renewed = (await api.get(`/v1/subscriptions/${sub.id}`)).body.data;
  assert.equal(renewed.status, "active");
  assert.equal(renewed.currentPeriodStart, sub.currentPeriodEnd);
  assert.ok(Date.parse(renewed.currentPeriodEnd) > periodEnd + 27 * DAY);
  const types = await eventTypes();
  for (const t of ["subscription.created", "subscription.renewed", "payment.succeeded"]) assert.ok(types.includes(t), t);

  // Running the job again finalises nothing twice.
  await moveTo(periodEnd + GRACE + 120_000);
  assert.equal((await invoicesOf(sub.id)).length, 1);

  // Cancel at the end of the new period: a last invoice, then canceled.
  assert.equal((await api.post(`/v1/subscriptions/${sub.id}/cancel`, { atPeriodEnd: true })).status, 200);
  await moveTo(Date.parse(renewed.currentPeriodEnd) + 60_000);
  const ended = (await api.get(`/v1/subscriptions/${sub.id}`)).body.data;
  assert.equal(ended.status, "canceled");
  assert.equal(ended.endedAt, renewed.currentPeriodEnd);
  assert.equal((await invoicesOf(sub.id)).length, 2);
  assert.ok((await eventTypes()).includes("subscription.canceled"));
  assert.equal(await productCall(price.productId), null, "no longer rated");
});

test("a failing card: past_due and still served while retried 1, 3 and 5 days later; unpaid and refused with 402 after the last; a new card pays at once", async () => {
  const price = await newPrice({
    type: "subscription",
    baseSubscription: { amount: 20, interval: "month", includedQuota: 1000 },
    overageRate: 0.01,
  });
  const created = await api.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4000000000000341" } } });
  assert.equal(created.status, 201, created.text);
  const sub = created.body.data;
  const end = Date.parse(sub.currentPeriodEnd);
  const status = async () => (await api.get(`/v1/subscriptions/${sub.id}`)).body.data.status;
  const verify = async () => (await api.post("/v1/keys/verify", { key: server.testKey, product: price.productId })).body.data;

  await moveTo(end + GRACE + 60_000);
  let [inv] = await invoicesOf(sub.id);
  assert.equal(inv.status, "open");
  assert.equal(inv.total, 2000);
  assert.equal(inv.attemptCount, 1);
  const first = Date.parse(inv.nextPaymentAttempt);
  assert.ok(Math.abs(first - (end + GRACE + 60_000 + DAY)) < 30_000, "retry one day after the invoice was finalised");
  const failed = (await api.get("/v1/events?type=payment.failed")).body.data;
  assert.equal(failed.length, 1);
  assert.equal(failed[0].data.failureCode, "card_declined");
  assert.equal(failed[0].data.lastAttempt, false);
  assert.equal(await status(), "past_due", "the first failure");
  assert.equal((await verify()).code, "VALID", "a past_due subscription is served while its charge is retried");

  // Just before the retry nothing happens; just after it, the second attempt.
  await moveTo(first - 60_000);
  assert.equal((await invoicesOf(sub.id))[0].attemptCount, 1);
  await moveTo(first + 60_000);
  [inv] = await invoicesOf(sub.id);
  assert.equal(inv.attemptCount, 2);
  const second = Date.parse(inv.nextPaymentAttempt);
  assert.ok(Math.abs(second - (first + 60_000 + 3 * DAY)) < 30_000, "then three days later");

  await moveTo(second + 60_000);
  [inv] = await invoicesOf(sub.id);
  assert.equal(inv.attemptCount, 3);
  assert.equal(await status(), "past_due", "still retrying");
  const third = Date.parse(inv.nextPaymentAttempt);
  assert.ok(Math.abs(third - (second + 60_000 + 5 * DAY)) < 30_000, "then five days later");

  await moveTo(third + 60_000);
  [inv] = await invoicesOf(sub.id);
  assert.equal(inv.attemptCount, 4);
  assert.equal(inv.status, "open", "the invoice stays open, to be paid");
  assert.equal(inv.nextPaymentAttempt, null, "no retry after the last");
  const failures = (await api.get("/v1/events?type=payment.failed&sort=createdAt")).body.data;
  assert.equal(failures.length, 4);
  assert.equal(failures[3].data.lastAttempt, true);
  assert.equal(await status(), "unpaid", "every retry failed");
  const statusEvents = (await api.get(`/v1/events?type=subscription.updated&sort=createdAt`)).body.data
    .filter((e: { data: { id: string } }) => e.data.id === sub.id)
    .map((e: { data: { status: string }; previousAttributes?: { status?: string } }) => e.data.status);
  assert.deepEqual(statusEvents.slice(-2), ["past_due", "unpaid"]);

  // Refused at once, naming the invoice and where to pay it: key verification and meter events.
  const refused = await verify();
  assert.deepEqual([refused.valid, refused.code], [false, "SUBSCRIPTION_UNPAID"]);
  const metered = await api.post("/v1/meter-events", { product: price.productId, key: server.testKey, quantity: 1 });
  assert.equal(metered.status, 402, metered.text);
  assert.equal(metered.body.error.code, "SUBSCRIPTION_UNPAID");
  assert.equal(metered.body.error.invoice, inv.id);
  assert.equal(metered.body.error.amountDue, 2000);
  assert.equal(metered.body.error.payUrl, `/portal/subscriptions/${sub.id}`);

  // A new card charges the open invoice before the PATCH returns, and the very next call is served.
  const patched = await api.patch(`/v1/subscriptions/${sub.id}`, { paymentMethod: { card: { number: "4242424242424242" } } });
  assert.equal(patched.status, 200, patched.text);
  assert.equal(patched.body.data.status, "active", "paid: active again");
  assert.equal((await invoicesOf(sub.id))[0].status, "paid");
  assert.equal((await verify()).code, "VALID", "served again at once");
  const renewed = patched.body.data;
  await moveTo(Date.parse(renewed.currentPeriodEnd) + GRACE + 60_000);
  const invoices = await invoicesOf(sub.id);
  assert.equal(invoices.length, 2);
  assert.equal(invoices[1].status, "paid");
  assert.equal(await status(), "active");
});
