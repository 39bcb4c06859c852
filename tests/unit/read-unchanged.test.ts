// readUnchanged (lib/db/sqlite-direct.ts) keeps a read's result while nothing is committed to the database, and
// reads again after any commit: another connection's in this process (Prisma's, the SQLite thread's), another
// process's, or one of the plain connection's own (bulkInsert when the SQLite thread is not running).
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const dir = mkdtempSync(path.join(tmpdir(), "read-unchanged-"));
const file = path.join(dir, "unit.db");
process.env.DATABASE_URL = `file:${file}`;

const other = new Database(file);
other.pragma("journal_mode = WAL");
other.exec(`CREATE TABLE "Note" ("id" TEXT PRIMARY KEY, "text" TEXT)`);
after(() => {
  other.close();
  directSqlite()?.conn.close();
  rmSync(dir, { recursive: true, force: true });
});

const { directSqlite, readUnchanged } = await import("@/lib/db/sqlite-direct");
const { bulkInsert } = await import("@/lib/db/bulk-insert");
const s = directSqlite()!;

/** The notes' texts through the cache, and how many times the database was actually read. */
let reads = 0;
function notes(key = "notes"): string[] {
  return readUnchanged(s, key, () => {
    reads++;
    return (s.conn.prepare(`SELECT "text" FROM "Note" ORDER BY "id"`).pluck(true).all() as string[]).slice();
  });
}

test("an unchanged database answers a repeated read from memory, the same result", () => {
  reads = 0;
  const first = notes();
  assert.equal(notes(), first);
  assert.equal(notes(), first);
  assert.equal(reads, 1);
  notes("another key");
  assert.equal(reads, 2);
});

test("a commit by another connection of this process is seen by the next read", () => {
  notes();
  reads = 0;
  other.prepare(`INSERT INTO "Note" VALUES ('n1', 'written by another connection')`).run();
  assert.deepEqual(notes(), ["written by another connection"]);
  assert.equal(reads, 1);
});

test("a commit by another process is seen by the next read", () => {
  notes();
  reads = 0;
  execFileSync(process.execPath, [
    "-e",
    `const D = require("better-sqlite3"); const d = new D(${JSON.stringify(file)}); d.prepare("UPDATE \\"Note\\" SET \\"text\\" = 'changed by another process'").run(); d.close();`,
  ]);
  assert.deepEqual(notes(), ["changed by another process"]);
  assert.equal(reads, 1);
});

test("a commit of the plain connection itself (bulkInsert without the SQLite thread) is seen by the next read", async () => {
  notes();
  reads = 0;
  await bulkInsert("Note", { id: "text", text: "text" }, [{ id: "n2", text: "inserted on the plain connection" }]);
  assert.deepEqual(notes(), ["changed by another process", "inserted on the plain connection"]);
  assert.equal(reads, 1);
  assert.deepEqual(notes(), ["changed by another process", "inserted on the plain connection"]);
  assert.equal(reads, 1);
});

test("a transaction rolled back changes nothing, and the kept result stays", () => {
  notes();
  reads = 0;
  const fail = other.transaction(() => {
    other.prepare(`INSERT INTO "Note" VALUES ('n3', 'never committed')`).run();
    throw new Error("rolled back");
  });
  assert.throws(() => fail(), /rolled back/);
  assert.deepEqual(notes(), ["changed by another process", "inserted on the plain connection"]);
  assert.equal(reads, 0);
});
