// Background batches' notices (lib/db/count-cache.ts markBatchWritten): this process's counts are stale at once,
// other processes are told at most once per 100 ms per table, and the last batch of a burst is always told.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const dir = mkdtempSync(path.join(tmpdir(), "count-cache-batch-"));
process.env.DATABASE_URL = `file:${path.join(dir, "p.db")}`;
const { cachedCount, enableCountCache, markBatchWritten } = await import("@/lib/db/count-cache");
const { localBusFile, writeLocalBus } = await import("@/lib/bus/local-bus");

enableCountCache();
writeLocalBus("warm-up", "opens the bus file");
const other = new Database(localBusFile());
const notices = () =>
  (other.prepare("SELECT body FROM message WHERE topic = 'db-written' ORDER BY id").all() as { body: string }[]).map((r) => r.body);

test.after(() => {
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a burst of batches is one notice at once and one after the window; this process's count is stale at once", async () => {
  let total = 1;
  const run = async () => total;
  assert.equal(await cachedCount("UsageEvent", {}, run), 1);
  total = 2;
  markBatchWritten("UsageEvent");
  assert.equal(await cachedCount("UsageEvent", {}, run), 2, "this process counts afresh after its own batch");
  for (let i = 0; i < 20; i++) markBatchWritten("UsageEvent");
  assert.deepEqual(notices(), ["UsageEvent"], "the first batch is told at once, the rest of the burst waits");
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(notices(), ["UsageEvent", "UsageEvent"], "the burst's last batches are told when the window ends");
  markBatchWritten("RequestLog");
  assert.deepEqual(notices(), ["UsageEvent", "UsageEvent", "RequestLog"], "another table has a window of its own");
});
