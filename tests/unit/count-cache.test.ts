// The list-total cache (lib/db/count-cache.ts): a count is reused only until its model is written.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cachedCount, enableCountCache, markWritten } from "@/lib/db/count-cache";

enableCountCache();

test("a count is taken once and reused while nothing is written", async () => {
  let runs = 0;
  const run = async () => {
    runs++;
    return 7;
  };
  assert.equal(await cachedCount("Widget", { where: { businessId: "b1" } }, run), 7);
  assert.equal(await cachedCount("Widget", { where: { businessId: "b1" } }, run), 7);
  assert.equal(runs, 1);
  // Other arguments (another tenant, another filter) are another count.
  await cachedCount("Widget", { where: { businessId: "b2" } }, run);
  assert.equal(runs, 2);
});

test("a write to the model, or a raw write to any table, makes the next count run again", async () => {
  let total = 1;
  const run = async () => total;
  assert.equal(await cachedCount("Gadget", {}, run), 1);
  total = 2;
  assert.equal(await cachedCount("Gadget", {}, run), 1, "cached until a write is seen");
  markWritten("Gadget");
  assert.equal(await cachedCount("Gadget", {}, run), 2);
  total = 3;
  markWritten("SomethingElse");
  assert.equal(await cachedCount("Gadget", {}, run), 2, "another model's write leaves it");
  markWritten(null);
  assert.equal(await cachedCount("Gadget", {}, run), 3);
});

test("a count that overlapped a write is not kept (it may or may not include the write)", async () => {
  let total = 10;
  const slow = async () => {
    const seen = total;
    markWritten("Doohickey");
    total = 11;
    return seen;
  };
  assert.equal(await cachedCount("Doohickey", {}, slow), 10);
  assert.equal(await cachedCount("Doohickey", {}, async () => total), 11);
});

test("off unless the server turned it on: every count runs (scripts and tests see the database as it is)", async () => {
  // The module-level switch is on in this file; a fresh process without enableCountCache() counts every time,
  // which the API suite's own direct database reads rely on.
  const { execFileSync } = await import("node:child_process");
  const out = execFileSync(
    "node_modules/.bin/tsx",
    [
      "--conditions=react-server",
      "-e",
      'import("@/lib/db/count-cache").then(async ({ cachedCount }) => { let n = 0; const run = async () => ++n; await cachedCount("M", {}, run); console.log(await cachedCount("M", {}, run)); })',
    ],
    { encoding: "utf8" },
  );
  assert.equal(out.trim(), "2");
});
