// A key's expiry must lie in the future: negative, zero or fractional `expiresInDays`, and an `expiresAt` now or
// in the past, are refused with a field error on create and on update, and nothing is created or changed.
import { test } from "node:test";
import assert from "node:assert/strict";
import { expectError, seedBusiness } from "../helpers/api";
import { apiKeyRow } from "../helpers/db";

const DAY_MS = 86_400_000;

test("create: expiresInDays below 1, fractional or absurd, and expiresAt not in the future, are field errors", async () => {
  const biz = await seedBusiness();
  const post = (body: Record<string, unknown>) =>
    biz.test.post("/v1/api-keys", { name: "Expiry probe", scopes: ["products:read"], ...body });
  const cases: [Record<string, unknown>, string][] = [
    [{ expiresInDays: -5 }, "expiresInDays"],
    [{ expiresInDays: 0 }, "expiresInDays"],
    [{ expiresInDays: -0.5 }, "expiresInDays"],
    [{ expiresInDays: 1.5 }, "expiresInDays"],
    [{ expiresInDays: -1e308 }, "expiresInDays"],
    [{ expiresInDays: 1e308 }, "expiresInDays"],
    [{ expiresInDays: "-5" }, "expiresInDays"],
    [{ expiresInDays: null }, "expiresInDays"],
    [{ expiresAt: new Date(Date.now() - 5 * DAY_MS).toISOString() }, "expiresAt"],
    [{ expiresAt: new Date(Date.now() - 1000).toISOString() }, "expiresAt"],
    [{ expiresAt: "1970-01-01T00:00:00Z" }, "expiresAt"],
    [{ expiresAt: "2020-06-01T12:00:00+14:00" }, "expiresAt"],
    [{ expiresAt: new Date(Date.now() + DAY_MS).toISOString(), expiresInDays: 5 }, "expiresInDays"],
  ];
  for (const [body, field] of cases) {
    const e = expectError(await post(body), 400, "INVALID_FIELD");
    assert.equal(e.field, field, JSON.stringify(body));
  }
  const listed = await biz.test.get("/v1/api-keys?name=Expiry%20probe");
  assert.equal(listed.body.data.length, 0, "no key was created by a refused request");
  // The accepted forms, for contrast.
  const ok = await post({ expiresInDays: 1 });
  assert.equal(ok.status, 201, ok.text.slice(0, 300));
  assert.ok(Math.abs(Date.parse(ok.body.data.expiresAt) - (Date.now() + DAY_MS)) < 60_000);
});

test("update: expiresAt now or in the past is a field error and leaves the key's expiry as it was", async () => {
  const biz = await seedBusiness();
  const created = await biz.test.post("/v1/api-keys", { name: "Patched", scopes: ["products:read"], expiresInDays: 30 });
  assert.equal(created.status, 201, created.text.slice(0, 300));
  const id = created.body.data.id as string;
  const before = (await apiKeyRow(id))!.expiresAt!.getTime();
  for (const expiresAt of [new Date(Date.now() - DAY_MS).toISOString(), "1999-12-31T23:59:59Z", new Date(Date.now() - 1).toISOString()]) {
    const e = expectError(await biz.test.patch(`/v1/api-keys/${id}`, { expiresAt }), 400, "INVALID_FIELD");
    assert.equal(e.field, "expiresAt", expiresAt);
  }
  for (const body of [{ expiresInDays: -5 }, { expiresInDays: 10 }]) {
    // Update takes an absolute expiresAt only; a relative one is an unknown field, not silently ignored.
    const e = expectError(await biz.test.patch(`/v1/api-keys/${id}`, body), 400, "INVALID_FIELD");
    assert.equal(e.field, "expiresInDays");
  }
  assert.equal((await apiKeyRow(id))!.expiresAt!.getTime(), before, "the refused updates changed the expiry");
  assert.equal((await biz.test.get(`/v1/api-keys/${id}`)).body.data.status, "active");
});

test("rotation settings cannot put a key's due date or grace period in the past", async () => {
  const biz = await seedBusiness();
  const post = (body: Record<string, unknown>) =>
    biz.test.post("/v1/api-keys", { name: "Rotation probe", scopes: ["products:read"], ...body });
  for (const rotation of [{ maxAge: -5 }, { maxAge: 0 }, { gracePeriod: -1 }, { notificationDays: [-3] }, { notificationDays: [0] }]) {
    const e = expectError(await post({ rotation }), 400, "INVALID_FIELD");
    assert.match(e.field ?? "", /^rotation\./, JSON.stringify(rotation));
  }
  const k = await post({});
  assert.equal(k.status, 201);
  const e = expectError(await biz.test.post(`/v1/api-keys/${k.body.data.id}/rotate`, { gracePeriodDays: -5 }), 400, "INVALID_FIELD");
  assert.equal(e.field, "gracePeriodDays");
  assert.equal((await apiKeyRow(k.body.data.id))!.rotatedAt, null, "the refused rotation rotated the key");
});
