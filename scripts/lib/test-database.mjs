// A fresh database for one test run: a SQLite file under data/, or a PostgreSQL database on the local
// server, created, migrated, and dropped afterwards.
import { rmSync } from "node:fs";
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { migrate } from "../db-migrate.mjs";

const PG_ADMIN = process.env.PG_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

const urlHash = (url) => createHash("sha256").update(url).digest("hex").slice(0, 16);

/** What lives beside a database and goes with it: its usage journal folder (lib/usage/usage-journal.ts's journalDir)
 * and its local bus file (lib/bus/local-bus.ts's localBusFile: `<file>-bus` for SQLite, data/bus-<hash>.db else). */
const dropJournal = (url) => rmSync(`data/usage-journal/${urlHash(url)}`, { recursive: true, force: true });
const dropBus = (busFile) => {
  for (const s of ["", "-wal", "-shm"]) rmSync(busFile + s, { force: true });
};

/** `adminUrl`: another PostgreSQL than the machine's (a test's own cluster, tests/helpers/postgres-server.ts). */
export async function createTestDatabase(kind = "sqlite", adminUrl = PG_ADMIN) {
  const name = `platform_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
  if (kind === "sqlite") {
    const file = `data/${name}.db`;
    const url = `file:./${file}`;
    migrate(url, { quiet: true });
    return {
      url,
      drop: async () => {
        for (const s of ["", "-wal", "-shm"]) rmSync(file + s, { force: true });
        dropBus(`${file}-bus`);
        dropJournal(url);
      },
    };
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  migrate(url, { quiet: true });
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      dropBus(`data/bus-${urlHash(url)}.db`);
      dropJournal(url);
    },
  };
}
