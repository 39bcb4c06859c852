// lib/billing/entitlement.ts: an allowance comes from the process's memory, a refusal is confirmed by a read of the
// database begun after the call arrived. A subscription written by another node (here: straight into the database,
// with no bus message, as when pub/sub lost it) is served at once; refusals that arrive together share one read.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";

let database: { url: string; drop(): Promise<void> };
let db: typeof import("@/lib/db/client").db;
let entitlementFor: typeof import("@/lib/billing/entitlement").entitlementFor;

const env = "test";
const key = { projectId: "proj_ent", environment: env, scopes: ["*"] };
const period = { currentPeriodStart: new Date(Date.now() - 86_400_000), currentPeriodEnd: new Date(Date.now() + 29 * 86_400_000) };

before(async () => {
  database = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = database.url;
  ({ db } = await import("@/lib/db/client"));
  ({ entitlementFor } = await import("@/lib/billing/entitlement"));
  await db.business.create({ data: { id: "biz_ent", name: "Provider" } });
  await db.project.create({ data: { id: key.projectId, businessId: "biz_ent", name: "Consumer" } });
  for (const p of ["a", "b", "c"]) {
    await db.product.create({ data: { id: `prod_${p}`, businessId: "biz_ent", environment: env, name: p, type: "API" } });
    await db.price.create({
      data: {
        id: `price_${p}`,
        businessId: "biz_ent",
        environment: env,
        productId: `prod_${p}`,
        name: "Free",
        type: "free",
        currency: "USD",
      },
    });
  }
  await subscribeDirectly("a");
});
after(async () => {
  await db?.$disconnect();
  await database?.drop();
});

/** A subscription another node made: in the database, announced to no one here. */
async function subscribeDirectly(product: string) {
  const now = new Date();
  await db.subscription.create({
    data: {
      id: `sub_${product}`,
      businessId: "biz_ent",
      projectId: key.projectId,
      environment: env,
      productId: `prod_${product}`,
      priceId: `price_${product}`,
      status: "active",
      createdAt: now,
      updatedAt: now,
      ...period,
    },
  });
}

/** Counts the subscription reads (one per load of the project's billing state) while `run` goes on. */
async function countingReads<T>(run: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const delegate = db.subscription as unknown as { findMany: (...a: unknown[]) => unknown };
  const original = delegate.findMany;
  let reads = 0;
  delegate.findMany = (...a: unknown[]) => {
    reads++;
    return original.apply(delegate, a);
  };
  try {
    return { result: await run(), reads };
  } finally {
    delegate.findMany = original;
  }
}

test("a subscription made elsewhere is served at once: the cached refusal is confirmed by a fresh read", async () => {
  const at = Date.now();
  assert.equal((await entitlementFor(key, "prod_a", at)).code, "VALID");
  assert.equal((await entitlementFor(key, "prod_b", at)).code, "PRODUCT_NOT_SUBSCRIBED", "not subscribed yet");
  await subscribeDirectly("b");
  const { result, reads } = await countingReads(async () => entitlementFor(key, "prod_b", Date.now()));
  assert.equal(result.code, "VALID", "the refusal the cache held was read again");
  assert.equal(reads, 1);
  // An allowance is served from memory: no read (a removal reaches a process through the bus, within its bound).
  const served = await countingReads(async () => entitlementFor(key, "prod_a", Date.now()));
  assert.deepEqual([served.result.code, served.reads], ["VALID", 0]);
});

test("refusals that arrive together share one read, and each is still confirmed by a read begun after it arrived", async () => {
  const { result, reads } = await countingReads(() =>
    Promise.all(Array.from({ length: 20 }, () => entitlementFor(key, "prod_c", Date.now()))),
  );
  assert.deepEqual(new Set(result.map((e) => e.code)), new Set(["PRODUCT_NOT_SUBSCRIBED"]));
  assert.ok(reads >= 1 && reads <= 2, `20 refusals read ${reads} times`);
  // A refusal whose read is in flight when the subscription commits waits for the next read: allowed.
  const first = entitlementFor(key, "prod_c", Date.now());
  await subscribeDirectly("c");
  const second = entitlementFor(key, "prod_c", Date.now());
  assert.equal((await first).code, "PRODUCT_NOT_SUBSCRIBED", "read before the subscription");
  assert.equal((await second).code, "VALID", "queued behind the read in flight, then read again");
});

test("a key whose scopes leave the product out is refused without a read", async () => {
  const { result, reads } = await countingReads(async () => entitlementFor({ ...key, scopes: ["call:prod_a"] }, "prod_b", Date.now()));
  assert.deepEqual([result.code, result.status, reads], ["PRODUCT_NOT_SUBSCRIBED", 403, 0]);
});
