import { hostname } from "node:os";
import pg from "pg";
import { databaseProvider, databaseUrl, plainPostgresUrl } from "@/lib/db/database-url";
import { processSingleton } from "@/lib/process-state";
import { localBusFile } from "./local-bus";

// The bus between nodes that does not lose a message (issue 61). Redis pub/sub reaches other nodes within a round trip
// but at most once: a message published while the connection is down, or missed by a subscriber whose connection
// dropped for a moment, is gone. So on PostgreSQL every message is also a row of BusMessage, and every process reads
// the rows after the last one it saw every BUS_POLL_MS (default 500 ms): a revoked key, a cancelled subscription, a
// changed price is honoured on every node within about that long whatever happened to pub/sub, and at once on the
// node that made it (the local bus). Handlers are idempotent, so hearing a change twice (pub/sub, then the table)
// costs nothing.
//
// Its own small pool of plain `pg` connections (one per process), with unnamed statements only: it works behind
// pgbouncer in transaction pooling, and it needs no Prisma client (the bus sits below the database layer).
// The id sequence is not a commit order: a row with a smaller id may commit after a larger one was read. An id
// skipped over is remembered for GAP_MS and asked for again until it appears (or it never will: a rolled-back insert).

/** Topics not carried: each message's staleness is bounded elsewhere, and they are many (count-cache's writes). */
const NOT_CARRIED = new Set(["db-written"]);
const GAP_MS = 10_000;
const KEEP_MINUTES = 10;

type Deliver = (topic: string, message: string) => void;

const state = processSingleton("cluster-bus", () => ({
  pool: undefined as pg.Pool | null | undefined,
  origin: "",
  queue: [] as { topic: string; message: string; at: Date }[],
  flushing: false,
  polling: false,
  /** Highest id read; null until the first poll (which starts from the newest row: this process's caches are empty). */
  lastId: null as number | null,
  gaps: new Map<number, number>(), // id → until when it is asked for
  deliver: null as Deliver | null,
}));

/** The interval between two reads of the table (BUS_POLL_MS, default 500 ms). */
export const busPollMs = (env: NodeJS.ProcessEnv = process.env): number => {
  const ms = Number(env.BUS_POLL_MS ?? 500);
  return Number.isFinite(ms) && ms >= 50 ? ms : 500;
};

function pool(): pg.Pool | null {
  if (state.pool !== undefined) return state.pool;
  const url = databaseUrl();
  if (databaseProvider(url) !== "postgresql" || process.env.CLUSTER_BUS === "off") return (state.pool = null);
  // Messages from processes that share this node's local bus were heard through it: skipped here.
  state.origin = `${hostname()}|${localBusFile()}`;
  state.pool = new pg.Pool({ connectionString: plainPostgresUrl(url), max: 1, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
  state.pool.on("error", (e) => console.warn(`[cluster-bus] ${e.message}`));
  return state.pool;
}

/** Queues `message` on `topic` for the other nodes (one INSERT for what a turn of the event loop published). */
export function recordForOtherNodes(topic: string, message: string): void {
  if (NOT_CARRIED.has(topic) || !pool()) return;
  state.queue.push({ topic, message, at: new Date() });
  if (!state.flushing) {
    state.flushing = true;
    setImmediate(() => void flush());
  }
}

async function flush(): Promise<void> {
  const rows = state.queue.splice(0);
  try {
    if (!rows.length) return;
    const values = rows.map((_, i) => `($${i * 4 + 1}, $${i * 4 + 2}, $${i * 4 + 3}, $${i * 4 + 4})`).join(", ");
    // ISO text in UTC: the column is a timestamp without a zone, as Prisma writes them.
    const params = rows.flatMap((r) => [state.origin, r.topic, r.message, r.at.toISOString()]);
    await pool()!.query(`INSERT INTO "BusMessage" ("origin", "topic", "message", "createdAt") VALUES ${values}`, params);
  } catch (e) {
    console.warn(`[cluster-bus] ${rows.length} message(s) not recorded for other nodes: ${(e as Error).message}`);
  } finally {
    state.flushing = state.queue.length > 0;
    if (state.flushing) setImmediate(() => void flush());
  }
}

interface Row {
  id: number;
  origin: string;
  topic: string;
  message: string;
}

/** One read of the table: delivers what other nodes wrote since the last. Exported for the tests. */
export async function pollClusterBus(): Promise<number> {
  const p = pool();
  if (!p || !state.deliver) return 0;
  if (state.lastId === null) {
    const { rows } = await p.query<{ max: number | null }>(`SELECT max("id") AS max FROM "BusMessage"`);
    state.lastId = rows[0]?.max ?? 0;
    return 0;
  }
  const now = Date.now();
  for (const [id, until] of state.gaps) if (until < now) state.gaps.delete(id);
  const gaps = [...state.gaps.keys()];
  const { rows } = await p.query<Row>(
    `SELECT "id", "origin", "topic", "message" FROM "BusMessage" WHERE "id" > $1 OR "id" = ANY($2::int[]) ORDER BY "id" LIMIT 1000`,
    [state.lastId, gaps],
  );
  let delivered = 0;
  for (const row of rows) {
    state.gaps.delete(row.id);
    if (row.id > state.lastId) {
      for (let missing = state.lastId + 1; missing < row.id && state.gaps.size < 1000; missing++) state.gaps.set(missing, now + GAP_MS);
      state.lastId = row.id;
    }
    if (row.origin === state.origin) continue;
    delivered++;
    state.deliver(row.topic, row.message);
  }
  return delivered;
}

/** Starts reading the table every BUS_POLL_MS, handing each message of another node to `deliver`; once per process. */
export function listenToOtherNodes(deliver: Deliver): void {
  state.deliver = deliver;
  if (state.polling || !pool()) return;
  state.polling = true;
  const every = busPollMs();
  const tick = () => {
    if (!state.polling) return; // closed
    pollClusterBus()
      .catch((e: Error) => console.warn(`[cluster-bus] reading other nodes' changes failed: ${e.message}`))
      .finally(() => state.polling && setTimeout(tick, every).unref());
  };
  tick();
}

/** The periodic job: drops rows older than KEEP_MINUTES (every node has long read them). */
export async function purgeBusMessages(): Promise<{ deleted: number }> {
  const p = pool();
  if (!p) return { deleted: 0 };
  const r = await p.query(`DELETE FROM "BusMessage" WHERE "createdAt" < $1`, [new Date(Date.now() - KEEP_MINUTES * 60_000).toISOString()]);
  return { deleted: r.rowCount ?? 0 };
}

/** Ends the pool (a script or test that is done). */
export async function closeClusterBus(): Promise<void> {
  const p = state.pool;
  state.pool = undefined;
  state.polling = false;
  await p?.end();
}
