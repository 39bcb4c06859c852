// WAL checkpoints on their own thread (lib/db/sqlite-checkpoint.ts): a connection that never checkpoints writes
// only to the -wal file; the worker copies those pages into the database file without the writer doing anything.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

process.env.SQLITE_CHECKPOINT_MS = "50";
const { startCheckpointWorker, checkpointWorkerRunning } = await import("@/lib/db/sqlite-checkpoint");

const dir = mkdtempSync(path.join(tmpdir(), "sqlite-checkpoint-"));
after(() => rmSync(dir, { recursive: true, force: true }));

test("checkpoint thread: pages written by a connection that never checkpoints reach the database file", async () => {
  const file = path.join(dir, "t.db");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("wal_autocheckpoint = 0");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run("x".repeat(2000));
  })();
  // Everything is in the log so far: the database file holds only its first pages.
  assert.ok(statSync(file).size < 64 * 1024, `database file ${statSync(file).size} bytes before any checkpoint`);

  assert.equal(startCheckpointWorker(file), true);
  assert.equal(checkpointWorkerRunning(), true);
  const deadline = Date.now() + 5000;
  while (statSync(file).size < 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(statSync(file).size >= 2_000_000, `database file ${statSync(file).size} bytes: the log was not checkpointed`);
  // The writer's rows are all there, read through the database file now.
  assert.equal((db.prepare("SELECT COUNT(*) AS n FROM t").get() as { n: number }).n, 1000);
  db.close();
});
