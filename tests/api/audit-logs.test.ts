// GET /v1/audit-logs: every change to a key (created, updated, rotated, revoked) with who, when, from where
// and what, listed with the collection parameters, and only ever to the business and environment it belongs to.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { client, expectError, request, seedBusiness, type ApiClient } from "../helpers/api";
import { poll } from "../helpers/db";

interface Entry {
  id: string;
  action: string;
  actorType: string;
  actorId: string | null;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, any> | null;
  environment: string | null;
  createdAt: string;
}

async function createKey(api: ApiClient, body: Record<string, unknown>, headers?: Record<string, string>) {
  const res = await api.post("/v1/api-keys", { name: "Audited key", ...body }, headers);
  assert.equal(res.status, 201, res.text.slice(0, 300));
  return res.body.data as { id: string; key: string; [k: string]: any };
}

/** The audit entries about one key, once `count` of them are there (entries are written in batches). */
async function entriesFor(api: ApiClient, targetId: string, count: number): Promise<Entry[]> {
  const entries = await poll(async () => {
    const res = await api.get(`/v1/audit-logs?targetId=${targetId}&limit=100`);
    assert.equal(res.status, 200, res.text.slice(0, 300));
    return res.body.data.length >= count ? (res.body.data as Entry[]) : null;
  });
  assert.ok(entries, `fewer than ${count} audit entries for ${targetId} within 10 s`);
  return entries;
}

async function bootstrapKeyId(api: ApiClient) {
  return (await api.get("/v1/api-keys?name=Bootstrap%20test%20key")).body.data[0].id as string;
}

/** One key through its whole life: created, updated, rotated, revoked. */
async function keyLifecycle(api: ApiClient, agent: string) {
  const h = { "user-agent": agent };
  const k = await createKey(api, { name: "Lifecycle", scopes: ["products:read"] }, h);
  assert.equal((await api.patch(`/v1/api-keys/${k.id}`, { name: "Lifecycle 2", metadata: { a: "b" } }, h)).status, 200);
  const rotated = await api.post(`/v1/api-keys/${k.id}/rotate`, {}, h);
  assert.equal(rotated.status, 201);
  assert.equal((await api.delete(`/v1/api-keys/${k.id}`, h)).status, 204);
  return { key: k, newKey: rotated.body.data as { id: string; key: string } };
}

test("creation, update, rotation and revocation of a key are audited with actor, address and details", async () => {
  const biz = await seedBusiness("enterprise");
  const agent = `audit-test-${randomBytes(4).toString("hex")}`;
  const started = Date.now();
  const { key, newKey } = await keyLifecycle(biz.test, agent);
  const entries = await entriesFor(biz.test, key.id, 4);
  assert.deepEqual(
    entries.map((e) => e.action),
    ["api_key.revoked", "api_key.rotated", "api_key.updated", "api_key.created"],
    "newest first",
  );
  const actor = await bootstrapKeyId(biz.test);
  for (const e of entries) {
    assert.match(e.id, /^aud_/);
    assert.equal(e.actorType, "api_key");
    assert.equal(e.actorId, actor);
    assert.equal(e.targetType, "api_key");
    assert.equal(e.ip, "127.0.0.1");
    assert.equal(e.userAgent, agent);
    assert.equal(e.environment, "test");
    assert.ok(Date.parse(e.createdAt) >= started - 1000 && Date.parse(e.createdAt) <= Date.now());
  }
  const [revoked, rotated, updated, created] = entries;
  assert.deepEqual(created.details?.scopes, ["products:read"]);
  assert.deepEqual([...updated.details?.fields].sort(), ["metadata", "name"]);
  assert.equal(rotated.details?.newKeyId, newKey.id);
  assert.equal(rotated.details?.gracePeriodDays, 7);
  assert.equal(revoked.details?.name, "Lifecycle 2");

  // The new key's creation is told by the rotation entry; no entry holds a key.
  const all = await biz.test.get("/v1/audit-logs?limit=100");
  for (const k of [key.key, newKey.key, biz.testKey]) assert.ok(!all.text.includes(k.slice(8)), "an audit entry holds a key");
});

test("the audit list filters by action and target, and pages with limit and cursor", async () => {
  const biz = await seedBusiness("enterprise");
  const one = await keyLifecycle(biz.test, "a");
  const two = await keyLifecycle(biz.test, "b");
  await entriesFor(biz.test, two.key.id, 4);
  const rotations = await biz.test.get("/v1/audit-logs?action=api_key.rotated");
  assert.equal(rotations.status, 200);
  assert.deepEqual(
    rotations.body.data.map((e: Entry) => e.targetId),
    [two.key.id, one.key.id],
  );
  assert.ok(rotations.body.data.every((e: Entry) => e.action === "api_key.rotated"));
  const two_ = await biz.test.get("/v1/audit-logs?action=api_key.created,api_key.revoked&targetId=" + one.key.id);
  assert.deepEqual(
    two_.body.data.map((e: Entry) => e.action),
    ["api_key.revoked", "api_key.created"],
  );

  const first = await biz.test.get("/v1/audit-logs?limit=3");
  assert.equal(first.body.data.length, 3);
  assert.equal(first.body.pagination.hasMore, true);
  const next = await biz.test.get(`/v1/audit-logs?limit=3&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`);
  assert.equal(next.status, 200);
  const ids = [...first.body.data, ...next.body.data].map((e: Entry) => e.id);
  assert.equal(new Set(ids).size, 6, "pages overlap");
  const fields = await biz.test.get("/v1/audit-logs?limit=1&fields=action");
  assert.deepEqual(Object.keys(fields.body.data[0]).sort(), ["action", "id"]);

  expectError(await biz.test.get("/v1/audit-logs?businessId=biz_x"), 400, "INVALID_FILTER");
  expectError(await biz.test.get("/v1/audit-logs?limit=0"), 400, "INVALID_PARAMETER");
  expectError(await biz.test.get("/v1/audit-logs?cursor=garbage"), 400, "INVALID_CURSOR");
});

test("another business, and the other environment, never see these entries", async () => {
  const a = await seedBusiness("enterprise");
  const b = await seedBusiness("enterprise");
  const { key } = await keyLifecycle(a.test, "tenant-a");
  const mine = await entriesFor(a.test, key.id, 4);
  assert.deepEqual((await b.test.get(`/v1/audit-logs?targetId=${key.id}`)).body.data, []);
  const theirs = await b.test.get("/v1/audit-logs?limit=100");
  assert.equal(theirs.status, 200);
  const ids = new Set(theirs.body.data.map((e: Entry) => e.id));
  assert.ok(
    mine.every((e) => !ids.has(e.id)),
    "business B sees business A's entries",
  );
  assert.deepEqual((await a.live.get(`/v1/audit-logs?targetId=${key.id}`)).body.data, [], "the live environment sees test entries");
});

test("a key with audit_logs:read reads the log; one without is refused", async () => {
  const biz = await seedBusiness("enterprise");
  const reader = await createKey(biz.test, { scopes: ["audit_logs:read"] });
  const res = await client(reader.key).get("/v1/audit-logs");
  assert.equal(res.status, 200);
  assert.ok(Array.isArray(res.body.data));
  const other = await createKey(biz.test, { scopes: ["api_keys:read"] });
  assert.equal(expectError(await client(other.key).get("/v1/audit-logs"), 403, "INSUFFICIENT_SCOPE").requiredScope, "audit_logs:read");
  expectError(await request("GET", "/v1/audit-logs"), 401, "INVALID_API_KEY");
});
