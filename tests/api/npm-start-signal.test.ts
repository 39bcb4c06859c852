// `npm start` stopped by a SIGTERM to npm, as `kill <pid>` or a service manager that signals only its main process
// sends it: the node drains (/readyz answers 503 "draining" for DRAIN_GRACE_MS) and stops, and no process of it is left
// serving. npm itself does not pass the signal on (npm 11 runs the script through `sh -c`, and the SIGTERM ends npm
// and that shell only), so the supervisor watches for npm going (scripts/serve.mjs). A node of its own, on a SQLite
// database of its own.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";
// @ts-expect-error: plain ESM script without types
import { freePort } from "../../scripts/lib/server.mjs";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Every process of the group `npm start` leads (started detached, so its group is its own): npm, the script's shell,
 * the supervisor, Next and the data plane. An orphan keeps its group, so this finds one left behind too. */
const groupPids = (pgid: number): number[] =>
  execFileSync("ps", ["-eo", "pid=,pgid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, g]) => g === pgid)
    .map(([pid]) => pid);

async function readyz(url: string): Promise<{ status: number; body: { status?: string } } | null> {
  try {
    const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
    return { status: r.status, body: await r.json() };
  } catch {
    return null; // not listening (yet, or any more)
  }
}

test("a SIGTERM to `npm start` drains the node, then nothing of it is left running", { timeout: 300_000 }, async () => {
  const database = await createTestDatabase("sqlite");
  cleanups.push(() => database.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "npm-start-signal-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const port: number = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    NODE_ID: "npm-start-signal",
    DRAIN_GRACE_MS: "2000",
    DATA_PLANE_WORKERS: "1",
  };
  // Its own SQLite database: not the suite's Redis (the nodes on it would share limits and bus messages).
  delete env.REDIS_URL;
  delete env.REDIS_PREFIX;
  let output = "";
  const npm: ChildProcess = spawn("npm", ["start"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  npm.stdout!.on("data", (d) => (output += d));
  npm.stderr!.on("data", (d) => (output += d));
  const pgid = npm.pid!;
  cleanups.push(() => {
    for (const pid of groupPids(pgid)) if (alive(pid)) process.kill(pid, "SIGKILL");
  });

  const started = Date.now();
  while ((await readyz(url))?.status !== 200) {
    assert.ok(Date.now() - started < 240_000, `not ready within 240 s:\n${output.slice(-3000)}`);
    assert.equal(npm.exitCode, null, `npm start exited before it was ready:\n${output.slice(-3000)}`);
    await sleep(250);
  }
  const pids = groupPids(pgid);
  assert.ok(pids.length >= 4, `npm, its shell, the supervisor, Next and the data plane: ${pids}`);

  process.kill(npm.pid!, "SIGTERM"); // npm only, not its group
  let sawDraining = false;
  const stopped = Date.now();
  for (;;) {
    const r = await readyz(url);
    if (r?.status === 503 && r.body.status === "draining") sawDraining = true;
    if (!r && !pids.some(alive)) break;
    assert.ok(
      Date.now() - stopped < 60_000,
      `60 s after npm's SIGTERM: /readyz ${r ? `${r.status} ${JSON.stringify(r.body)}` : "closed"}, still running: ${pids.filter(alive)}\n${output.slice(-2000)}`,
    );
    await sleep(100);
  }
  assert.ok(sawDraining, `/readyz answered 503 draining while the node still served:\n${output.slice(-2000)}`);
  assert.match(output, /\[supervisor\] npm start ended: draining the data plane and Next/);
});
