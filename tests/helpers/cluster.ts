// What tests/api/cluster.test.ts runs its nodes on: haproxy from Debian (installed when missing, as npm test installs
// Chromium), a Redis of its own behind Sentinel (a master, a replica and one sentinel, from Debian's redis-server),
// and platform nodes started as an operator starts them, with `npm start`'s script.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Redis from "ioredis";
// @ts-expect-error: plain ESM script without types
import { freePort, startServer } from "../../scripts/lib/server.mjs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A program from Debian's packages (haproxy, pgbouncer): its path, installed when missing and we may (root with
 * apt-get), else a clear error. */
export function ensureDebianProgram(program: string, pkg = program): string {
  const which = () =>
    spawnSync("sh", ["-c", `command -v ${program} || ls /usr/sbin/${program} 2>/dev/null`], { encoding: "utf8" }).stdout.trim();
  const found = which();
  if (found) return found.split("\n")[0];
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).stdout.trim();
  if (!root || !apt) throw new Error(`${program} is not installed: run \`apt-get install -y ${pkg}\` (Debian's package) as root`);
  execFileSync("apt-get", ["install", "-y", "-q", pkg], {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    stdio: "ignore",
    timeout: 300_000,
  });
  return which().split("\n")[0] || program;
}

export const ensureHaproxy = () => ensureDebianProgram("haproxy");

/** pgbouncer in transaction pooling in front of `target` (a PostgreSQL URL), with a server pool of `poolSize`
 * connections: answers the URL to reach `target`'s database through it. Run as the postgres user when we are root
 * (pgbouncer refuses root). */
export async function startPgbouncer(target: string, poolSize = 2): Promise<{ url: string; stop(): Promise<void> }> {
  const bin = ensureDebianProgram("pgbouncer");
  const dir = mkdtempSync(path.join(tmpdir(), "platform-pgbouncer-"));
  const t = new URL(target);
  const port: number = await freePort();
  writeFileSync(path.join(dir, "userlist.txt"), `"postgres" ""\n`);
  writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `* = host=${t.hostname} port=${t.port || 5432}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${path.join(dir, "userlist.txt")}`,
      "pool_mode = transaction",
      `default_pool_size = ${poolSize}`,
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits,options",
      "",
    ].join("\n"),
  );
  const root = process.getuid?.() === 0;
  if (root) execFileSync("chown", ["-R", "postgres", dir]);
  // pgbouncer itself switches to the postgres user (-u), so the child is pgbouncer, and killing it ends it: a runuser in
  // between would die alone and leave pgbouncer holding this process's pipes open (the test file would never exit).
  const child = spawn(bin, [...(root ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pgbouncer did not start: ${log}`);
    await sleep(100);
  }
  const url = new URL(target);
  url.port = String(port);
  return {
    url: url.toString(),
    stop: () =>
      new Promise<void>((resolve) => {
        rmSync(dir, { recursive: true, force: true });
        child.stdout!.destroy();
        child.stderr!.destroy();
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

async function redisAnswers(port: number, command = "PING", expect = "+PONG"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.setTimeout(1000, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("connect", () => socket.write(`${command}\r\n`));
    socket.once("data", (d) => {
      socket.destroy();
      resolve(d.toString().includes(expect));
    });
    socket.once("error", () => resolve(false));
  });
}

/** One command to a test's own Redis or sentinel, on a connection of its own. */
export async function redisCommand(port: number, command: string, ...args: string[]): Promise<unknown> {
  const conn = new Redis({ port, host: "127.0.0.1", lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  conn.on("error", () => {});
  try {
    await conn.connect();
    return await conn.call(command, ...args);
  } finally {
    conn.disconnect();
  }
}

export interface SentinelRedis {
  /** REDIS_SENTINELS for the nodes. */
  sentinels: string;
  name: string;
  /** The port of the master now (as the sentinel says). */
  masterPort(): Promise<number>;
  /** kill -9 of the master's process. */
  killMaster(): Promise<number>;
  stop(): Promise<void>;
}

/** A master, its replica and one sentinel (quorum 1, the master down after 1 s of silence). */
export async function startSentinelRedis(name = "platform"): Promise<SentinelRedis> {
  const dir = mkdtempSync(path.join(tmpdir(), "platform-sentinel-"));
  const children = new Map<number, ChildProcess>();
  const server = async (port: number, args: string[]) => {
    const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...args], {
      stdio: "ignore",
      cwd: dir,
    });
    children.set(port, child);
    const deadline = Date.now() + 10_000;
    while (!(await redisAnswers(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
      await sleep(50);
    }
  };
  const [master, replica, sentinel] = [await freePort(), await freePort(), await freePort()];
  await server(master, []);
  await server(replica, ["--replicaof", "127.0.0.1", String(master)]);
  while (!(await redisAnswers(replica, "INFO replication", "master_link_status:up"))) await sleep(100);
  const conf = path.join(dir, "sentinel.conf");
  writeFileSync(
    conf,
    [
      `port ${sentinel}`,
      "bind 127.0.0.1",
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${master} 1`,
      `sentinel down-after-milliseconds ${name} 1000`,
      `sentinel failover-timeout ${name} 5000`,
      `sentinel parallel-syncs ${name} 1`,
      "",
    ].join("\n"),
  );
  const sentinelChild = spawn("redis-server", [conf, "--sentinel"], { stdio: "ignore", cwd: dir });
  children.set(sentinel, sentinelChild);
  const masterPort = async () => {
    const answer = (await redisCommand(sentinel, "SENTINEL", "get-master-addr-by-name", name)) as [string, string] | null;
    return Number(answer?.[1] ?? 0);
  };
  const deadline = Date.now() + 10_000;
  while (!(await redisAnswers(sentinel)) || !(await masterPort().catch(() => 0))) {
    if (Date.now() > deadline) throw new Error("the sentinel did not come up");
    await sleep(100);
  }
  return {
    sentinels: `127.0.0.1:${sentinel}`,
    name,
    masterPort,
    async killMaster() {
      const port = await masterPort();
      const child = children.get(port);
      if (!child) throw new Error(`no master process on ${port}`);
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      });
      children.delete(port);
      return port;
    },
    async stop() {
      await Promise.all(
        [...children.values()].map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              c.once("exit", () => resolve());
              c.kill("SIGKILL");
            }),
        ),
      );
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PlatformNode {
  id: string;
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  stderr(): string;
  stdout(): string;
  stop(): Promise<void>;
}

/** A node as an operator starts one: `npm start`'s script (migrations, the cluster check, the supervisor). */
export async function startNode(id: string, dataDir: string, env: Record<string, string>, port?: number): Promise<PlatformNode> {
  const s = await startServer({
    script: "scripts/start.mjs",
    port,
    env: { NODE_ID: id, DATA_DIR: dataDir, ...env },
    startTimeoutMs: 180_000,
  });
  return { id, url: s.url, port: s.port, dataDir, child: s.child, stderr: s.stderr, stdout: s.stdout, stop: s.stop };
}

/** kill -9 of a whole node (its supervisor's process group: data plane, Next). */
export function killNode(node: PlatformNode): Promise<void> {
  return new Promise((resolve) => {
    if (node.child.exitCode !== null || node.child.signalCode !== null) return resolve();
    node.child.once("exit", () => resolve());
    node.child.kill("SIGKILL");
  });
}

/** `npm start`'s script run to its end: a node that refuses to start exits with its one line. */
export function startRefused(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("node", ["scripts/start.mjs"], { env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env } });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.stdout.on("data", () => {});
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

export interface Balancer {
  url: string;
  /** The lines haproxy printed (its log: one per request and per server state change). */
  log(): string;
  stop(): Promise<void>;
}

/** haproxy with the shipped deploy/haproxy.cfg in front of `nodes` (exactly three, as the file names them). */
export async function startHaproxy(nodes: { port: number }[]): Promise<Balancer> {
  const bin = ensureHaproxy();
  const port: number = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, LB_BIND: "127.0.0.1", LB_PORT: String(port) };
  nodes.forEach((n, i) => (env[`NODE${i + 1}`] = `127.0.0.1:${n.port}`));
  const child = spawn(bin, ["-f", "deploy/haproxy.cfg", "-db"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  child.stdout.on("data", (d) => (log = (log + d).slice(-200_000)));
  child.stderr.on("data", (d) => (log = (log + d).slice(-200_000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${log}`);
    const ok = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`haproxy did not answer: ${log}`);
    await sleep(100);
  }
  return {
    url,
    log: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}
