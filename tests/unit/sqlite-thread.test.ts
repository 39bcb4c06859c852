// The server's SQLite thread (lib/db/sqlite-thread.ts): WAL checkpoints, and batched inserts run off the event
// loop. A connection that never checkpoints writes only to the -wal file; the thread copies those pages into the
// database file without the writer doing anything. Inserts posted to it commit together or not at all, and wait
// for a write lock another connection holds rather than failing.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

process.env.SQLITE_CHECKPOINT_MS = "50";
const { startSqliteThread, sqliteThreadRunning, insertOnSqliteThread, stopSqliteThread } = await import("@/lib/db/sqlite-thread");

const dir = mkdtempSync(path.join(tmpdir(), "sqlite-thread-"));
const file = path.join(dir, "t.db");
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("wal_autocheckpoint = 0");
db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
db.exec("CREATE TABLE u (id TEXT PRIMARY KEY, n INTEGER NOT NULL)");
after(async () => {
  await stopSqliteThread();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

test("checkpoints: pages written by a connection that never checkpoints reach the database file", async () => {
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) insert.run("x".repeat(2000));
  })();
  // Everything is in the log so far: the database file holds only its first pages.
  assert.ok(statSync(file).size < 64 * 1024, `database file ${statSync(file).size} bytes before any checkpoint`);

  assert.equal(sqliteThreadRunning(file), false);
  assert.equal(startSqliteThread(file), true);
  assert.equal(sqliteThreadRunning(file), true);
  assert.equal(sqliteThreadRunning(path.join(dir, "other.db")), false);
  const deadline = Date.now() + 5000;
  while (statSync(file).size < 2_000_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(statSync(file).size >= 2_000_000, `database file ${statSync(file).size} bytes: the log was not checkpointed`);
  // The writer's rows are all there, read through the database file now.
  assert.equal(count("t"), 1000);
});

test("inserts: committed when the promise resolves, visible to another connection", async () => {
  startSqliteThread(file);
  const rows = Array.from({ length: 300 }, (_, i) => [`row_${i}`, i]);
  await insertOnSqliteThread(`INSERT INTO u (id, n) VALUES (?, ?)`, rows);
  assert.equal(count("u"), 300);
  assert.deepEqual(db.prepare("SELECT id, n FROM u WHERE id = 'row_299'").get(), { id: "row_299", n: 299 });
});

test("inserts: a failing row fails the whole batch, with SQLite's code, and writes none of it", async () => {
  startSqliteThread(file);
  const before = count("u");
  await assert.rejects(
    insertOnSqliteThread(`INSERT INTO u (id, n) VALUES (?, ?)`, [
      ["fresh_1", 1],
      ["row_0", 2], // taken by the test before
    ]),
    (e: Error & { code?: string }) => e.code === "SQLITE_CONSTRAINT_PRIMARYKEY" && /UNIQUE/.test(e.message),
  );
  assert.equal(count("u"), before);
  assert.equal(db.prepare("SELECT id FROM u WHERE id = 'fresh_1'").get(), undefined);
  await assert.rejects(insertOnSqliteThread(`INSERT INTO missing (id) VALUES (?)`, [["x"]]), /no such table/);
  // The thread is still there for the next batch.
  await insertOnSqliteThread(`INSERT INTO u (id, n) VALUES (?, ?)`, [["after_failure", 1]]);
  assert.equal(count("u"), before + 1);
});

test("inserts: wait for a write lock another connection holds, then commit", async () => {
  startSqliteThread(file);
  const other = new Database(file);
  other.exec("BEGIN IMMEDIATE");
  other.prepare("INSERT INTO u (id, n) VALUES (?, ?)").run("held", 0);
  let settled = false;
  const pending = insertOnSqliteThread(`INSERT INTO u (id, n) VALUES (?, ?)`, [["waited", 1]]).finally(() => (settled = true));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(settled, false, "the insert went through while another connection held the write lock");
  other.exec("COMMIT");
  other.close();
  await pending;
  assert.deepEqual(db.prepare("SELECT n FROM u WHERE id = 'waited'").get(), { n: 1 });
  assert.deepEqual(db.prepare("SELECT n FROM u WHERE id = 'held'").get(), { n: 0 });
});

test("a stopped thread: what is asked of it fails at once (the recorder keeps the rows and retries)", async () => {
  startSqliteThread(file);
  await stopSqliteThread();
  assert.equal(sqliteThreadRunning(), false);
  await assert.rejects(insertOnSqliteThread(`INSERT INTO u (id, n) VALUES (?, ?)`, [["late", 1]]), /not running/);
});
