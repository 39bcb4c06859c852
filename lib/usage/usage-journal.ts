import { createHash } from "node:crypto";
import { closeSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, unlinkSync, writeSync } from "node:fs";
import path from "node:path";
import { dataDir } from "@/lib/cluster/node-identity";
import { databaseUrl } from "@/lib/db/client";
import { processSingleton } from "@/lib/process-state";

// A write-ahead journal for usage events that must survive a kill -9 (gateway calls: what an invoice bills). The
// recorder batches events in memory for up to USAGE_FLUSH_MS; before a billable answer reaches its client, its
// event is appended here (one synchronous write of one JSON line: the page cache keeps it when the process dies,
// only a machine crash could lose it). When a batch commits, its events are crossed off; a segment file whose
// events are all committed is deleted. A process that died leaves its segments behind: a live process (the
// restarted one, or any other server on the same database) claims them by renaming, inserts the events the
// database does not hold yet (deduplicated by id: at-least-once, never twice) and deletes them.
//
// Files: {dir}/{pid}.{process start}.{seq}.jsonl, where dir is per database (a journal is never replayed into
// another database). A claimed file gets `.claimed.{pid}.{start}` appended, so a recoverer that dies too leaves
// it to the next one.

export interface JournalRow {
  id: string;
}

interface Segment {
  file: string;
  fd: number;
  bytes: number;
  /** Events appended and not committed yet. */
  pending: number;
}

const ROTATE_BYTES = 4 * 1024 * 1024;
const SEGMENT = /^(\d+)\.(\d+)\.\d+\.jsonl(?:\.claimed\.(\d+)\.(\d+))?$/;

export function journalEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.USAGE_JOURNAL !== "off";
}

/** The journal's folder for this database (USAGE_JOURNAL_DIR, else {DATA_DIR}/usage-journal/{hash of DATABASE_URL}): each
 * node's own, replayed by the node when it starts again. */
export function journalDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.USAGE_JOURNAL_DIR) return path.resolve(env.USAGE_JOURNAL_DIR);
  const db = createHash("sha256").update(databaseUrl(env)).digest("hex").slice(0, 16);
  return path.join(dataDir(env), "usage-journal", db);
}

/** When a process started (clock ticks since boot, from /proc), so a reused pid is not taken for the dead one. */
function startOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number, start: string): boolean {
  const seen = startOf(pid);
  if (seen !== null) return seen === start;
  if (process.platform === "linux") return false; // no /proc entry: gone
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

const S = processSingleton("usage-journal", () => ({
  dir: "",
  self: `${process.pid}.${startOf(process.pid) ?? Date.now()}`,
  seq: 0,
  current: null as Segment | null,
  pendingById: new Map<string, Segment>(),
  /** Rows appendToJournalSoon holds for this turn's write, and that write. */
  soon: new Map<string, JournalRow>(),
  soonWritten: null as Promise<void> | null,
  failed: false,
  /** A row as its line of JSON (setJournalLine). */
  line: JSON.stringify as (row: JournalRow) => string,
}));

/** How rows become lines: the recorder's encoder compiled for its usage columns (lib/usage/journal-line.ts), else
 * JSON.stringify. The line must be JSON that reads back to the row's columns. */
export function setJournalLine(line: (row: JournalRow) => string): void {
  S.line = line;
}

function openSegment(): Segment | null {
  try {
    if (!S.dir) {
      S.dir = journalDir();
      mkdirSync(S.dir, { recursive: true });
    }
    const file = path.join(S.dir, `${S.self}.${S.seq++}.jsonl`);
    return { file, fd: openSync(file, "a"), bytes: 0, pending: 0 };
  } catch (e) {
    reportFailure(e);
    return null;
  }
}

function reportFailure(e: unknown): void {
  if (S.failed) return;
  S.failed = true; // said once: the events are still recorded, only their crash safety is gone
  console.error(`[usage] journal not writable, events queued in memory only: ${(e as Error).message}`);
}

function remove(seg: Segment): void {
  try {
    closeSync(seg.fd);
    unlinkSync(seg.file);
  } catch {
    // already gone
  }
}

/** Writes rows in one write to the current segment; false when the journal cannot be written. */
function writeRows(rows: JournalRow[]): boolean {
  const seg = (S.current ??= openSegment());
  if (!seg) return false;
  let text = "";
  for (const row of rows) text += S.line(row) + "\n";
  try {
    writeSync(seg.fd, text);
  } catch (e) {
    reportFailure(e);
    return false;
  }
  seg.bytes += text.length;
  seg.pending += rows.length;
  for (const row of rows) S.pendingById.set(row.id, seg);
  if (seg.bytes > ROTATE_BYTES) S.current = null; // the next event opens a new segment; this one goes when done
  return true;
}

/** Appends the row before its answer is sent. Once per id: a second call for the same event does nothing. */
export function appendToJournal(row: JournalRow): void {
  if (S.pendingById.has(row.id) || S.soon.has(row.id)) return;
  writeRows([row]);
}

/**
 * Appends the row with every other row appended in the same turn of the event loop, in one write (a system call
 * per gateway call was about a twentieth of its CPU): resolves once written. The caller holds the answer until
 * then, so an answered call is still always on disk. Once per id, as appendToJournal.
 */
export function appendToJournalSoon(row: JournalRow): Promise<void> {
  if (S.pendingById.has(row.id) || S.soon.has(row.id)) return Promise.resolve();
  S.soon.set(row.id, row);
  if (!S.soonWritten)
    S.soonWritten = new Promise<void>((resolve) =>
      setImmediate(() => {
        const rows = [...S.soon.values()];
        S.soon.clear();
        S.soonWritten = null;
        writeRows(rows);
        resolve();
      }),
    );
  return S.soonWritten;
}

export function isJournaled(id: string): boolean {
  return S.pendingById.has(id) || S.soon.has(id);
}

/** The rows are in the database: crossed off, and segments with nothing left pending are deleted. */
export function journalCommitted(rows: Iterable<JournalRow>): void {
  if (S.pendingById.size === 0) return;
  for (const { id } of rows) {
    const seg = S.pendingById.get(id);
    if (!seg) continue;
    S.pendingById.delete(id);
    if (--seg.pending === 0 && seg !== S.current) remove(seg);
  }
}

/** A graceful stop, after the last flush: the current segment goes when nothing in it is pending. */
export function closeJournal(): void {
  const seg = S.current;
  if (seg && seg.pending === 0) {
    remove(seg);
    S.current = null;
  }
}

/** Segments left by processes that are gone (or claimed by a recoverer that is gone), and our own claims. */
function orphans(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const mine = S.self.split(".");
  return names.filter((name) => {
    const m = SEGMENT.exec(name);
    if (!m) return false;
    if (m[3]) return (m[3] === mine[0] && m[4] === mine[1]) || !isAlive(Number(m[3]), m[4]);
    return `${m[1]}.${m[2]}` !== S.self && !isAlive(Number(m[1]), m[2]);
  });
}

/** Reads a segment's rows, the last line of each id winning; a line cut short by the crash is skipped. */
export function readSegment(text: string): Record<string, unknown>[] {
  const byId = new Map<string, Record<string, unknown>>();
  for (const line of text.split("\n")) {
    if (!line) continue;
    try {
      const row = JSON.parse(line) as Record<string, unknown>;
      if (typeof row.id === "string") byId.set(row.id, row);
    } catch {
      // a partial last line
    }
  }
  return [...byId.values()];
}

/**
 * Claims and replays the segments of dead processes: `insert` writes the rows the database lacks (it must skip
 * ids already there). Answers how many rows were replayed. A failed insert leaves the claim for the next sweep.
 */
export async function recoverJournals(insert: (rows: Record<string, unknown>[]) => Promise<number>): Promise<number> {
  const dir = S.dir || journalDir();
  let replayed = 0;
  for (const name of orphans(dir)) {
    const claimedName = name.includes(".claimed.") ? name.replace(/\.claimed\..*$/, `.claimed.${S.self}`) : `${name}.claimed.${S.self}`;
    const claimed = path.join(dir, claimedName);
    try {
      renameSync(path.join(dir, name), claimed);
    } catch {
      continue; // another process claimed it first
    }
    const rows = readSegment(readFileSync(claimed, "utf8"));
    try {
      replayed += rows.length ? await insert(rows) : 0;
      unlinkSync(claimed);
    } catch (e) {
      console.error(`[usage] journal ${claimedName} not replayed yet: ${(e as Error).message}`);
    }
  }
  return replayed;
}

export function journalStats() {
  return { pending: S.pendingById.size, segment: S.current?.file ?? null };
}
