// /readyz's rounds of checks (lib/server/readiness.ts) on a SQLite database of its own: a ready round answers the
// callers of the next READYZ_CACHE_MS, callers at the same moment share one round, and a round that found something
// down is not kept, so a node that is not ready is checked again on every ask.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";

let database: { url: string; drop(): Promise<void> };
let readiness: typeof import("@/lib/server/readiness").readiness;

before(async () => {
  database = await createTestDatabase("sqlite");
  process.env.DATABASE_URL = database.url;
  delete process.env.REDIS_URL;
  ({ readiness } = await import("@/lib/server/readiness"));
});
after(async () => {
  const { db } = await import("@/lib/db/client");
  await db.$disconnect();
  await database?.drop();
});

function nextCheck(ok: () => boolean) {
  const calls = { n: 0 };
  const extra = async () => {
    calls.n++;
    return [{ name: "next", ok: ok() }];
  };
  return { calls, extra };
}

test("a ready round answers for READYZ_CACHE_MS, and callers at once share a round", async () => {
  process.env.READYZ_CACHE_MS = "300";
  const { calls, extra } = nextCheck(() => true);
  const [a, b] = await Promise.all([readiness(extra), readiness(extra)]);
  assert.equal(calls.n, 1, "one round for two callers at once");
  assert.deepEqual(a, b);
  assert.equal(a.ok, true);
  assert.deepEqual(
    a.checks.map((c) => c.name),
    ["database", "migrations", "next"],
  );
  await readiness(extra);
  assert.equal(calls.n, 1, "within 300 ms: the same round");
  await new Promise((r) => setTimeout(r, 350));
  await readiness(extra);
  assert.equal(calls.n, 2, "after it: a new round");
});

test("a round that found something down is not kept; READYZ_CACHE_MS=0 checks every time", async () => {
  process.env.READYZ_CACHE_MS = "60000";
  await new Promise((r) => setTimeout(r, 10));
  let up = false;
  const { calls, extra } = nextCheck(() => up);
  // The earlier test's ready round may still answer: start from a round that is not ready.
  process.env.READYZ_CACHE_MS = "0";
  assert.equal((await readiness(extra)).ok, false);
  process.env.READYZ_CACHE_MS = "60000";
  const before = calls.n;
  assert.equal((await readiness(extra)).ok, false);
  assert.equal((await readiness(extra)).ok, false);
  assert.equal(calls.n, before + 2, "not ready: every ask checks again");
  up = true;
  assert.equal((await readiness(extra)).ok, true, "ready at the first ask after it came back");
  assert.equal((await readiness(extra)).ok, true);
  assert.equal(calls.n, before + 3, "then kept");
  process.env.READYZ_CACHE_MS = "0";
  await readiness(extra);
  await readiness(extra);
  assert.equal(calls.n, before + 5, "READYZ_CACHE_MS=0: every ask");
});
