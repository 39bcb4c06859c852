// Real money through Stripe (issue 60), against the project's Stripe-compatible server (tests/helpers/stripe-server.ts,
// itself checked against the official SDK in tests/unit/stripe-server.test.ts): the platform runs with
// PAYMENT_PROVIDER=stripe and the official `stripe` client pointed at it (STRIPE_API_BASE), on a database and test
// clock of its own. A provider onboards (Connect), publishes a 0.002 USD/call plan with a 10 % platform fee; a consumer
// subscribes with pm_card_visa and makes 1,000 calls; the period closes and one PaymentIntent of 2.00 USD with an
// application fee of 20 and the provider's account as destination pays the invoice; earnings show 1.80 net. Then the
// webhook's defences (forged, stale, duplicated deliveries) and the reconciliation job's repair of a lost payment.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Stripe from "stripe";
import { client, type ApiClient } from "../helpers/api";
import { clockMover, startClockServer, testClockHeaders, type ClockServer } from "../helpers/receiver";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { signStripePayload, startStripeServer, type StripeServer } from "../helpers/stripe-server";
import { poll } from "../helpers/db";
import { startSmtpSink } from "../helpers/smtp-sink";

const exec = promisify(execFile);
const GRACE = 3_600_000;

let stripe: StripeServer;
let server: ClockServer;
let upstream: JsonUpstream;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let provider: ApiClient;
/** The provider's published product and price, from the first test. */
let listed: { productId: string; priceId: string; slug: string };
/** The first consumer's paid invoice (2.00 USD, 0.20 of it the platform's), from the first test. */
let paid: { invoiceId: string; consumer: ApiClient };
/** Every consumer the tests made, for the ledger's check. */
const consumers: ApiClient[] = [];

const { moveTo, now: serverNow } = clockMover(() => server.url);

/** Another business on the server's own database, as the CLI makes one (with an owner at `email`). */
async function bootstrap(name: string, email?: string) {
  const { stdout } = await exec(
    "node_modules/.bin/tsx",
    [
      "--conditions=react-server",
      "scripts/cli.ts",
      "bootstrap",
      "--business",
      name,
      "--plan",
      "enterprise",
      ...(email ? ["--email", email] : []),
      "--json",
    ],
    { env: { ...process.env, DATABASE_URL: server.databaseUrl }, timeout: 60_000 },
  );
  const boot = JSON.parse(stdout.trim().split("\n").at(-1)!);
  consumers.push(client(boot.testKey, server.url));
  return { ...boot, api: client(boot.testKey, server.url) } as { businessId: string; testKey: string; api: ApiClient };
}

before(async () => {
  stripe = await startStripeServer();
  upstream = await startJsonUpstream();
  smtp = await startSmtpSink();
  server = await startClockServer({
    PAYMENT_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_PUBLISHABLE_KEY: "pk_test_0123456789abcdef",
    STRIPE_API_BASE: stripe.url,
    PLATFORM_FEE_PERCENT: "10",
    EMAIL_SERVER: smtp.url,
  });
  stripe.setWebhookUrl(`${server.url}/webhooks/stripe`);
  provider = client(server.testKey, server.url);
});

after(async () => {
  await server?.stop();
  await stripe?.close();
  upstream?.close();
  await smtp?.close();
});

test("done when: Connect onboarding, a 2.00 USD destination charge with a 20-cent fee, paid by Stripe's word, 1.80 net", async () => {
  // The provider onboards: an Express account and Stripe's link; finishing there reaches us as account.updated.
  const started = await provider.post("/v1/payout-account");
  assert.equal(started.status, 201, started.text);
  assert.match(started.body.data.accountId, /^acct_/);
  assert.equal(started.body.data.chargesEnabled, false);
  assert.ok(started.body.data.requirements.currentlyDue.length > 0, "Stripe still requires details");
  const accountId = started.body.data.accountId;
  const created = stripe.objects.get(accountId);
  assert.equal(created.type, "express");
  assert.equal(created.metadata.business_id, server.businessId);
  const onboarding = await fetch(started.body.data.onboardingUrl, { redirect: "manual" });
  assert.equal(onboarding.status, 302);
  const ready = await poll(async () => {
    const view = (await provider.get("/v1/payout-account")).body.data;
    return view.chargesEnabled ? view : null;
  });
  assert.ok(ready, "account.updated made the account chargeable");
  assert.equal(ready.payoutsEnabled, true);
  assert.equal((await provider.post("/v1/payout-account")).body.data.accountId, accountId, "onboarding again keeps the one account");

  // A 0.002 USD/call plan, published.
  const product = await provider.post("/v1/products", { name: "Paid API", type: "API", api: { upstreamUrl: upstream.url } });
  assert.equal(product.status, 201, product.text);
  const price = await provider.post(`/v1/products/${product.body.data.id}/prices`, {
    name: "Per call",
    type: "usage",
    currency: "USD",
    amount: 0.002,
  });
  assert.equal(price.status, 201, price.text);
  const published = await provider.patch(`/v1/products/${product.body.data.id}`, { visibility: "public" });
  assert.equal(published.status, 200, published.text);
  const slug = published.body.data.slug;
  listed = { productId: product.body.data.id, priceId: price.body.data.id, slug };

  // The consumer: a card number is refused outright; Stripe's declined card is a 402 and nothing is stored.
  const consumer = await bootstrap("Paying consumer");
  const raw = await consumer.api.post("/v1/subscriptions", {
    priceId: price.body.data.id,
    paymentMethod: { card: { number: "4242424242424242" } },
  });
  assert.equal(raw.status, 400, raw.text);
  assert.equal(raw.body.error.code, "RAW_CARD_NOT_ACCEPTED");
  assert.equal(raw.body.error.field, "paymentMethod.card");
  const declined = await consumer.api.post("/v1/subscriptions", { priceId: price.body.data.id, paymentMethod: "pm_card_chargeDeclined" });
  assert.equal(declined.status, 402, declined.text);
  assert.equal(declined.body.error.declineCode, "generic_decline");
  assert.equal((await consumer.api.get("/v1/subscriptions")).body.data.length, 0);

  const subscribed = await consumer.api.post("/v1/subscriptions", { priceId: price.body.data.id, paymentMethod: "pm_card_visa" });
  assert.equal(subscribed.status, 201, subscribed.text);
  const sub = subscribed.body.data;
  assert.equal(sub.paymentMethod.last4, "4242");
  const customers = [...stripe.objects.values()].filter((o) => o.object === "customer" && o.metadata?.business_id === consumer.businessId);
  assert.equal(customers.length, 1, "one Stripe Customer for the consumer's business");
  assert.match(customers[0].invoice_settings.default_payment_method, /^pm_/);

  const key = await consumer.api.post("/v1/api-keys", { name: "calls", scopes: [`call:${product.body.data.id}`] });
  for (let i = 0; i < 1000; i += 50) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => fetch(`${server.url}/gw/${slug}/x`, { headers: { authorization: `Bearer ${key.body.data.key}` } })),
    );
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    await Promise.all(answers.map((a) => a.arrayBuffer()));
  }

  // The period closes: one PaymentIntent of 200 cents, 20 of them the platform's, to the provider's account.
  await moveTo(Date.parse(sub.currentPeriodEnd) + GRACE + 60_000);
  const intents = [...stripe.objects.values()].filter((o) => o.object === "payment_intent" && o.metadata?.invoice_id);
  assert.equal(intents.length, 1, "one PaymentIntent");
  const [intent] = intents;
  assert.deepEqual(
    [intent.amount, intent.currency, intent.application_fee_amount, intent.transfer_data?.destination, intent.status, intent.customer],
    [200, "usd", 20, accountId, "succeeded", customers[0].id],
  );
  const charge = stripe.requests.find((r) => r.path === "/v1/payment_intents" && r.method === "POST")!;
  assert.equal(charge.body.off_session, "true");
  assert.match(charge.idempotencyKey ?? "", /^inv_.+:1$/, "the invoice and the attempt are the idempotency key");

  const invoice = await poll(async () => {
    const [inv] = (await consumer.api.get(`/v1/invoices?subscriptionId=${sub.id}`)).body.data;
    return inv?.status === "paid" ? inv : null;
  });
  assert.ok(invoice, "the invoice is paid");
  assert.equal(invoice.id, intent.metadata.invoice_id);
  assert.equal(invoice.total, 200);
  // Stripe's payment_intent.succeeded reached the webhook and, the payment being already recorded, changed nothing twice.
  await stripe.flushDeliveries();
  const succeeded = stripe.events.find((e) => e.type === "payment_intent.succeeded" && e.data.object.id === intent.id);
  assert.ok(succeeded);
  const delivered = stripe.deliveries.filter((d) => d.eventId === succeeded.id);
  assert.deepEqual(
    delivered.map((d) => d.status),
    [200],
  );
  assert.equal((await consumer.api.get(`/v1/invoices/${invoice.id}`)).body.data.payments.length, 1);
  paid = { invoiceId: invoice.id, consumer: consumer.api };

  const earnings = await provider.get("/v1/earnings");
  assert.equal(earnings.status, 200, earnings.text);
  assert.equal(earnings.body.data.length, 1);
  const [earning] = earnings.body.data;
  assert.deepEqual(
    [earning.invoiceId, earning.gross, earning.platformFee, earning.refunded, earning.net, earning.netDecimal],
    [invoice.id, 200, 20, 0, 180, "1.80"],
  );
  assert.equal(earning.platformFee + earning.net, earning.gross - earning.refunded, "fee + net = charged − refunded");
  const month = new Date(serverNow()).toISOString().slice(0, 7);
  const summary = await provider.get(`/v1/earnings/summary?month=${month}`);
  assert.deepEqual(summary.body.data.totals, [
    { currency: "USD", invoices: 1, gross: 200, platformFee: 20, refunded: 0, net: 180, grossDecimal: "2.00", netDecimal: "1.80" },
  ]);
  const csv = await provider.get(`/v1/earnings/statement?month=${month}`);
  assert.match(csv.text, /^invoice_id,number,customer_id/);
  assert.match(csv.text, /\ntotal,,,,,USD,2\.00,0\.20,0\.00,1\.80,/);
});

test("a forged or replayed-out-of-tolerance delivery is refused and changes nothing; the same event twice is applied once", async () => {
  const event = {
    id: "evt_forged_1",
    object: "event",
    type: "account.updated",
    created: Math.floor(Date.now() / 1000),
    data: { object: { id: "acct_nobody", object: "account", charges_enabled: true, payouts_enabled: true } },
  };
  const body = JSON.stringify(event);
  const send = (signature: string, payload = body) =>
    fetch(`${server.url}/webhooks/stripe`, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      body: payload,
    });
  const forged = await send(signStripePayload(body, "whsec_not_the_secret"));
  assert.equal(forged.status, 400);
  assert.equal((await forged.json()).error.code, "INVALID_SIGNATURE");
  const stale = await send(signStripePayload(body, stripe.webhookSecret, Math.floor(Date.now() / 1000) - 600));
  assert.equal(stale.status, 400, "older than 300 s");
  const tampered = await send(signStripePayload(body, stripe.webhookSecret), body.replace("acct_nobody", "acct_someone"));
  assert.equal(tampered.status, 400);

  // A real event, delivered a second time: the second answers "duplicate".
  const real = stripe.events.find((e) => e.type === "account.updated");
  assert.ok(real, "onboarding sent account.updated");
  assert.equal(await stripe.deliver(real), 200);
  const again = await fetch(`${server.url}/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signStripePayload(JSON.stringify(real), stripe.webhookSecret) },
    body: JSON.stringify(real),
  });
  assert.equal(again.status, 200);
  assert.equal((await again.json()).outcome, "duplicate");
});

test("a payment Stripe made whose answer and event were both lost is recorded by the reconciliation job, once", async () => {
  assert.ok(listed, "the first test published the product");
  const consumer = await bootstrap("Failing card consumer");
  const subscribed = await consumer.api.post("/v1/subscriptions", { priceId: listed.priceId, paymentMethod: "pm_card_chargeCustomerFail" });
  assert.equal(subscribed.status, 201, subscribed.text);
  const sub = subscribed.body.data;
  const key = await consumer.api.post("/v1/api-keys", { name: "calls", scopes: [`call:${listed.productId}`] });
  // 300 calls: 0.60 USD, above Stripe's smallest charge in USD (0.50).
  for (let i = 0; i < 300; i += 50) {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${server.url}/gw/${listed.slug}/x`, { headers: { authorization: `Bearer ${key.body.data.key}` } }),
      ),
    );
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    await Promise.all(answers.map((a) => a.arrayBuffer()));
  }
  const periodClosed = Date.parse(sub.currentPeriodEnd) + GRACE + 60_000;
  await moveTo(periodClosed);
  const [listedInvoice] = (await consumer.api.get(`/v1/invoices?subscriptionId=${sub.id}`)).body.data;
  const open = (await consumer.api.get(`/v1/invoices/${listedInvoice.id}`)).body.data;
  assert.equal(open.status, "open", "the card failed: the invoice waits for its retry");
  assert.deepEqual(
    open.payments.map((p: { status: string; failureCode: string }) => [p.status, p.failureCode]),
    [["failed", "card_declined"]],
    `attempts ${open.attemptCount}; Stripe saw ${JSON.stringify(stripe.requests.slice(-3).map((r) => [r.method, r.path, r.body]))}`,
  );

  // As if a process had charged the invoice and died before its commit, with the event lost too: Stripe has a
  // succeeded PaymentIntent for the invoice that we never recorded.
  stripe.setAutoDeliver(false);
  const sdk = new Stripe(stripe.secretKey, { host: "127.0.0.1", port: stripe.port, protocol: "http", maxNetworkRetries: 0 });
  const customer = [...stripe.objects.values()].find((o) => o.object === "customer" && o.metadata?.business_id === consumer.businessId);
  const card = await sdk.paymentMethods.attach("pm_card_visa", { customer: customer.id });
  const intent = await sdk.paymentIntents.create({
    amount: open.total,
    currency: "usd",
    customer: customer.id,
    payment_method: card.id,
    confirm: true,
    off_session: true,
    metadata: { invoice_id: open.id, attempt: "2" },
  });
  assert.equal(intent.status, "succeeded");
  assert.equal((await consumer.api.get(`/v1/invoices/${open.id}`)).body.data.status, "open", "nothing told the platform yet");

  await moveTo(periodClosed + 60_000); // the jobs run, the reconciliation among them
  const repaired = (await consumer.api.get(`/v1/invoices/${open.id}`)).body.data;
  assert.equal(repaired.status, "paid");
  assert.equal(repaired.amountPaid, open.total);
  assert.deepEqual(repaired.payments.map((p: { status: string }) => p.status).sort(), ["failed", "succeeded"]);

  // The lost event arrives after all: it changes nothing, and the jobs again find nothing to repair.
  stripe.setAutoDeliver(true);
  const late = stripe.events.find((e) => e.type === "payment_intent.succeeded" && e.data.object.id === intent.id);
  assert.equal(await stripe.deliver(late), 200);
  await moveTo(periodClosed + 120_000);
  const after = (await consumer.api.get(`/v1/invoices/${open.id}`)).body.data;
  assert.equal(after.amountPaid, open.total, "paid once");
  assert.equal(after.payments.length, 2);
});

/** A consumer subscribed to the listed plan with `paymentMethod`, its calling key and its first period's end. */
async function subscriber(name: string, paymentMethod: string, email?: string) {
  const consumer = await bootstrap(name, email);
  const subscribed = await consumer.api.post("/v1/subscriptions", { priceId: listed.priceId, paymentMethod });
  assert.equal(subscribed.status, 201, subscribed.text);
  const key = (await consumer.api.post("/v1/api-keys", { name: "calls", scopes: [`call:${listed.productId}`] })).body.data.key as string;
  const call = async () => {
    const res = await fetch(`${server.url}/gw/${listed.slug}/x`, { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { ...consumer, sub: subscribed.body.data, call };
}

async function callTimes(call: () => Promise<{ status: number }>, n: number) {
  for (let i = 0; i < n; i += 50) {
    const statuses = await Promise.all(Array.from({ length: Math.min(50, n - i) }, async () => (await call()).status));
    assert.deepEqual([...new Set(statuses)], [200]);
  }
}

test("done when: a card that fails every charge goes through the retries to unpaid, is refused with 402, and pm_card_visa serves it again at once", async () => {
  const c = await subscriber("Failing consumer", "pm_card_chargeCustomerFail", "owner@failing.test");
  await callTimes(c.call, 300); // 0.60 USD, above Stripe's 0.50 minimum
  const invoiceOf = async () => (await c.api.get(`/v1/invoices?subscriptionId=${c.sub.id}`)).body.data[0];
  const status = async () => (await c.api.get(`/v1/subscriptions/${c.sub.id}`)).body.data.status;

  await moveTo(Date.parse(c.sub.currentPeriodEnd) + GRACE + 60_000);
  let inv = await invoiceOf();
  assert.deepEqual([inv.status, inv.total, inv.attemptCount], ["open", 60, 1]);
  assert.equal(await status(), "past_due");
  assert.equal((await c.call()).status, 200, "served while the charge is retried");
  // Through the retries (1, 3 and 5 days apart), each one a PaymentIntent of its own attempt.
  for (const attempt of [2, 3, 4]) {
    await moveTo(Date.parse(inv.nextPaymentAttempt) + 60_000);
    inv = await invoiceOf();
    assert.equal(inv.attemptCount, attempt);
  }
  assert.equal(inv.status, "open");
  assert.equal(inv.nextPaymentAttempt, null);
  assert.equal(await status(), "unpaid");
  const keys = stripe.requests
    .filter((r) => r.path === "/v1/payment_intents" && r.method === "POST" && r.body.metadata?.invoice_id === inv.id)
    .map((r) => r.idempotencyKey);
  assert.deepEqual(
    keys,
    [1, 2, 3, 4].map((n) => `${inv.id}:${n}`),
    "one PaymentIntent per attempt, keyed by it",
  );

  // Refused at once at the gateway, naming the invoice and where to pay it.
  const refused = await c.call();
  assert.equal(refused.status, 402);
  assert.equal(refused.body.error.code, "SUBSCRIPTION_UNPAID");
  assert.equal(refused.body.error.invoice, inv.id);
  assert.equal(refused.body.error.amountDue, 60);
  assert.equal(refused.body.error.payUrl, `${server.url}/portal/subscriptions/${c.sub.id}`);
  // Both sides see it: the consumer's events and the seller's.
  for (const side of [c.api, provider]) {
    const failures = (await side.get(`/v1/events?type=payment.failed&limit=100`)).body.data.filter(
      (e: { data: { invoiceId: string } }) => e.data.invoiceId === inv.id,
    );
    assert.deepEqual(
      failures.map((e: { data: { attempt: number } }) => e.data.attempt).sort(),
      [1, 2, 3, 4],
      JSON.stringify(failures.map((e: { data: unknown }) => e.data)),
    );
    // Stripe's words for people, without the SDK's request id prefix.
    assert.deepEqual(
      [...new Set(failures.map((e: { data: { failureMessage: string } }) => e.data.failureMessage))],
      ["Your card was declined."],
    );
  }

  // And the consumer's owner was told by e-mail at each failure, the last saying the calls are refused.
  const mails = await poll(async () => {
    const to = smtp.messages.filter((m) => m.to.includes("owner@failing.test"));
    return to.length >= 4 ? to : null;
  });
  assert.ok(mails, `mails: ${JSON.stringify(smtp.messages.map((m) => [m.to, m.subject]))}`);
  assert.deepEqual(
    mails.map((m) => /failed|unpaid/.exec(m.subject)?.[0]),
    ["failed", "failed", "failed", "unpaid"],
  );
  assert.ok(mails.every((m) => m.subject.includes(inv.number) && m.text.includes(`/portal/subscriptions/${c.sub.id}`)));

  // A new default card charges the open invoice before the call returns; the very next call is served.
  const added = await c.api.post("/v1/payment-methods", { paymentMethod: "pm_card_visa" });
  assert.equal(added.status, 201, added.text);
  assert.deepEqual(added.body.data.charged, [{ invoiceId: inv.id, outcome: "paid" }]);
  assert.equal((await c.call()).status, 200, "served again at once");
  assert.equal(await status(), "active");
  assert.equal((await invoiceOf()).status, "paid");
  const methods = (await c.api.get("/v1/payment-methods")).body.data;
  assert.deepEqual(
    methods.map((m: { brand: string; last4: string; default: boolean }) => [m.brand, m.last4, m.default]),
    [["visa", "4242", true]],
  );
});

test("refunds: part, then the rest; the seller's transfer and the platform's fee go back in proportion; both sides told once", async () => {
  const { invoiceId, consumer } = paid;
  // Only the seller refunds; the customer cannot.
  assert.equal((await consumer.post(`/v1/invoices/${invoiceId}/refunds`, { amount: 50 })).status, 404);
  const tooMuch = await provider.post(`/v1/invoices/${invoiceId}/refunds`, { amount: 201 });
  assert.equal(tooMuch.status, 400, tooMuch.text);
  assert.equal(tooMuch.body.error.field, "amount");

  // The administrator's report of the platform's fees: this invoice's 20 kept, until refunds give it back.
  const month = (await consumer.get(`/v1/invoices/${invoiceId}`)).body.data.payments[0].createdAt.slice(0, 7);
  const feeReport = async () => {
    const res = await fetch(`${server.url}/api/admin/platform-fees?month=${month}`, { headers: testClockHeaders });
    assert.equal(res.status, 200);
    const body = (await res.json()) as { totals: { currency: string; fees: number; feesRefunded: number; feesKept: number }[] };
    return body.totals.find((t) => t.currency === "USD")!;
  };
  const feesBefore = await feeReport();
  assert.equal(feesBefore.fees - feesBefore.feesRefunded, feesBefore.feesKept);
  assert.equal((await fetch(`${server.url}/api/admin/platform-fees?month=${month}`)).status, 401, "the administrator's only");
  assert.equal((await fetch(`${server.url}/api/admin/platform-fees?month=13`, { headers: testClockHeaders })).status, 400);

  const part = await provider.post(`/v1/invoices/${invoiceId}/refunds`, { amount: 50, reason: "requested_by_customer" });
  assert.equal(part.status, 201, part.text);
  assert.deepEqual([part.body.data.amount, part.body.data.status, part.body.data.reason], [50, "succeeded", "requested_by_customer"]);
  assert.match(part.body.data.stripeRefund, /^re_/);
  const asked = stripe.requests.find((r) => r.path === "/v1/refunds")!;
  assert.deepEqual(
    [asked.body.amount, asked.body.reverse_transfer, asked.body.refund_application_fee, asked.idempotencyKey],
    ["50", "true", "true", part.body.data.id],
  );
  await stripe.flushDeliveries(); // charge.refunded arrives after our commit and changes nothing twice

  const seen = (await consumer.get(`/v1/invoices/${invoiceId}`)).body.data;
  assert.equal(seen.amountRefunded, 50);
  assert.deepEqual(
    seen.refunds.map((r: { amount: number }) => r.amount),
    [50],
  );
  let [earning] = (await provider.get("/v1/earnings")).body.data.filter((e: { invoiceId: string }) => e.invoiceId === invoiceId);
  // 20 of fee on 200; a quarter refunded gives back a quarter of the fee: 15 kept, 135 net.
  assert.deepEqual([earning.gross, earning.refunded, earning.platformFee, earning.net], [200, 50, 15, 135]);

  const rest = await provider.post(`/v1/invoices/${invoiceId}/refunds`, {});
  assert.equal(rest.status, 201, rest.text);
  assert.equal(rest.body.data.amount, 150);
  await stripe.flushDeliveries();
  [earning] = (await provider.get("/v1/earnings")).body.data.filter((e: { invoiceId: string }) => e.invoiceId === invoiceId);
  assert.deepEqual([earning.refunded, earning.platformFee, earning.net], [200, 0, 0]);
  assert.equal(earning.platformFee + earning.net, earning.gross - earning.refunded);
  assert.equal((await provider.post(`/v1/invoices/${invoiceId}/refunds`, {})).status, 409, "nothing left to refund");
  const feesAfter = await feeReport();
  assert.deepEqual(
    [feesAfter.fees, feesAfter.feesRefunded - feesBefore.feesRefunded, feesBefore.feesKept - feesAfter.feesKept],
    [feesBefore.fees, 20, 20],
    "the fee given back in full",
  );

  // Stripe's books agree: the charge's refunded total is ours.
  const charge = [...stripe.objects.values()].find(
    (o) => o.object === "charge" && o.payment_intent === seen.payments[0].stripePaymentIntent,
  );
  assert.equal(charge?.amount_refunded, 200);
  assert.equal((await consumer.get(`/v1/invoices/${invoiceId}`)).body.data.amountRefunded, 200);
  for (const side of [consumer, provider]) {
    const told = (await side.get("/v1/events?type=payment.refunded&limit=100")).body.data.filter(
      (e: { data: { invoiceId: string } }) => e.data.invoiceId === invoiceId,
    );
    assert.equal(told.length, 2, "one payment.refunded per refund, to each side");
  }
  const listedRefunds = await consumer.get(`/v1/invoices/${invoiceId}/refunds`);
  assert.equal(listedRefunds.status, 200, listedRefunds.text);
  assert.deepEqual(
    listedRefunds.body.data.map((r: { amount: number }) => r.amount),
    [50, 150],
  );
});

test("authentication required: the invoice stays open, payment.action_required names where to pay, and /pay answers a client secret that Stripe.js confirms", async () => {
  const c = await subscriber("Consumer with 3-D Secure", "pm_card_authenticationRequired", "owner@3ds.test");
  await callTimes(c.call, 300);
  await moveTo(Date.parse(c.sub.currentPeriodEnd) + GRACE + 60_000);
  const [inv] = (await c.api.get(`/v1/invoices?subscriptionId=${c.sub.id}`)).body.data;
  assert.equal(inv.status, "open");
  const action = (await c.api.get("/v1/events?type=payment.action_required")).body.data.find(
    (e: { data: { invoiceId: string } }) => e.data.invoiceId === inv.id,
  );
  assert.ok(action, "payment.action_required");
  assert.equal(action.data.failureCode, "authentication_required");
  assert.equal(action.data.payUrl, `/portal/subscriptions/${c.sub.id}`);

  const asked = await poll(async () => smtp.messages.find((m) => m.to.includes("owner@3ds.test")) ?? null);
  assert.match(asked?.subject ?? "", /^Confirm your payment of 0\.60 USD for invoice /);

  const pay = await c.api.post(`/v1/invoices/${inv.id}/pay`);
  assert.equal(pay.status, 200, pay.text);
  assert.equal(pay.body.data.status, "requires_action");
  assert.match(pay.body.data.clientSecret, /^pi_.+_secret_/);
  assert.equal(pay.body.data.publishableKey, "pk_test_0123456789abcdef");
  // What Stripe.js does in the browser: confirm, the bank's challenge passed; Stripe's event settles the invoice.
  const intent = pay.body.data.paymentIntent;
  const confirm = await fetch(`${stripe.url}/v1/payment_intents/${intent}/confirm`, {
    method: "POST",
    headers: { authorization: `Bearer ${stripe.secretKey}`, "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });
  assert.equal(((await confirm.json()) as { status: string }).status, "requires_action");
  await stripe.completeAuthentication(intent);
  const settled = await poll(async () => {
    const now = (await c.api.get(`/v1/invoices/${inv.id}`)).body.data;
    return now.status === "paid" ? now : null;
  });
  assert.ok(settled, "paid by Stripe's payment_intent.succeeded");
  assert.equal(settled.amountPaid, 60);
  assert.equal((await c.api.post(`/v1/invoices/${inv.id}/pay`)).status, 409, "a paid invoice is not paid twice");
});

test("one ledger: each paid invoice's charge is its total less credits; fee + net = charged − refunded; Stripe's objects say the same", async () => {
  const stripeObjects = [...stripe.objects.values()];
  const earnings = new Map<string, { gross: number; refunded: number; platformFee: number; net: number }>(
    (await provider.get("/v1/earnings?limit=100")).body.data.map((e: { invoiceId: string }) => [e.invoiceId, e]),
  );
  let checked = 0;
  for (const consumer of consumers) {
    for (const listed of (await consumer.get("/v1/invoices?status=paid&limit=100")).body.data) {
      const inv = (await consumer.get(`/v1/invoices/${listed.id}`)).body.data;
      if (inv.total === 0) continue;
      const credits = inv.lines
        .filter((l: { type: string }) => l.type === "credits")
        .reduce((n: number, l: { amount: number }) => n - l.amount, 0);
      const succeeded = inv.payments.filter((p: { status: string }) => p.status === "succeeded");
      const charged = succeeded.reduce((n: number, p: { amount: number }) => n + p.amount, 0);
      assert.equal(charged, inv.total, `${inv.number}: charged = the total (credits applied: ${credits}, already in it)`);
      assert.equal(inv.amountPaid, charged);
      // Stripe's side: the succeeded PaymentIntents of the invoice and their charges.
      const intents = stripeObjects.filter(
        (o) => o.object === "payment_intent" && o.status === "succeeded" && o.metadata?.invoice_id === inv.id,
      );
      assert.equal(
        intents.reduce((n, i) => n + i.amount, 0),
        charged,
        `${inv.number}: Stripe charged what we recorded`,
      );
      const charges = stripeObjects.filter(
        (o) => o.object === "charge" && intents.some((i) => i.id === o.payment_intent) && o.status === "succeeded",
      );
      assert.equal(
        charges.reduce((n, c) => n + c.amount_refunded, 0),
        inv.amountRefunded,
        `${inv.number}: refunded as Stripe says`,
      );
      const earning = earnings.get(inv.id);
      if (earning) {
        assert.equal(earning.gross, charged);
        assert.equal(earning.refunded, inv.amountRefunded);
        assert.equal(earning.platformFee + earning.net, earning.gross - earning.refunded, `${inv.number}: fee + net = charged − refunded`);
        const applicationFee = intents.reduce((n, i) => n + (i.application_fee_amount ?? 0), 0);
        assert.ok(earning.platformFee <= applicationFee, `${inv.number}: the fee kept is at most Stripe's application fee`);
        if (!inv.amountRefunded) assert.equal(earning.platformFee, applicationFee, `${inv.number}: the fee is Stripe's`);
      }
      checked++;
    }
  }
  assert.ok(checked >= 3, `paid invoices checked: ${checked}`);
});

// Last: it kills the server this file started and goes on with another on the same database.
test("kill -9 between Stripe's answer and the commit: the attempt is replayed with its idempotency key; one charge, one payment", async () => {
  const c = await subscriber("Consumer charged across a crash", "pm_card_visa");
  await callTimes(c.call, 300);
  const closedAt = Date.parse(c.sub.currentPeriodEnd) + GRACE + 60_000;

  // The period closes and the invoice is charged; Stripe makes the PaymentIntent, and the platform is killed before
  // the answer reaches it (so before its commit, and with Stripe's events never delivered).
  const held = stripe.holdNextAnswer("POST /v1/payment_intents");
  const closing = moveTo(closedAt).catch(() => "cut off");
  await held.arrived;
  process.kill(-server.child.pid!, "SIGKILL");
  assert.equal(await closing, "cut off");
  held.release();
  const forInvoice = (o: { object: string; metadata?: Record<string, string> }, id: string) =>
    o.object === "payment_intent" && o.metadata?.invoice_id === id;
  const charged = [...stripe.objects.values()].filter(
    (o) => o.object === "payment_intent" && o.customer && o.metadata?.business_id === c.businessId,
  );
  assert.equal(charged.length, 1);
  assert.equal(charged[0].status, "succeeded", "Stripe charged the card");

  const live = await server.startAnother();
  stripe.setWebhookUrl(`${live.url}/webhooks/stripe`);
  const api = client(c.testKey, live.url);
  const [claimed] = (await api.get(`/v1/invoices?subscriptionId=${c.sub.id}`)).body.data;
  assert.deepEqual([claimed.status, claimed.attemptCount, claimed.amountPaid], ["open", 1, 0], "claimed, its outcome never recorded");

  // Once the dead process's claim lapses (10 minutes), the jobs settle it: the attempt replayed with the same key
  // (Stripe answers what it did) or the reconciliation job's read of Stripe's PaymentIntents, whichever runs first.
  await clockMover(() => live.url).moveTo(closedAt + 11 * 60_000);
  const paidNow = (await api.get(`/v1/invoices/${claimed.id}`)).body.data;
  assert.equal(paidNow.status, "paid");
  assert.equal(paidNow.amountPaid, paidNow.total);
  assert.deepEqual(
    paidNow.payments.map((p: { status: string; attempt: number; stripePaymentIntent: string }) => [
      p.status,
      p.attempt,
      p.stripePaymentIntent,
    ]),
    [["succeeded", 1, charged[0].id]],
    "one payment, of the one PaymentIntent",
  );
  const asked = stripe.requests.filter(
    (r) => r.path === "/v1/payment_intents" && r.method === "POST" && r.body.metadata?.invoice_id === claimed.id,
  );
  assert.ok(asked.length >= 1 && asked.every((r) => r.idempotencyKey === `${claimed.id}:1`), "only ever attempt 1's key");
  assert.equal([...stripe.objects.values()].filter((o) => forInvoice(o, claimed.id)).length, 1, "no second PaymentIntent");
  assert.equal(
    [...stripe.objects.values()].filter((o) => o.object === "charge" && o.payment_intent === charged[0].id).length,
    1,
    "one charge",
  );

  // Later runs change nothing: no new attempt, no second payment.
  await clockMover(() => live.url).moveTo(closedAt + 2 * 86_400_000);
  const later = (await api.get(`/v1/invoices/${claimed.id}`)).body.data;
  assert.deepEqual([later.status, later.payments.length, later.attemptCount], ["paid", 1, 1]);

  // A declined charge cut off the same way: no event and no reconciliation would ever tell of it, so only the replay
  // of the lapsed attempt records the decline and puts the invoice on the dunning schedule.
  const f = await bootstrap("Consumer declined across a crash");
  const fApi = client(f.testKey, live.url);
  const fSub = (await fApi.post("/v1/subscriptions", { priceId: listed.priceId, paymentMethod: "pm_card_chargeCustomerFail" })).body.data;
  const fKey = (await fApi.post("/v1/api-keys", { name: "calls", scopes: [`call:${listed.productId}`] })).body.data.key;
  for (let i = 0; i < 300; i += 50)
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const res = await fetch(`${live.url}/gw/${listed.slug}/x`, { headers: { authorization: `Bearer ${fKey}` } });
        assert.equal(res.status, 200);
        await res.arrayBuffer();
      }),
    );
  const fClosedAt = Date.parse(fSub.currentPeriodEnd) + GRACE + 60_000;
  const heldDecline = stripe.holdNextAnswer("POST /v1/payment_intents");
  const closingF = clockMover(() => live.url)
    .moveTo(fClosedAt)
    .catch(() => "cut off");
  await heldDecline.arrived;
  process.kill(-live.child.pid!, "SIGKILL");
  assert.equal(await closingF, "cut off");
  heldDecline.release();
  const third = await server.startAnother();
  stripe.setWebhookUrl(`${third.url}/webhooks/stripe`);
  const fOn3 = client(f.testKey, third.url);
  const [cut] = (await fOn3.get(`/v1/invoices?subscriptionId=${fSub.id}`)).body.data;
  assert.deepEqual([cut.status, cut.attemptCount], ["open", 1]);
  await clockMover(() => third.url).moveTo(fClosedAt + 11 * 60_000);
  const declined = (await fOn3.get(`/v1/invoices/${cut.id}`)).body.data;
  assert.deepEqual(
    declined.payments.map((p: { status: string; attempt: number; failureCode: string }) => [p.status, p.attempt, p.failureCode]),
    [["failed", 1, "card_declined"]],
    "the decline is recorded, as attempt 1",
  );
  assert.ok(declined.nextPaymentAttempt && Date.parse(declined.nextPaymentAttempt) > fClosedAt + 86_000_000, "retried a day later");
  assert.equal((await fOn3.get(`/v1/subscriptions/${fSub.id}`)).body.data.status, "past_due");
  const fAsked = stripe.requests.filter(
    (r) => r.path === "/v1/payment_intents" && r.method === "POST" && r.body.metadata?.invoice_id === cut.id,
  );
  assert.deepEqual(
    fAsked.map((r) => r.idempotencyKey),
    [`${cut.id}:1`, `${cut.id}:1`],
    "asked again with the same key",
  );
  assert.equal([...stripe.objects.values()].filter((o) => forInvoice(o, cut.id)).length, 1, "Stripe replayed its answer");
});
