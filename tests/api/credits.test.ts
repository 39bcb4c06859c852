// Prepaid credits and spend caps (issue 39) on the suite's server: provider A sells an API product through the
// gateway, consumer B pays for it. A prepaid plan is paid from credits call by call and refused with 402
// INSUFFICIENT_CREDITS the moment they cannot cover a call (exact under 600 concurrent calls); a postpaid plan with a
// spend cap is stopped at the cap with 402 SPEND_CAP_REACHED after the 50/80/100 % events reached both sides'
// webhooks. Then the refusals, grants spent oldest-expiring first, auto top-up and its monthly limit.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { BASE_URL, client, seedBusiness, expectError, type ApiClient } from "../helpers/api";
import { db, poll, sleep, startSecondServer, type ServerWithLogs } from "../helpers/usage-db";
import { publishApiProduct, subscribe } from "../helpers/marketplace";
import { startJsonUpstream, type JsonUpstream } from "../helpers/json-upstream";
import { startReceiver, createEndpoint, type Receiver } from "../helpers/receiver";

let upstream: JsonUpstream;
let receiver: Receiver;
let upstreamCalls = 0;

before(async () => {
  upstream = await startJsonUpstream(() => upstreamCalls++);
  receiver = await startReceiver();
});
after(async () => {
  upstream?.close();
  await receiver?.close();
});

const gw = (slug: string, key: string, path = "/forecast") =>
  fetch(`${BASE_URL}/gw/${slug}${path}`, { headers: { authorization: `Bearer ${key}` } });

/** `total` gateway calls, `burst` at a time; the answers' statuses and the refusals' bodies. */
async function burst(slug: string, key: string, total: number, width: number) {
  const statuses: number[] = [];
  const refusals: any[] = [];
  for (let done = 0; done < total; done += width) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(width, total - done) }, async () => {
        const res = await gw(slug, key);
        const body = res.status === 200 ? await res.arrayBuffer() : await res.json();
        return { status: res.status, body };
      }),
    );
    for (const r of batch) {
      statuses.push(r.status);
      if (r.status !== 200) refusals.push(r.body);
    }
  }
  return { statuses, refusals, count: (s: number) => statuses.filter((x) => x === s).length };
}

async function prepaidProduct(a: { test: ApiClient }, price: Record<string, unknown> = {}) {
  return publishApiProduct(a.test, { upstreamUrl: upstream.url, price: { amount: 0.002, billing: "prepaid", ...price } });
}

test("done when: 1 USD of credits on a 0.002 USD/call prepaid plan serves exactly 500 of 600 parallel calls", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { price, slug } = await prepaidProduct(a);
  assert.equal(price.billing, "prepaid");
  const sub = await subscribe(b.test, price.id);

  // No credits yet: refused before the upstream is asked.
  const before = upstreamCalls;
  const empty = await gw(slug, b.testKey);
  assert.equal(empty.status, 402);
  const emptyBody = (await empty.json()) as any;
  assert.equal(emptyBody.error.code, "INSUFFICIENT_CREDITS");
  assert.equal(emptyBody.error.balance, "0");
  assert.equal(emptyBody.error.required, "0.002");
  assert.equal(emptyBody.error.topUp, `/v1/subscriptions/${sub.id}/credits`);
  assert.equal(upstreamCalls, before, "a refused call never reaches the upstream");

  const bought = await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 1 });
  assert.equal(bought.status, 201, bought.text);
  assert.equal(bought.body.data.balance, "1");
  assert.equal(bought.body.data.billing, "prepaid");

  const r = await burst(slug, b.testKey, 600, 100);
  assert.equal(r.count(200), 500, `statuses: ${JSON.stringify(Object.fromEntries([200, 402, 429, 500].map((s) => [s, r.count(s)])))}`);
  assert.equal(r.count(402), 100);
  assert.ok(r.refusals.every((e) => e.error.code === "INSUFFICIENT_CREDITS"));

  // The ledger: the purchase and 500 burns of 0.002, each the usage event of its call; the balance exactly 0.
  const credits = await poll(async () => {
    const c = await b.test.get(`/v1/subscriptions/${sub.id}/credits`);
    return c.body.data.balance === "0" && c.body.data.pending === "0" ? c.body.data : null;
  });
  assert.ok(credits, "the balance settles at 0");
  assert.equal(credits.spent, "1");
  const burns = await db.usageEvent.count({ where: { subscriptionId: sub.id, paidByCredits: true, cost: { gt: 0 } } });
  assert.equal(burns, 500);
  const ledger = await b.test.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100`);
  assert.equal(ledger.status, 200, ledger.text);
  assert.equal(ledger.body.data.length, 100);
  assert.equal(ledger.body.pagination.hasMore, true);
  assert.equal(ledger.body.pagination.total, 501, "500 burns and the purchase");
  // Walked by cursor, the ledger is every entry once, newest first; an offset page is the same rows.
  const walked: { id: string; createdAt: string }[] = [...ledger.body.data];
  for (let cursor = ledger.body.pagination.nextCursor; cursor;) {
    const next = await b.test.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100&cursor=${cursor}`);
    assert.equal(next.status, 200, next.text);
    walked.push(...next.body.data);
    cursor = next.body.pagination.nextCursor;
  }
  assert.equal(walked.length, 501);
  assert.equal(new Set(walked.map((e) => e.id)).size, 501, "no entry twice across pages");
  assert.ok(
    walked.every((e, i) => i === 0 || walked[i - 1].createdAt >= e.createdAt),
    "newest first across pages",
  );
  const deep = await b.test.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=3&offset=498`);
  assert.deepEqual(
    deep.body.data.map((e: { id: string }) => e.id),
    walked.slice(498).map((e) => e.id),
  );
  assert.equal(deep.body.pagination.hasMore, false);
  assert.equal((walked.at(-1) as { type?: string }).type, "purchase", "the purchase came before every burn");
  const burn = ledger.body.data.find((e: any) => e.type === "burn");
  assert.equal(burn.amount, "-0.002");
  assert.match(burn.requestId, /^req_/);
  const log = await db.requestLog.findFirst({ where: { id: burn.requestId } });
  assert.ok(log, "a burn names the request of its call");

  // The provider sees the same figures for its customer.
  const seen = await a.test.get(`/v1/customers/${b.businessId}/credits`);
  assert.equal(seen.status, 200, seen.text);
  assert.equal(seen.body.data[0].balance, "0");
  assert.equal(seen.body.data[0].spent, "1");
  assert.equal(seen.body.pagination.total, 1);
});

test("done when: a 0.5 USD cap on a 0.002 USD/call postpaid plan stops at 250 calls, the 80 % event reaching both sides first", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const aHook = await createEndpoint(a.test, { url: receiver.url(`/cap-provider-${a.businessId}`), events: ["billing.spend_threshold"] });
  const bHook = await createEndpoint(b.test, { url: receiver.url(`/cap-consumer-${b.businessId}`), events: ["billing.*"] });
  assert.ok(aHook.id && bHook.id);
  const { price, slug } = await publishApiProduct(a.test, { upstreamUrl: upstream.url, price: { amount: 0.002 } });
  const sub = await subscribe(b.test, price.id);
  const capped = await b.test.patch(`/v1/subscriptions/${sub.id}`, { spendCap: { amount: 0.5, action: "block" } });
  assert.equal(capped.status, 200, capped.text);
  assert.deepEqual(capped.body.data.spendCap, { amount: "0.5", action: "block", thresholds: [50, 80, 100] });

  const first = await burst(slug, b.testKey, 200, 50);
  assert.equal(first.count(200), 200);
  // 200 calls are 0.4 USD, 80 % of the cap: the event reaches both sides' endpoints.
  const consumerEvents = await receiver.waitFor(2, (r) => r.path === `/cap-consumer-${b.businessId}`);
  const providerEvents = await receiver.waitFor(2, (r) => r.path === `/cap-provider-${a.businessId}`);
  const thresholds = (list: { body: string }[]) => list.map((r) => JSON.parse(r.body).data.threshold).sort((x, y) => x - y);
  assert.deepEqual(thresholds(consumerEvents), [50, 80]);
  assert.deepEqual(thresholds(providerEvents), [50, 80]);
  const eighty = JSON.parse(consumerEvents.find((r) => JSON.parse(r.body).data.threshold === 80)!.body);
  assert.equal(eighty.type, "billing.spend_threshold");
  assert.equal(eighty.data.subscriptionId, sub.id);
  assert.equal(eighty.data.cap, "0.5");
  assert.equal(eighty.data.spent, "0.4");

  const rest = await burst(slug, b.testKey, 100, 25);
  assert.equal(rest.count(200), 50, "the cap admits exactly 250 calls");
  assert.equal(rest.count(402), 50);
  const refusal = rest.refusals[0].error;
  assert.equal(refusal.code, "SPEND_CAP_REACHED");
  assert.equal(refusal.cap, "0.5");
  assert.equal(refusal.spent, "0.5");
  assert.equal(refusal.resets, sub.currentPeriodEnd);
  const hundred = await receiver.waitFor(3, (r) => r.path === `/cap-provider-${a.businessId}`);
  assert.deepEqual(thresholds(hundred), [50, 80, 100]);

  // The consumer's view and the provider's agree: 0.5 spent this period, every threshold crossed.
  const view = await b.test.get(`/v1/subscriptions/${sub.id}/credits`);
  assert.equal(view.body.data.periodSpend, "0.5");
  assert.deepEqual(view.body.data.spendAlerts, [50, 80, 100]);
  const upcoming = await b.test.get(`/v1/invoices/upcoming?subscriptionId=${sub.id}`);
  assert.equal(upcoming.status, 200, upcoming.text);
  assert.equal(upcoming.body.data.total, 50, "the invoice so far: 250 calls, 50 cents");

  // Raising the cap lets calls through again at once.
  const raised = await b.test.patch(`/v1/subscriptions/${sub.id}`, { spendCap: { amount: 1, action: "block" } });
  assert.equal(raised.status, 200, raised.text);
  assert.equal((await gw(slug, b.testKey)).status, 200);
  // A notify cap never refuses.
  await b.test.patch(`/v1/subscriptions/${sub.id}`, { spendCap: { amount: 0.1, action: "notify" } });
  assert.equal((await gw(slug, b.testKey)).status, 200);
  await b.test.patch(`/v1/subscriptions/${sub.id}`, { spendCap: null });
  assert.equal((await b.test.get(`/v1/subscriptions/${sub.id}`)).body.data.spendCap, null);
});

test("refusals: a declined card grants nothing, bad amounts and other businesses' subscriptions are refused", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const c = await seedBusiness();
  const { price } = await prepaidProduct(a);
  const sub = await subscribe(b.test, price.id);
  const declined = expectError(
    await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 5, paymentMethod: { card: { number: "4000000000000341" } } }),
    402,
    "CARD_DECLINED",
  );
  assert.ok(declined.declineCode);
  assert.equal((await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data.balance, "0");
  assert.equal(await db.creditEntry.count({ where: { subscriptionId: sub.id } }), 0);

  assert.equal(expectError(await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0 }), 400, "INVALID_FIELD").field, "amount");
  assert.equal(
    expectError(await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 1.005 }), 400, "INVALID_FIELD").field,
    "amount",
  );
  expectError(await b.test.post(`/v1/subscriptions/${sub.id}/credits`, {}), 400, "MISSING_REQUIRED_FIELD");
  expectError(await c.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 1 }), 404, "RESOURCE_NOT_FOUND");
  expectError(await c.test.get(`/v1/subscriptions/${sub.id}/credit-ledger`), 404, "RESOURCE_NOT_FOUND");
  // Only the product's provider grants, and only to its own customer's subscription.
  expectError(
    await c.test.post(`/v1/customers/${b.businessId}/credits`, { subscription: sub.id, amount: 1, note: "x" }),
    404,
    "RESOURCE_NOT_FOUND",
  );
  expectError(
    await a.test.post(`/v1/customers/${b.businessId}/credits`, { subscription: sub.id, amount: 1 }),
    400,
    "MISSING_REQUIRED_FIELD",
  );
  const past = new Date(Date.now() - 60_000).toISOString();
  assert.equal(
    expectError(
      await a.test.post(`/v1/customers/${b.businessId}/credits`, { subscription: sub.id, amount: 1, note: "x", expiresAt: past }),
      400,
      "INVALID_FIELD",
    ).field,
    "expiresAt",
  );
  // A cap and auto top-up are checked field by field.
  assert.equal(
    expectError(await b.test.patch(`/v1/subscriptions/${sub.id}`, { spendCap: { amount: 1, action: "stop" } }), 400, "INVALID_FIELD").field,
    "spendCap.action",
  );
  assert.equal(
    expectError(
      await b.test.patch(`/v1/subscriptions/${sub.id}`, { autoRecharge: { below: 1, amount: 5, monthlyLimit: 2 } }),
      400,
      "INVALID_FIELD",
    ).field,
    "autoRecharge.amount",
  );
  // A prepaid price measured from the answer must say what a call reserves.
  const product = (await a.test.post("/v1/products", { name: "Bytes", type: "API" })).body.data;
  const bytes = await a.test.post(`/v1/products/${product.id}/prices`, {
    name: "Bytes",
    type: "metered",
    currency: "USD",
    billing: "prepaid",
    metrics: [{ name: "data", unit: "GB", amount: 0.09 }],
  });
  assert.equal(expectError(bytes, 400, "INVALID_FIELD").field, "maxCostPerCall");
  assert.equal(
    expectError(
      await a.test.post(`/v1/products/${product.id}/prices`, { name: "P", type: "usage", currency: "USD", amount: 1, maxCostPerCall: 1 }),
      400,
      "INVALID_FIELD",
    ).field,
    "maxCostPerCall",
  );
});

test("grants: spent oldest-expiring first, visible to both sides, and key verification and meter events pay from credits too", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { price, slug, product } = await prepaidProduct(a, { amount: 0.1 });
  const sub = await subscribe(b.test, price.id);
  const lasting = await a.test.post(`/v1/customers/${b.businessId}/credits`, { subscription: sub.id, amount: 1, note: "Welcome credit" });
  assert.equal(lasting.status, 201, lasting.text);
  const soon = new Date(Date.now() + 3_600_000).toISOString();
  const expiring = await a.test.post(`/v1/customers/${b.businessId}/credits`, {
    subscription: sub.id,
    amount: 0.25,
    note: "Support",
    expiresAt: soon,
  });
  assert.equal(expiring.status, 201, expiring.text);
  assert.equal(expiring.body.data.balance, "1.25");

  // Three calls (0.3): the expiring grant (0.25) goes first, then 0.05 of the lasting one.
  for (let i = 0; i < 2; i++) assert.equal((await gw(slug, b.testKey)).status, 200);
  const verified = await a.test.post("/v1/keys/verify", { key: b.testKey, product: product.id });
  assert.equal(verified.body.data.valid, true, verified.text);
  const view = await poll(async () => {
    const v = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
    return v.balance === "0.95" ? v : null;
  });
  assert.ok(view, "three calls of 0.1 burned");
  const byNote = Object.fromEntries(view.grants.map((g: any) => [g.note, g]));
  assert.equal(byNote.Support.remaining, "0");
  assert.equal(byNote.Support.expiresAt, soon);
  assert.equal(byNote["Welcome credit"].remaining, "0.95");

  // A meter event of 10 units costs 1 USD: more than is left, refused with nothing recorded.
  const meter = await a.test.post("/v1/meter-events", { product: product.id, key: b.testKey, quantity: 10, identifier: `m-${sub.id}` });
  expectError(meter, 402, "INSUFFICIENT_CREDITS");
  assert.equal(await db.usageEvent.count({ where: { identifier: `m-${sub.id}` } }), 0);
  const small = await a.test.post("/v1/meter-events", { product: product.id, key: b.testKey, quantity: 2, identifier: `s-${sub.id}` });
  assert.equal(small.status, 201, small.text);
  const after = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
  assert.equal(after.balance, "0.75");
  const ledgerTypes = (await b.test.get(`/v1/subscriptions/${sub.id}/credit-ledger?limit=100`)).body.data.map((e: any) => e.type);
  assert.deepEqual(ledgerTypes.filter((t: string) => t === "grant").length, 2);
  assert.equal(ledgerTypes.filter((t: string) => t === "burn").length, 4);

  // Verification is refused the same way when the balance is short, and says so.
  const poor = await seedBusiness();
  const poorSub = await subscribe(poor.test, price.id);
  const refused = await a.test.post("/v1/keys/verify", { key: poor.testKey, product: product.id });
  assert.equal(refused.body.data.valid, false);
  assert.equal(refused.body.data.code, "INSUFFICIENT_CREDITS");
  assert.equal(refused.body.data.balance, "0");
  assert.equal(refused.body.data.subscription, poorSub.id);
});

test("auto top-up: the card is charged when the balance falls below the mark, at most the monthly limit", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { price, slug } = await prepaidProduct(a, { amount: 0.1 });
  const sub = await subscribe(b.test, price.id);
  await b.test.post(`/v1/subscriptions/${sub.id}/credits`, { amount: 0.3 });
  const set = await b.test.patch(`/v1/subscriptions/${sub.id}`, { autoRecharge: { below: 0.15, amount: 0.5, monthlyLimit: 0.5 } });
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(set.body.data.autoRecharge, { below: "0.15", amount: "0.5", monthlyLimit: "0.5" });

  // 0.3 → 0.2 → 0.1 (below 0.15): one top-up of 0.5.
  for (let i = 0; i < 2; i++) assert.equal((await gw(slug, b.testKey)).status, 200);
  const topped = await poll(async () => {
    const v = (await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data;
    return v.balance === "0.6" ? v : null;
  });
  assert.ok(topped, "topped up to 0.6");
  // Down below the mark again: the month's limit (0.5) is used, so no second charge; calls stop at 0.
  const r = await burst(slug, b.testKey, 8, 1);
  assert.equal(r.count(200), 6);
  assert.equal(r.count(402), 2);
  await new Promise((res) => setTimeout(res, 500));
  const entries = await db.creditEntry.findMany({ where: { subscriptionId: sub.id, type: "auto_recharge" } });
  assert.equal(entries.length, 1);
  assert.equal((await b.test.get(`/v1/subscriptions/${sub.id}/credits`)).body.data.balance, "0");
});

test("kill -9 mid-burst: every call answered 200 has its burn, none twice, and the balance is the ledger's", async () => {
  // One data-plane process (the one killed), whose queue is never flushed before the kill: only its journal has the calls.
  const first = await startSecondServer({ ALLOW_PRIVATE_URLS: "true", USAGE_FLUSH_MS: "60000", DATA_PLANE_WORKERS: "1" });
  let second: ServerWithLogs | null = null;
  try {
    const a = await seedBusiness();
    const b = await seedBusiness();
    const { price, slug } = await publishApiProduct(client(a.testKey, first.url), {
      upstreamUrl: upstream.url,
      price: { amount: 0.01, billing: "prepaid" },
    });
    const sub = await subscribe(client(b.testKey, first.url), price.id);
    assert.equal((await client(b.testKey, first.url).post(`/v1/subscriptions/${sub.id}/credits`, { amount: 5 })).status, 201);
    let ok = 0;
    const calls = Array.from({ length: 300 }, async (_, i) => {
      await sleep(i * 2);
      try {
        const res = await fetch(`${first.url}/gw/${slug}/burst/${i}`, { headers: { authorization: `Bearer ${b.testKey}` } });
        await res.arrayBuffer();
        if (res.status === 200) ok++;
      } catch {
        // cut off by the kill
      }
    });
    // Killed mid-burst: once some calls have been answered, while the rest are in flight or not yet sent.
    await poll(async () => ok >= 30, 20_000, 5);
    first.child.kill("SIGKILL");
    await Promise.all(calls);
    assert.ok(ok > 0 && ok < 300, `calls answered 200 before the kill: ${ok}`);
    // A server started on the same database replays the journal; burns are the calls' events, each once.
    second = await startSecondServer({ ALLOW_PRIVATE_URLS: "true", USAGE_FLUSH_MS: "100", USAGE_JOURNAL_SWEEP_MS: "500" });
    const burns = await poll(async () => {
      const n = await db.usageEvent.count({ where: { subscriptionId: sub.id, paidByCredits: true, cost: { gt: 0 } } });
      return n >= ok ? n : null;
    }, 20_000);
    assert.ok(burns !== null && burns >= ok, `burns ${burns} for ${ok} answered calls`);
    await sleep(1_500);
    const final = await db.usageEvent.count({ where: { subscriptionId: sub.id, paidByCredits: true, cost: { gt: 0 } } });
    assert.equal(final, burns, "no burn doubled by a later sweep");
    // Each burn is a call the upstream answered (journaled before its answer went out); none is counted twice.
    const view = await client(b.testKey, second.url).get(`/v1/subscriptions/${sub.id}/credits`);
    const balanceNanos = BigInt(Math.round(Number(view.body.data.balance) * 1e9));
    assert.equal(balanceNanos, 5_000_000_000n - BigInt(final) * 10_000_000n, view.text);
  } finally {
    if (first.child.exitCode === null && first.child.signalCode === null) await first.stop();
    await second?.stop();
  }
});

test("a failed auto top-up is an event to both sides, and calls stop at zero as without it", async () => {
  const a = await seedBusiness();
  const b = await seedBusiness();
  const { price, slug } = await prepaidProduct(a, { amount: 0.1 });
  // Stripe's 4000000000000341 attaches, then every charge to it fails.
  const created = await b.test.post("/v1/subscriptions", { priceId: price.id, paymentMethod: { card: { number: "4000000000000341" } } });
  assert.equal(created.status, 201, created.text);
  const sub = created.body.data;
  await createEndpoint(b.test, { url: receiver.url(`/topup-consumer-${b.businessId}`), events: ["billing.auto_recharge_failed"] });
  await createEndpoint(a.test, { url: receiver.url(`/topup-provider-${a.businessId}`), events: ["billing.*"] });
  assert.equal(
    (await a.test.post(`/v1/customers/${b.businessId}/credits`, { subscription: sub.id, amount: 0.2, note: "Trial" })).status,
    201,
  );
  const set = await b.test.patch(`/v1/subscriptions/${sub.id}`, { autoRecharge: { below: 0.15, amount: 1, monthlyLimit: 5 } });
  assert.equal(set.status, 200, set.text);

  const r = await burst(slug, b.testKey, 3, 1);
  assert.deepEqual(r.statuses, [200, 200, 402], "0.2 buys two calls; the failed top-up adds nothing");
  const [failed] = await receiver.waitFor(1, (x) => x.path === `/topup-consumer-${b.businessId}`);
  const payload = JSON.parse(failed.body);
  assert.equal(payload.type, "billing.auto_recharge_failed");
  assert.equal(payload.data.subscriptionId, sub.id);
  assert.ok(payload.data.failureCode);
  const provider = await receiver.waitFor(
    1,
    (x) => x.path === `/topup-provider-${a.businessId}` && x.body.includes("auto_recharge_failed"),
  );
  assert.equal(provider.length, 1);
  assert.equal(await db.creditEntry.count({ where: { subscriptionId: sub.id, type: "auto_recharge" } }), 0);
});
