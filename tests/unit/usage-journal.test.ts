// The usage journal (lib/usage/usage-journal.ts): a row is on disk before its answer goes out, crossed off when
// its batch commits, and a dead process's segment is claimed and replayed by a live one, exactly once.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const dir = mkdtempSync(path.join(tmpdir(), "usage-journal-"));
process.env.USAGE_JOURNAL_DIR = dir;
const journal = await import("@/lib/usage/usage-journal");
after(() => rmSync(dir, { recursive: true, force: true }));

const files = () => readdirSync(dir).sort();
const startTicks = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
};

test("journal: a row is written at once, once per id, and its segment goes when every row in it is committed", () => {
  journal.appendToJournal({ id: "use_a", n: 1 } as { id: string });
  journal.appendToJournal({ id: "use_a", n: 2 } as { id: string });
  journal.appendToJournal({ id: "use_b" });
  const [segment] = files();
  assert.match(segment, new RegExp(`^${process.pid}\\.\\d+\\.\\d+\\.jsonl$`));
  const lines = readFileSync(path.join(dir, segment), "utf8").trim().split("\n");
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).id),
    ["use_a", "use_b"],
  );
  assert.equal(journal.isJournaled("use_a"), true);
  journal.journalCommitted([{ id: "use_a" }]);
  assert.equal(journal.isJournaled("use_a"), false);
  journal.journalCommitted([{ id: "use_b" }, { id: "use_unknown" }]);
  assert.equal(journal.journalStats().pending, 0);
  // The current segment stays open for the next rows until a graceful stop closes it.
  assert.equal(files().length, 1);
  journal.closeJournal();
  assert.deepEqual(files(), []);
});

test("journal: rows appended soon in one turn are written together, once per id, before their promise settles", async () => {
  const written = Promise.all([
    journal.appendToJournalSoon({ id: "use_s1" }),
    journal.appendToJournalSoon({ id: "use_s2" }),
    journal.appendToJournalSoon({ id: "use_s1" }),
  ]);
  // Held for this turn's write: counted as journaled (recordRequest must not write it again), not on disk yet.
  assert.equal(journal.isJournaled("use_s1"), true);
  journal.appendToJournal({ id: "use_s2" });
  assert.deepEqual(files(), []);
  await written;
  const [segment] = files();
  const lines = readFileSync(path.join(dir, segment), "utf8").trim().split("\n");
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).id),
    ["use_s1", "use_s2"],
  );
  assert.equal(journal.journalStats().pending, 2);
  journal.journalCommitted([{ id: "use_s1" }, { id: "use_s2" }]);
  journal.closeJournal();
  assert.deepEqual(files(), []);
});

test("journal: reading a segment keeps the last line of each id and skips a line cut short by the crash", () => {
  const text = [
    '{"id":"use_1","statusCode":200,"responseSize":0}',
    '{"id":"use_2"}',
    '{"id":"use_1","statusCode":200,"responseSize":42}',
    '{"id":"use_3","sta',
  ].join("\n");
  const rows = journal.readSegment(text);
  assert.deepEqual(
    rows.map((r) => [r.id, r.responseSize]),
    [
      ["use_1", 42],
      ["use_2", undefined],
    ],
  );
});

test("journal: a dead process's segment is replayed once and deleted; a live process's is left alone", async () => {
  // A process that has exited: its pid's start time no longer matches (or the pid is gone).
  const gone = spawn(process.execPath, ["-e", ""]);
  const goneStart = await new Promise<string>((resolve) => gone.once("spawn", () => resolve(startTicks(gone.pid!))));
  await new Promise((r) => gone.once("exit", r));
  writeFileSync(path.join(dir, `${gone.pid}.${goneStart}.0.jsonl`), '{"id":"use_dead1"}\n{"id":"use_dead2"}\n');
  // A process still running keeps its segment.
  const alive = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
  try {
    await new Promise((r) => alive.once("spawn", r));
    const liveFile = `${alive.pid}.${startTicks(alive.pid!)}.0.jsonl`;
    writeFileSync(path.join(dir, liveFile), '{"id":"use_live"}\n');
    const seen: string[][] = [];
    const replayed = await journal.recoverJournals(async (rows) => {
      seen.push(rows.map((r) => String(r.id)));
      return rows.length;
    });
    assert.equal(replayed, 2);
    assert.deepEqual(seen, [["use_dead1", "use_dead2"]]);
    assert.deepEqual(files(), [liveFile]);
    assert.equal(await journal.recoverJournals(async () => assert.fail("nothing left to replay")), 0);
  } finally {
    alive.kill("SIGKILL");
  }
});

test("journal: a replay that fails keeps the claimed segment, and the next sweep replays it", async () => {
  for (const f of files()) rmSync(path.join(dir, f));
  writeFileSync(path.join(dir, `999999999.1.0.jsonl`), '{"id":"use_retry"}\n');
  await journal.recoverJournals(async () => {
    throw new Error("database down");
  });
  const [claimed] = files();
  assert.match(claimed, /^999999999\.1\.0\.jsonl\.claimed\.\d+\.\d+$/);
  assert.equal(await journal.recoverJournals(async (rows) => rows.length), 1);
  assert.equal(existsSync(path.join(dir, claimed)), false);
});
