// The local bus (lib/bus/local-bus.ts): what one process writes is committed when the call returns, and another
// process's row reaches this process's handlers at its next poll, its own rows never.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

const dir = mkdtempSync(path.join(tmpdir(), "local-bus-"));
process.env.DATABASE_URL = `file:${path.join(dir, "p.db")}`;
const { listenToLocalBus, localBusFile, pollLocalBus, writeLocalBus } = await import("@/lib/bus/local-bus");

const heard: string[] = [];
listenToLocalBus((topic, message) => heard.push(`${topic}:${message}`));
const other = new Database(localBusFile());

test.after(() => {
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

test("the bus file sits beside a SQLite database, and under data/ by the URL's hash for PostgreSQL", () => {
  assert.equal(localBusFile(), path.join(dir, "p.db-bus"));
  const a = localBusFile({ DATABASE_URL: "postgres://localhost/a" } as unknown as NodeJS.ProcessEnv);
  const b = localBusFile({ DATABASE_URL: "postgres://localhost/b" } as unknown as NodeJS.ProcessEnv);
  assert.match(a, /data\/bus-[0-9a-f]{16}\.db$/);
  assert.notEqual(a, b);
});

test("a row another process appends reaches the handlers at the next poll, once", () => {
  heard.length = 0;
  other.prepare("INSERT INTO message (at, origin, topic, body) VALUES (?, ?, ?, ?)").run(Date.now(), "another", "api-key-changed", "key_1");
  pollLocalBus();
  assert.deepEqual(heard, ["api-key-changed:key_1"]);
  pollLocalBus();
  assert.deepEqual(heard, ["api-key-changed:key_1"], "a second poll with nothing new hears nothing");
});

test("what this process writes is committed when the call returns, and not handed back to itself", () => {
  heard.length = 0;
  writeLocalBus("billing-changed", "proj_1|test");
  const row = other.prepare("SELECT topic, body FROM message ORDER BY id DESC LIMIT 1").get() as { topic: string; body: string };
  assert.deepEqual(row, { topic: "billing-changed", body: "proj_1|test" });
  pollLocalBus();
  assert.deepEqual(heard, []);
});

test("the request path polls once per event-loop turn: a row appended later in the turn waits for the next turn", async () => {
  const { pollLocalBusThisTurn } = await import("@/lib/bus/local-bus");
  await new Promise((r) => setImmediate(r)); // a turn of its own
  heard.length = 0;
  const append = (body: string) =>
    other.prepare("INSERT INTO message (at, origin, topic, body) VALUES (?, ?, ?, ?)").run(Date.now(), "another", "key", body);
  append("a");
  pollLocalBusThisTurn();
  assert.deepEqual(heard, ["key:a"], "the turn's first request hears what was committed before it");
  append("b");
  pollLocalBusThisTurn();
  assert.deepEqual(heard, ["key:a"], "a second request of the same turn does not poll again");
  await new Promise((r) => setImmediate(r));
  pollLocalBusThisTurn();
  assert.deepEqual(heard, ["key:a", "key:b"], "the next turn's first request hears the rest");
});

test("the WAL-index header moves with every commit of another connection, and only then", async () => {
  const { openWalIndexHeader, walIndexMoved } = await import("@/lib/bus/local-bus");
  const file = path.join(dir, "header.db");
  const reader = new Database(file);
  reader.pragma("journal_mode = WAL");
  reader.exec("CREATE TABLE t (v TEXT)");
  const writer = new Database(file);
  try {
    const header = openWalIndexHeader(file);
    assert.ok(header, "a WAL database has a -shm file to read");
    assert.equal(walIndexMoved(header), false, "nothing committed since it was opened");
    writer.prepare("INSERT INTO t VALUES (?)").run("a");
    assert.equal(walIndexMoved(header), true, "a commit moves it");
    assert.equal(walIndexMoved(header), false, "and it is still once looked at");
    reader.prepare("SELECT count(*) FROM t").get();
    assert.equal(walIndexMoved(header), false, "a read does not move it");
    writer.pragma("wal_checkpoint(TRUNCATE)");
    writer.prepare("INSERT INTO t VALUES (?)").run("b");
    assert.equal(walIndexMoved(header), true, "a commit after the WAL was reset moves it too");
  } finally {
    writer.close();
    reader.close();
  }
});

test("without a -shm file (no WAL) there is no header, and the poll asks SQLite every time", async () => {
  const { openWalIndexHeader } = await import("@/lib/bus/local-bus");
  const file = path.join(dir, "rollback.db");
  const conn = new Database(file);
  try {
    conn.exec("CREATE TABLE t (v TEXT)");
    assert.equal(openWalIndexHeader(file), null);
  } finally {
    conn.close();
  }
});

test("polls with nothing new do not ask SQLite; the first after another process's row does", () => {
  const { bus } = (
    globalThis as unknown as { __platformState: Map<string, { bus: { dataVersion: { get: () => unknown } } }> }
  ).__platformState.get("local-bus")!;
  const real = bus.dataVersion;
  let asked = 0;
  bus.dataVersion = { get: () => (asked++, real.get()) };
  try {
    pollLocalBus(); // whatever an earlier test left
    heard.length = 0;
    asked = 0;
    pollLocalBus();
    pollLocalBus();
    assert.equal(asked, 0, "nothing committed: SQLite not asked");
    other.prepare("INSERT INTO message (at, origin, topic, body) VALUES (?, ?, ?, ?)").run(Date.now(), "another", "t", "1");
    pollLocalBus();
    assert.equal(asked, 1);
    assert.deepEqual(heard, ["t:1"]);
    pollLocalBus();
    assert.equal(asked, 1);
  } finally {
    bus.dataVersion = real;
  }
});
