// Scheduled key rotation (lib/keys/rotation-job.ts): expiry notices as api_key.expiring events, once per
// threshold and due date, and the automatic strategy, whose new key's value is revealed once. The job runs
// here in the test process against the server's database, as `npm run jobs` would.
import { test } from "node:test";
import assert from "node:assert/strict";
import { processKeyRotations } from "@/lib/keys/rotation-job";
import { client, expectError, seedBusiness, type ApiClient } from "../helpers/api";
import { apiKeyRow } from "../helpers/db";

const DAY_MS = 24 * 60 * 60 * 1000;
const inDays = (d: number) => new Date(Date.now() + d * DAY_MS).toISOString();

async function createKey(api: ApiClient, body: Record<string, unknown>) {
  const res = await api.post("/v1/api-keys", { name: "Rotating key", scopes: ["products:read"], ...body });
  assert.equal(res.status, 201, res.text.slice(0, 300));
  return res.body.data as Record<string, any> & { id: string; key: string };
}

async function eventsFor(api: ApiClient, type: string, keyId: string) {
  const res = await api.get(`/v1/events?type=${type}&limit=100`);
  assert.equal(res.status, 200, res.text.slice(0, 300));
  return (res.body.data as any[]).filter((e) => e.data.id === keyId || e.data.rotatedFrom?.id === keyId);
}

test("an expiring key gets one api_key.expiring notice per threshold, and a new expiry starts afresh", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, { expiresAt: inDays(5) });
  await processKeyRotations();
  await processKeyRotations(); // a second run sends nothing new
  let notices = await eventsFor(biz.test, "api_key.expiring", k.id);
  assert.equal(notices.length, 1, JSON.stringify(notices));
  assert.equal(notices[0].data.noticeDays, 7);
  assert.equal(notices[0].data.daysRemaining, 5);
  assert.equal(notices[0].data.dueBecause, "expiresAt");
  assert.match(notices[0].data.key, new RegExp(`^sk_test_\\*+${k.key.slice(-4)}$`), "the notice carries the masked key, never the value");
  assert.ok(!JSON.stringify(notices[0]).includes(k.key));

  // Moved to 20 hours away: the 1-day threshold has passed for the new date; one notice says so.
  assert.equal(
    (await biz.test.patch(`/v1/api-keys/${k.id}`, { expiresAt: new Date(Date.now() + 20 * 3_600_000).toISOString() })).status,
    200,
  );
  await processKeyRotations();
  notices = await eventsFor(biz.test, "api_key.expiring", k.id);
  assert.equal(notices.length, 2);
  assert.deepEqual(notices.map((n) => n.data.noticeDays).sort(), [1, 7]);
});

test("notificationDays and maxAge decide when notices go out; keys far from due get none", async () => {
  const biz = await seedBusiness();
  const byAge = await createKey(biz.test, { rotation: { strategy: "manual", maxAge: 3, notificationDays: [5] } });
  const far = await createKey(biz.test, { expiresAt: inDays(30) });
  const noExpiry = await createKey(biz.test, {});
  await processKeyRotations();
  const notices = await eventsFor(biz.test, "api_key.expiring", byAge.id);
  assert.equal(notices.length, 1);
  assert.equal(notices[0].data.dueBecause, "maxAge");
  assert.equal(notices[0].data.noticeDays, 5);
  assert.equal((await eventsFor(biz.test, "api_key.expiring", far.id)).length, 0);
  assert.equal((await eventsFor(biz.test, "api_key.expiring", noExpiry.id)).length, 0);
  // A manual strategy never rotates by itself.
  assert.equal((await apiKeyRow(byAge.id))?.rotatedAt, null);
});

test("automatic strategy: the job rotates within the grace period; the new value is revealed once and works", async () => {
  const biz = await seedBusiness();
  const expiresAt = inDays(3);
  const old = await createKey(biz.test, {
    expiresAt,
    scopes: ["products:read", "api_keys:read"],
    rotation: { strategy: "automatic", gracePeriod: 7 },
  });
  const far = await createKey(biz.test, { expiresAt: inDays(30), rotation: { strategy: "automatic", gracePeriod: 7 } });
  const result = await processKeyRotations();
  assert.ok(result.rotated >= 1);
  await processKeyRotations(); // at most once per key

  const rotatedEvents = await eventsFor(biz.test, "api_key.rotated", old.id);
  assert.equal(rotatedEvents.length, 1);
  const event = rotatedEvents[0].data;
  assert.equal(event.automatic, true);
  assert.equal(event.secretPending, true);
  assert.equal(event.name, "Rotating key (rotated)");
  assert.deepEqual(event.scopes, ["products:read", "api_keys:read"]);
  assert.ok(Math.abs(Date.parse(event.rotatedFrom.expiresAt) - Date.parse(expiresAt)) < 60_000, "the old key works until it was due");
  assert.equal((await eventsFor(biz.test, "api_key.rotated", far.id)).length, 0, "a key far from its due date is left alone");

  // Both keys appear in the list; the old one is marked rotated, the new one waits to be revealed.
  const newKey = (await biz.test.get(`/v1/api-keys/${event.id}`)).body.data;
  assert.equal(newKey.secretPending, true);
  assert.equal(newKey.rotatedFromId, old.id);
  assert.ok((await biz.test.get(`/v1/api-keys/${old.id}`)).body.data.rotatedAt);

  const revealed = await biz.test.post(`/v1/api-keys/${event.id}/reveal`);
  assert.equal(revealed.status, 200, revealed.text.slice(0, 300));
  assert.match(revealed.body.data.key, /^sk_test_[A-Za-z0-9_-]{43}$/);
  assert.equal(revealed.body.data.secretPending, false);
  assert.equal((await client(revealed.body.data.key).get("/v1/products")).status, 200);
  assert.equal((await client(old.key).get("/v1/products")).status, 200, "the old key works through the grace period");
  expectError(await biz.test.post(`/v1/api-keys/${event.id}/reveal`), 409, "STATE_CONFLICT");
  assert.equal((await apiKeyRow(event.id))?.pendingSecret, null, "the sealed value is gone once shown");
});

test("reveal: keys not made by automatic rotation have nothing to show; other tenants' keys are not found", async () => {
  const biz = await seedBusiness();
  const other = await seedBusiness();
  const k = await createKey(biz.test, {});
  const err = expectError(await biz.test.post(`/v1/api-keys/${k.id}/reveal`), 409, "STATE_CONFLICT");
  assert.ok(!JSON.stringify(err).includes(k.key));
  expectError(await other.test.post(`/v1/api-keys/${k.id}/reveal`), 404, "RESOURCE_NOT_FOUND");
  const reader = await createKey(biz.test, { scopes: ["api_keys:read"] });
  expectError(await client(reader.key).post(`/v1/api-keys/${k.id}/reveal`), 403, "INSUFFICIENT_SCOPE");
});

test("manual rotation emits api_key.rotated too, and webhooks may subscribe to api_key.*", async () => {
  const biz = await seedBusiness();
  const k = await createKey(biz.test, {});
  const hook = await biz.test.post("/v1/webhooks", { url: "http://127.0.0.1:9/hook", events: ["api_key.*"] });
  assert.equal(hook.status, 201, hook.text.slice(0, 300));
  const rotated = await biz.test.post(`/v1/api-keys/${k.id}/rotate`, {});
  assert.equal(rotated.status, 201);
  const events = await eventsFor(biz.test, "api_key.rotated", k.id);
  assert.equal(events.length, 1);
  assert.equal(events[0].data.automatic, false);
  assert.equal(events[0].data.secretPending, false);
  const deliveries = await biz.test.get(`/v1/webhooks/${hook.body.data.id}/deliveries?event=api_key.rotated`);
  assert.equal(deliveries.status, 200);
  assert.equal(deliveries.body.data.length, 1);
});
