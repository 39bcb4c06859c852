// A Redis of a test's own (redis-server from Debian's package) on a free loopback port, so a test can stop and start
// it without touching the machine's shared Redis: nothing saved to disk, nothing left behind.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
// @ts-expect-error: plain ESM script without types
import { freePort } from "../../scripts/lib/server.mjs";

export interface OwnRedis {
  url: string;
  port: number;
  /** Stops it (as `redis-cli shutdown nosave` would): every connection to it fails from now on. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.write("PING\r\n");
    });
    socket.once("data", (d) => {
      socket.destroy();
      resolve(d.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port: number = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const deadline = Date.now() + 10_000;
    while (!(await answers(port))) {
      if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not answer`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return resolve();
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}
