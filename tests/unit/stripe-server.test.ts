// The Stripe test server (tests/helpers/stripe-server.ts) driven through the official SDK, so that what it accepts and
// answers is what the SDK sends and parses: customers, test cards and their failures, destination charges, refunds,
// idempotent retries, Connect onboarding, lists, authentication, and signed webhook delivery.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import Stripe from "stripe";
import { parseStripeForm, signStripePayload, startStripeServer, type StripeServer } from "../helpers/stripe-server";

interface Delivered {
  body: string;
  signature: string;
}

let server: StripeServer;
let stripe: Stripe;
let receiver: http.Server;
const delivered: Delivered[] = [];

before(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      delivered.push({ body: Buffer.concat(chunks).toString("utf8"), signature: String(req.headers["stripe-signature"] ?? "") });
      res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  server = await startStripeServer({ webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks/stripe` });
  stripe = new Stripe(server.secretKey, { host: "127.0.0.1", port: server.port, protocol: "http", maxNetworkRetries: 0 });
});

after(async () => {
  await server.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** Awaits a rejection and hands back the error, so its Stripe fields can be checked. */
async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the request to be refused");
}

async function customerWithCard(testCard = "pm_card_visa") {
  const customer = await stripe.customers.create({ email: "owner@example.com" });
  const paymentMethod = await stripe.paymentMethods.attach(testCard, { customer: customer.id });
  return { customer, paymentMethod };
}

test("form bodies parse into nested objects and arrays, values as strings", () => {
  assert.deepEqual(
    parseStripeForm(
      "metadata[business_id]=biz_1&expand[]=latest_charge&expand[]=customer&a[0]=x&a[1]=y&capabilities[card_payments][requested]=true&q=a+b%26c",
    ),
    {
      metadata: { business_id: "biz_1" },
      expand: ["latest_charge", "customer"],
      a: ["x", "y"],
      capabilities: { card_payments: { requested: "true" } },
      q: "a b&c",
    },
  );
});

test("a customer is created with metadata and retrieved", async () => {
  const created = await stripe.customers.create({ email: "a@example.com", name: "Ada", metadata: { business_id: "biz_1" } });
  assert.match(created.id, /^cus_/);
  const retrieved = await stripe.customers.retrieve(created.id);
  assert.ok(!retrieved.deleted);
  assert.equal(retrieved.email, "a@example.com");
  assert.deepEqual(retrieved.metadata, { business_id: "biz_1" });
  const missing = await rejection(stripe.customers.retrieve("cus_nope"));
  assert.ok(missing instanceof Stripe.errors.StripeInvalidRequestError);
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.code, "resource_missing");
});

test("attaching pm_card_visa makes a new card PaymentMethod, which can become the default", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  assert.match(paymentMethod.id, /^pm_/);
  assert.notEqual(paymentMethod.id, "pm_card_visa");
  assert.equal(paymentMethod.customer, customer.id);
  assert.equal(paymentMethod.card?.last4, "4242");
  assert.equal(paymentMethod.card?.brand, "visa");
  const updated = await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: paymentMethod.id } });
  assert.equal(updated.invoice_settings.default_payment_method, paymentMethod.id);
  const listed = await stripe.paymentMethods.list({ customer: customer.id, type: "card" });
  assert.deepEqual(
    listed.data.map((pm) => pm.id),
    [paymentMethod.id],
  );
  // A card that is not the customer's cannot become its default.
  const other = await stripe.paymentMethods.retrieve("pm_card_mastercard");
  const refused = await rejection(stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: other.id } }));
  assert.equal(refused.param, "invoice_settings[default_payment_method]");
});

test("pm_card_chargeDeclined is refused at attach with a card error", async () => {
  const customer = await stripe.customers.create({});
  const error = await rejection(stripe.paymentMethods.attach("pm_card_chargeDeclined", { customer: customer.id }));
  assert.ok(error instanceof Stripe.errors.StripeCardError);
  assert.equal(error.statusCode, 402);
  assert.equal(error.code, "card_declined");
  assert.equal(error.decline_code, "generic_decline");
});

test("a confirmed off-session destination charge succeeds with its fee and transfer", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const pending = await stripe.accounts.create({ type: "express", capabilities: { transfers: { requested: true } } });
  const params = {
    amount: 2000,
    currency: "usd",
    customer: customer.id,
    payment_method: paymentMethod.id,
    confirm: true,
    off_session: true,
    transfer_data: { destination: pending.id },
    application_fee_amount: 200,
    metadata: { business_id: "biz_1" },
  };
  // Until onboarding is done the destination cannot receive transfers.
  const early = await rejection(stripe.paymentIntents.create(params));
  assert.equal(early.code, "insufficient_capabilities_for_transfer");
  await server.completeOnboarding(pending.id);
  assert.equal((await stripe.accounts.retrieve(pending.id)).charges_enabled, true);

  const intent = await stripe.paymentIntents.create(params);
  assert.equal(intent.status, "succeeded");
  assert.match(String(intent.latest_charge), /^ch_/);
  const expanded = await stripe.paymentIntents.retrieve(intent.id, { expand: ["latest_charge"] });
  const charge = expanded.latest_charge as Stripe.Charge;
  assert.equal(charge.amount, 2000);
  assert.equal(charge.application_fee_amount, 200);
  assert.match(String(charge.transfer), /^tr_/);
  assert.equal(charge.transfer_data?.destination, pending.id);
  assert.deepEqual(expanded.metadata, { business_id: "biz_1" });

  const unknown = await rejection(stripe.paymentIntents.create({ ...params, transfer_data: { destination: "acct_nope" } }));
  assert.equal(unknown.code, "resource_missing");
  assert.equal(unknown.param, "transfer_data[destination]");
});

test("pm_card_chargeCustomerFail attaches, then its payment is declined and payment_failed is emitted", async () => {
  const { customer, paymentMethod } = await customerWithCard("pm_card_chargeCustomerFail");
  const error = await rejection(
    stripe.paymentIntents.create({
      amount: 1000,
      currency: "usd",
      customer: customer.id,
      payment_method: paymentMethod.id,
      confirm: true,
      off_session: true,
    }),
  );
  assert.ok(error instanceof Stripe.errors.StripeCardError);
  assert.equal(error.code, "card_declined");
  assert.equal(error.decline_code, "generic_decline");
  assert.equal(error.payment_intent?.status, "requires_payment_method");
  const failed = server.events.find((e) => e.type === "payment_intent.payment_failed" && e.data.object.id === error.payment_intent?.id);
  assert.equal(failed?.data.object.last_payment_error.decline_code, "generic_decline");
});

test("pm_card_authenticationRequired fails off-session and asks for action on-session", async () => {
  const { customer, paymentMethod } = await customerWithCard("pm_card_authenticationRequired");
  const base = { amount: 1500, currency: "usd", customer: customer.id, payment_method: paymentMethod.id, confirm: true };
  const error = await rejection(stripe.paymentIntents.create({ ...base, off_session: true }));
  assert.ok(error instanceof Stripe.errors.StripeCardError);
  assert.equal(error.code, "authentication_required");
  assert.equal(error.payment_intent?.status, "requires_payment_method");
  assert.equal(error.payment_intent?.last_payment_error?.code, "authentication_required");
  const onSession = await stripe.paymentIntents.create(base);
  assert.equal(onSession.status, "requires_action");
  assert.match(String(onSession.client_secret), /^pi_.+_secret_/);
});

test("an idempotent retry replays the first answer; other parameters under the same key are refused", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const params = {
    amount: 700,
    currency: "usd",
    customer: customer.id,
    payment_method: paymentMethod.id,
    confirm: true,
    off_session: true,
  };
  const idempotencyKey = `retry-${Date.now()}`;
  const first = await stripe.paymentIntents.create(params, { idempotencyKey });
  const again = await stripe.paymentIntents.create(params, { idempotencyKey });
  assert.equal(again.id, first.id);
  assert.equal(again.lastResponse.headers["idempotent-replayed"], "true");
  assert.equal(server.requests.filter((r) => r.idempotencyKey === idempotencyKey).length, 2);
  assert.equal([...server.objects.values()].filter((o) => o.object === "payment_intent" && o.customer === customer.id).length, 1);
  const error = await rejection(stripe.paymentIntents.create({ ...params, amount: 701 }, { idempotencyKey }));
  assert.ok(error instanceof Stripe.errors.StripeIdempotencyError);
  assert.equal(error.rawType, "idempotency_error");
});

test("refunds take what is left, and nothing more", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const intent = await stripe.paymentIntents.create({
    amount: 1000,
    currency: "usd",
    customer: customer.id,
    payment_method: paymentMethod.id,
    confirm: true,
    off_session: true,
  });
  const partial = await stripe.refunds.create({ payment_intent: intent.id, amount: 300, reason: "requested_by_customer" });
  assert.match(partial.id, /^re_/);
  assert.equal(partial.amount, 300);
  assert.equal(partial.status, "succeeded");
  const tooMuch = await rejection(stripe.refunds.create({ payment_intent: intent.id, amount: 800 }));
  assert.equal(tooMuch.code, "amount_too_large");
  const rest = await stripe.refunds.create({ payment_intent: intent.id });
  assert.equal(rest.amount, 700);
  const charge = server.objects.get(String(intent.latest_charge));
  assert.equal(charge.amount_refunded, 1000);
  assert.equal(charge.refunded, true);
  const third = await rejection(stripe.refunds.create({ payment_intent: intent.id }));
  assert.ok(third instanceof Stripe.errors.StripeInvalidRequestError);
  assert.equal(third.code, "charge_already_refunded");
  const refundedEvents = server.events.filter((e) => e.type === "charge.refunded" && e.data.object.id === charge.id);
  assert.deepEqual(
    refundedEvents.map((e) => e.data.object.amount_refunded),
    [300, 1000],
  );
});

test("an express account is onboarded through its account link", async () => {
  const account = await stripe.accounts.create({
    type: "express",
    country: "US",
    email: "seller@example.com",
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
    metadata: { business_id: "biz_2" },
  });
  assert.match(account.id, /^acct_/);
  assert.equal(account.charges_enabled, false);
  assert.deepEqual(account.requirements?.currently_due, ["external_account", "tos_acceptance.date"]);
  const link = await stripe.accountLinks.create({
    account: account.id,
    refresh_url: "http://127.0.0.1/refresh",
    return_url: "http://127.0.0.1/done",
    type: "account_onboarding",
  });
  assert.ok(link.url.startsWith(`${server.url}/connect/onboarding/${account.id}`));
  const visit = await fetch(link.url, { redirect: "manual" });
  assert.equal(visit.status, 302);
  assert.equal(visit.headers.get("location"), "http://127.0.0.1/done");
  const onboarded = await stripe.accounts.retrieve(account.id);
  assert.equal(onboarded.payouts_enabled, true);
  assert.equal(onboarded.capabilities?.transfers, "active");
  assert.ok(server.events.some((e) => e.type === "account.updated" && e.data.object.id === account.id));
  const unknown = await rejection(stripe.accounts.retrieve("acct_nope"));
  assert.ok(unknown instanceof Stripe.errors.StripePermissionError);
});

test("payment intents are listed newest first, filtered by created", async () => {
  const since = Math.floor(Date.now() / 1000) - 1;
  const { customer, paymentMethod } = await customerWithCard();
  const ids: string[] = [];
  for (const amount of [100, 200, 300]) {
    const intent = await stripe.paymentIntents.create({ amount, currency: "eur", customer: customer.id, payment_method: paymentMethod.id });
    ids.push(intent.id);
  }
  const page = await stripe.paymentIntents.list({ created: { gte: since }, customer: customer.id, limit: 2 });
  assert.deepEqual(
    page.data.map((pi) => pi.id),
    [ids[2], ids[1]],
  );
  assert.equal(page.has_more, true);
  const future = await stripe.paymentIntents.list({ created: { gte: since + 3600 } });
  assert.equal(future.data.length, 0);
});

test("a wrong API key is an authentication error", async () => {
  const wrong = new Stripe("sk_test_wrong", { host: "127.0.0.1", port: server.port, protocol: "http", maxNetworkRetries: 0 });
  const error = await rejection(wrong.customers.create({}));
  assert.ok(error instanceof Stripe.errors.StripeAuthenticationError);
  assert.equal(error.statusCode, 401);
  assert.match(error.message, /Invalid API Key provided/);
});

test("events are delivered signed as Stripe signs them", async () => {
  const { customer, paymentMethod } = await customerWithCard();
  const intent = await stripe.paymentIntents.create({
    amount: 1200,
    currency: "usd",
    customer: customer.id,
    payment_method: paymentMethod.id,
    confirm: true,
    off_session: true,
  });
  await server.flushDeliveries();
  const delivery = delivered.find((d) => {
    const event = JSON.parse(d.body);
    return event.type === "payment_intent.succeeded" && event.data.object.id === intent.id;
  });
  assert.ok(delivery, "payment_intent.succeeded was delivered");
  const event = stripe.webhooks.constructEvent(delivery.body, delivery.signature, server.webhookSecret);
  assert.equal(event.type, "payment_intent.succeeded");
  assert.match(event.id, /^evt_/);
  assert.equal(event.api_version, Stripe.API_VERSION);
  assert.throws(
    () => stripe.webhooks.constructEvent(delivery.body.replace('"amount": 1200', '"amount": 1'), delivery.signature, server.webhookSecret),
    Stripe.errors.StripeSignatureVerificationError,
  );
  // The header is the SDK's own scheme, and a test can deliver the same event again.
  const payload = '{"id":"evt_1"}';
  assert.equal(
    signStripePayload(payload, server.webhookSecret, 1700000000),
    stripe.webhooks.generateTestHeaderString({ payload, secret: server.webhookSecret, timestamp: 1700000000 }),
  );
  assert.equal(await server.deliver(event), 200);
});

test("held-back events are delivered later, in any order, and disputes follow their charge", async () => {
  server.setAutoDeliver(false);
  try {
    const { customer, paymentMethod } = await customerWithCard("pm_card_createDispute");
    const before = delivered.length;
    const intent = await stripe.paymentIntents.create({
      amount: 900,
      currency: "usd",
      customer: customer.id,
      payment_method: paymentMethod.id,
      confirm: true,
      off_session: true,
    });
    await server.flushDeliveries();
    assert.equal(delivered.length, before, "nothing is delivered while held back");
    const caused = server.events.filter((e) => e.data.object.payment_intent === intent.id || e.data.object.id === intent.id);
    assert.deepEqual(
      caused.map((e) => e.type),
      ["charge.succeeded", "payment_intent.succeeded", "charge.dispute.created"],
    );
    const dispute = caused[2].data.object;
    assert.match(dispute.id, /^dp_/);
    assert.equal(dispute.charge, intent.latest_charge);
    assert.equal(dispute.status, "needs_response");
    for (const event of [...caused].reverse()) assert.equal(await server.deliver(event), 200);
    assert.deepEqual(
      delivered.slice(before).map((d) => JSON.parse(d.body).type),
      ["charge.dispute.created", "payment_intent.succeeded", "charge.succeeded"],
    );
    assert.equal((await stripe.events.retrieve(caused[1].id)).type, "payment_intent.succeeded");
  } finally {
    server.setAutoDeliver(true);
  }
});
