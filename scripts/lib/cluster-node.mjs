// A node's place among the nodes serving one database (issue 61, docs/deploy.md), for `npm start` (scripts/start.mjs):
// before serving, the node looks at the other live nodes (a ClusterNode row seen within NODE_STALE_MS) and refuses in
// one line to start where it cannot serve correctly:
//  - on SQLite beside a node with another data folder or host: SQLite is one machine's, and its local bus, journal
//    and secret are that folder's (several `npm start` on one data folder are one node's processes, as before);
//  - with a KEY_HASH_SECRET or NEXTAUTH_SECRET that is not the live nodes' (its fingerprint differs): keys made, or
//    portal sessions signed, on one node would be refused on the other;
//  - on PostgreSQL beside another node without Redis: each node would count rate limits and credits alone, N times
//    too generous.
// Then it registers (or takes back its own row after a restart) and the supervisor beats every HEARTBEAT_MS; on its
// way out it says it is draining and then removes its row. Runs before anything of the app is loaded: plain pg or
// better-sqlite3, imported on demand (they exist once prepare() has installed).
import { createHmac } from "node:crypto";
import { hostname } from "node:os";
import { databaseUrl, plainPostgresUrl, providerOf, sqliteFilePath } from "./database-url.mjs";
import { dataDir, keyHashSecret, nextAuthSecret, nodeId } from "./node-identity.mjs";

export const HEARTBEAT_MS = 5000;
export const NODE_STALE_MS = 15_000;

/** A fingerprint of a secret that says whether two nodes share it and nothing about it. */
const fingerprint = (secret) => createHmac("sha256", secret).update("cluster-node-secret-check").digest("hex").slice(0, 16);

/** The fingerprints of the secrets every node must share: KEY_HASH_SECRET's, then NEXTAUTH_SECRET's. */
export const secretCheck = (keyHash, nextAuth = "") => `${fingerprint(keyHash)}.${fingerprint(nextAuth)}`;

// Dates as Prisma keeps them: ISO text with +00:00 in SQLite, timestamp(3) without a zone in PostgreSQL.
const sqliteDate = (ms) => new Date(ms).toISOString().replace("Z", "+00:00");

async function connect(url) {
  if (providerOf(url) === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const conn = new Database(sqliteFilePath(url), { timeout: 5000 });
    return {
      sqlite: true,
      all: async (sql, params) => conn.prepare(sql).all(...params),
      run: async (sql, params) => void conn.prepare(sql).run(...params),
      date: sqliteDate,
      close: async () => conn.close(),
    };
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: plainPostgresUrl(url), connectionTimeoutMillis: 10_000 });
  client.on("error", () => {}); // a lost connection shows in the next heartbeat's failure
  await client.connect();
  const toPg = (sql) =>
    sql.replace(
      /\?/g,
      (() => {
        let i = 0;
        return () => `$${++i}`;
      })(),
    );
  return {
    sqlite: false,
    all: async (sql, params) => (await client.query(toPg(sql), params)).rows,
    run: async (sql, params) => void (await client.query(toPg(sql), params)),
    date: (ms) => new Date(ms).toISOString(),
    close: async () => client.end(),
  };
}

/** Why this node may not start beside `others` (live rows of ClusterNode), or null. Pure: unit-tested. */
export function refusal(me, others, { sqlite, redis }) {
  const describe = (n) => `node ${n.id} (host ${n.host}, data folder ${n.dataDir})`;
  if (sqlite) {
    const elsewhere = others.find((n) => n.host !== me.host || n.dataDir !== me.dataDir);
    if (elsewhere)
      return `SQLite is one machine's: ${describe(elsewhere)} already serves this database. Several nodes need PostgreSQL and Redis (docs/deploy.md), or start this one with that node's DATA_DIR.`;
  }
  const [keyHash, nextAuth] = me.secretCheck.split(".");
  const otherKeyHash = others.find((n) => n.secretCheck.split(".")[0] !== keyHash);
  if (otherKeyHash)
    return `KEY_HASH_SECRET differs from ${describe(otherKeyHash)}'s: keys made on one node would be refused on the other. Give every node the same KEY_HASH_SECRET.`;
  const otherNextAuth = others.find((n) => n.secretCheck.split(".")[1] !== nextAuth);
  if (otherNextAuth)
    return `NEXTAUTH_SECRET differs from ${describe(otherNextAuth)}'s: a portal session signed on one node would be refused on the other. Give every node the same NEXTAUTH_SECRET.`;
  if (!sqlite && !redis && others.some((n) => n.host !== me.host || n.dataDir !== me.dataDir))
    return `Several nodes need REDIS_URL (or REDIS_SENTINELS): ${describe(others[0])} is live, and without Redis each node would count rate limits and credits alone, as many times too generous as there are nodes.`;
  return null;
}

/**
 * Checks and registers this node. Answers { refused } (the one line to print), or { beat, draining, leave } for the
 * supervisor: the heartbeat, the mark while it drains, and the row's removal at exit.
 */
export async function joinCluster(env = process.env) {
  const url = databaseUrl(env);
  const conn = await connect(url);
  const now = Date.now();
  const me = {
    id: nodeId(env),
    host: hostname(),
    dataDir: dataDir(env),
    pid: process.pid,
    secretCheck: secretCheck(keyHashSecret(env), nextAuthSecret(env)),
  };
  try {
    const rows = await conn.all(
      `SELECT "id", "host", "dataDir", "secretCheck" FROM "ClusterNode" WHERE "id" <> ? AND "seenAt" > ? AND "draining" = ?`,
      [me.id, conn.date(now - NODE_STALE_MS), conn.sqlite ? 0 : false],
    );
    const why = refusal(me, rows, { sqlite: conn.sqlite, redis: Boolean(env.REDIS_URL?.trim() || env.REDIS_SENTINELS?.trim()) });
    if (why) {
      await conn.close();
      return { refused: why };
    }
    await conn.run(
      `INSERT INTO "ClusterNode" ("id", "host", "dataDir", "pid", "secretCheck", "startedAt", "seenAt", "draining") VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("id") DO UPDATE SET "host" = excluded."host", "dataDir" = excluded."dataDir", "pid" = excluded."pid",
         "secretCheck" = excluded."secretCheck", "startedAt" = excluded."startedAt", "seenAt" = excluded."seenAt", "draining" = excluded."draining"`,
      [me.id, me.host, me.dataDir, me.pid, me.secretCheck, conn.date(now), conn.date(now), conn.sqlite ? 0 : false],
    );
  } catch (e) {
    await conn.close().catch(() => {});
    throw e;
  }
  let failing = false;
  const beat = async () => {
    try {
      await conn.run(`UPDATE "ClusterNode" SET "seenAt" = ? WHERE "id" = ? AND "pid" = ?`, [conn.date(Date.now()), me.id, me.pid]);
      failing = false;
    } catch (e) {
      if (!failing) console.warn(`[supervisor] the node's heartbeat could not be written: ${e.message}`);
      failing = true;
    }
  };
  return {
    node: me,
    beat,
    draining: () =>
      conn
        .run(`UPDATE "ClusterNode" SET "draining" = ? WHERE "id" = ? AND "pid" = ?`, [conn.sqlite ? 1 : true, me.id, me.pid])
        .catch(() => {}),
    leave: async () => {
      await conn.run(`DELETE FROM "ClusterNode" WHERE "id" = ? AND "pid" = ?`, [me.id, me.pid]).catch(() => {});
      await conn.close().catch(() => {});
    },
  };
}

/** joinCluster for a supervisor about to serve: a refusal ends the process with its one line (exit 1); a database
 * without the table (or unreachable: the migrations say so first at `npm start`) leaves the node unregistered. */
export async function joinOrRefuse(env = process.env) {
  let membership;
  try {
    membership = await joinCluster(env);
  } catch (e) {
    console.warn(`[supervisor] not registered as a node of the cluster: ${String(e?.message ?? e).split("\n")[0]}`);
    return null;
  }
  if (membership.refused) {
    console.error(membership.refused);
    process.exit(1);
  }
  return membership;
}
