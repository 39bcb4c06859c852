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
