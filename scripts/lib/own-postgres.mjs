// A PostgreSQL of one's own (the machine's binaries, a fresh cluster in a temporary directory, trust auth on a free
// loopback port), for a test or benchmark that stops and starts it, as `pg_ctlcluster … stop/start` would, without
// touching the machine's shared PostgreSQL. As root (CI), the cluster runs as the `postgres` user: PostgreSQL refuses
// root. Used by tests/api/database-outage.test.ts and scripts/bench-outage.mjs.
import { spawn, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./server.mjs";

const asRoot = process.getuid?.() === 0;
const asUser = (cmd, args) => (asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args]);

async function answers(url) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await c.connect();
    await c.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

/** A postmaster on `data` (socket in `dir`, loopback TCP on `port`): { adminUrl, start, stop }, where `stop` is
 * `pg_ctl stop -m fast` (what pg_ctlcluster stop does: open connections are closed, new ones refused). */
function postmaster(dir, data, port) {
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let child = null;
  const start = async () => {
    const args = ["-D", data, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"];
    child = spawn(...asUser("postgres", [...args, "-c", "max_connections=200"]), { stdio: "ignore" });
    const deadline = Date.now() + 20_000;
    while (!(await answers(adminUrl))) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL on ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const stop = async () => {
    if (!child) return;
    const c = child;
    child = null;
    const exited = new Promise((resolve) => (c.exitCode !== null ? resolve() : c.once("exit", () => resolve())));
    execFileSync(...asUser("pg_ctl", ["-D", data, "stop", "-m", "fast", "-w"]), { stdio: "ignore" });
    await exited;
  };
  return { adminUrl, start, stop, kill: () => child?.kill("SIGKILL") };
}

/**
 * Starts a fresh cluster. Answers { adminUrl, stop, start, startReplica, destroy }: `adminUrl` for
 * createTestDatabase's admin connection; `stop` and `start` stop it and start it again on the same port and data;
 * `destroy` stops it and deletes its directory.
 */
export async function startOwnPostgres() {
  const dir = mkdtempSync(path.join(tmpdir(), "platform-pg-"));
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  execFileSync(...asUser("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  const port = await freePort();
  const primary = postmaster(dir, data, port);
  await primary.start();
  const replicas = [];
  return {
    adminUrl: primary.adminUrl,
    stop: primary.stop,
    start: primary.start,
    /** A streaming replica of this cluster (pg_basebackup -R: a standby that follows the primary's WAL), on a port of
     * its own; answers { adminUrl, stop, start } (its databases are the primary's, read-only). */
    async startReplica() {
      const replicaData = path.join(dir, `replica-${replicas.length + 1}`);
      execFileSync(
        ...asUser("pg_basebackup", ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-D", replicaData, "-R", "-X", "stream"]),
        {
          stdio: "ignore",
        },
      );
      const replica = postmaster(dir, replicaData, await freePort());
      await replica.start();
      replicas.push(replica);
      return { adminUrl: replica.adminUrl, stop: replica.stop, start: replica.start };
    },
    destroy: async () => {
      for (const r of replicas) await r.stop().catch(() => r.kill());
      await primary.stop().catch(() => primary.kill());
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
