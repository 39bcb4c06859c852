// A PostgreSQL of a test's own (the machine's binaries, a fresh cluster in a temporary directory, trust auth on a free
// loopback port), so a test can stop and start it, as `pg_ctlcluster … stop/start` would, without touching the
// machine's shared PostgreSQL. As root (CI), the cluster runs as the `postgres` user: PostgreSQL refuses root.
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { chownSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
// @ts-expect-error: plain ESM script without types
import { freePort } from "../../scripts/lib/server.mjs";

export interface OwnPostgres {
  /** postgresql://postgres@127.0.0.1:PORT/postgres: for createTestDatabase's admin connection. */
  adminUrl: string;
  /** Stops it (`pg_ctl stop -m fast`, what pg_ctlcluster stop does): open connections are closed, new ones refused. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  destroy(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
const userArgs = (cmd: string, args: string[]): [string, string[]] =>
  asRoot ? ["runuser", ["-u", "postgres", "--", cmd, ...args]] : [cmd, args];

async function answers(url: string): Promise<boolean> {
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

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), "platform-pg-"));
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = path.join(dir, "data");
  execFileSync(...userArgs("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]), { stdio: "ignore" });
  const port: number = await freePort();
  const adminUrl = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;
  const start = async () => {
    const [cmd, args] = userArgs("postgres", [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "max_connections=200",
    ]);
    child = spawn(cmd, args, { stdio: "ignore" });
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
    const exited = new Promise<void>((resolve) => (c.exitCode !== null ? resolve() : c.once("exit", () => resolve())));
    execFileSync(...userArgs("pg_ctl", ["-D", data, "stop", "-m", "fast", "-w"]), { stdio: "ignore" });
    await exited;
  };
  await start();
  return {
    adminUrl,
    stop,
    start,
    destroy: async () => {
      await stop().catch(() => child?.kill("SIGKILL"));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
