// The rules an Idempotency-Key's record follows after a crash or an overrun, checked in-process on the test
// database (lib/server/idempotency.ts, lib/db/commit-hook.ts): a retry takes over an expired claim; the attempt
// that lost its claim has its transaction rolled back; a request that committed but lost its response is never
// run again; the stored response is sealed and opens only in its own record.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { beginIdempotent, completeIdempotent, markCommitted, requestHash, type IdempotencyClaim } from "@/lib/server/idempotency";
import { runWithCommitHook } from "@/lib/db/commit-hook";
import { withEvents } from "@/lib/events/emit-event";
import { ApiError } from "@/lib/http/errors";
import { newId } from "@/lib/ids";
import type { AuthContext } from "@/lib/http/auth-context";
import { db } from "../helpers/db";
import { seedBusiness } from "../helpers/api";

const LEASE_MS = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let saved: string | undefined;
before(() => {
  saved = process.env.IDEMPOTENCY_LEASE_MS;
  process.env.IDEMPOTENCY_LEASE_MS = String(LEASE_MS);
});
after(() => {
  if (saved === undefined) delete process.env.IDEMPOTENCY_LEASE_MS;
  else process.env.IDEMPOTENCY_LEASE_MS = saved;
});

async function setup() {
  const biz = await seedBusiness();
  const auth = { businessId: biz.businessId, environment: "test", projectId: biz.projectId } as unknown as AuthContext;
  const key = `lease-${randomBytes(6).toString("hex")}`;
  const hash = requestHash("POST", "/v1/products", '{"name":"x"}');
  const begin = () => beginIdempotent(auth, key, "POST", "/v1/products", hash);
  const claimOf = async () => {
    const b = await begin();
    assert.equal(b.kind, "run");
    return (b as { claim: IdempotencyClaim }).claim;
  };
  return { biz, key, begin, claimOf };
}

/** A handler's write (a product) in withEvents, under the claim's commit hook, as the pipeline runs it. */
function handlerWrites(claim: IdempotencyClaim, businessId: string, name: string) {
  return runWithCommitHook(
    (tx) => markCommitted(claim, tx),
    async () => {
      const id = newId("product");
      const t = new Date();
      await withEvents((tx) =>
        tx.product.create({ data: { id, businessId, environment: "test", name, type: "API", createdAt: t, updatedAt: t } }),
      );
      return id;
    },
  );
}

const errorCode = async (p: Promise<unknown>) =>
  p.then(
    () => "none",
    (e) => (e instanceof ApiError ? e.code : String(e)),
  );

test("a retry takes over an expired claim; the attempt that lost it is rolled back, the retry's commits", async () => {
  const { biz, begin, claimOf } = await setup();
  const first = await claimOf();
  assert.equal(await errorCode(begin()), "IDEMPOTENCY_KEY_IN_USE", "the claim holds during its lease");
  await sleep(LEASE_MS + 50);
  const second = await claimOf();
  assert.equal(second.recordId, first.recordId);

  // The first attempt, still running after its lease, reaches its write: refused and rolled back.
  assert.equal(await errorCode(handlerWrites(first, biz.businessId, "overran")), "IDEMPOTENCY_KEY_IN_USE");
  assert.equal(
    await db.product.count({ where: { businessId: biz.businessId, name: "overran" } }),
    0,
    "the overrunning attempt's write was kept",
  );

  const id = await handlerWrites(second, biz.businessId, "retried");
  assert.equal((await db.idempotencyRecord.findUniqueOrThrow({ where: { id: second.recordId } })).state, "committed");
  const body = JSON.stringify({ data: { id, key: `sk_test_${randomBytes(32).toString("base64url")}` } });
  await completeIdempotent(second, { status: 201, body });
  const replay = await begin();
  assert.deepEqual(replay, { kind: "replay", response: { status: 201, body } });
  const row = await db.idempotencyRecord.findUniqueOrThrow({ where: { id: second.recordId } });
  assert.equal(row.state, "complete");
  assert.ok(!row.responseBody!.includes(id) && !row.responseBody!.includes("sk_test_"), "the stored response is not sealed");
});

test("a request that committed but never stored its response is not run again after its lease", async () => {
  const { biz, begin, claimOf } = await setup();
  const claim = await claimOf();
  await handlerWrites(claim, biz.businessId, "committed, then the server stopped");
  assert.equal(await errorCode(begin()), "IDEMPOTENCY_KEY_IN_USE", "within the lease it may still be finishing");
  await sleep(LEASE_MS + 50);
  assert.equal(await errorCode(begin()), "IDEMPOTENCY_RESULT_LOST");
  assert.equal(await db.product.count({ where: { businessId: biz.businessId, name: "committed, then the server stopped" } }), 1);
});

test("a sealed response copied into another key's record does not open there", async () => {
  const a = await setup();
  const b = await setup();
  const claimA = await a.claimOf();
  await completeIdempotent(claimA, { status: 201, body: '{"data":{"secret":"for business A"}}' });
  const claimB = await b.claimOf();
  await completeIdempotent(claimB, { status: 201, body: '{"data":{}}' });
  const sealedA = (await db.idempotencyRecord.findUniqueOrThrow({ where: { id: claimA.recordId } })).responseBody;
  await db.idempotencyRecord.update({ where: { id: claimB.recordId }, data: { responseBody: sealedA } });
  assert.equal(await errorCode(b.begin()), "IDEMPOTENCY_RESULT_LOST");
  assert.equal(((await a.begin()) as { response: { body: string } }).response.body, '{"data":{"secret":"for business A"}}');
});
