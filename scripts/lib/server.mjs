// Starts the built app (or another server script, say a benchmark's reference server) as a child process on a
// free port and waits until it answers.
import { spawn } from "node:child_process";
import net from "node:net";

function bindable(port) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(port, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Below Linux's default ephemeral range (32768–60999). A port the kernel hands out for listen(0) comes from that
// range, and so does the local port of every outgoing connection: between this check and the server's own listen,
// a test's database connection could take it (CI once saw Next fail with EADDRINUSE so). Nothing takes a port
// below the range unless it asks for that number.
const FIXED_RANGE = { from: 15000, to: 32000 };

/** A port free now on 127.0.0.1 that no outgoing connection will take before it is listened on. */
export async function freePort() {
  for (let tries = 0; tries < 50; tries++) {
    const port = FIXED_RANGE.from + Math.floor(Math.random() * (FIXED_RANGE.to - FIXED_RANGE.from));
    try {
      return await bindable(port);
    } catch {
      /* taken: another */
    }
  }
  return bindable(0);
}

/** The pid of the data-plane worker answering `url`'s /healthz (with one worker, the only one): the process whose
 * CPU, threads and memory a benchmark measures, where the started child is the supervisor (scripts/serve.mjs). */
export async function dataPlanePid(url) {
  const r = await fetch(`${url}/healthz`);
  const body = await r.json().catch(() => null);
  if (!r.ok || body?.process !== "data-plane" || !Number.isInteger(body.pid))
    throw new Error(`${url}/healthz did not name a data-plane pid (${r.status} ${JSON.stringify(body)})`);
  return body.pid;
}

/** Starts `script` (default: the platform, i.e. the supervisor with its data plane and Next) and waits until it
 * answers /healthz's liveness and Next's /api/health through it. The answer's `pid` is the process that serves
 * the public port: the data-plane worker for the platform (`child.pid` is then the supervisor's), the child itself
 * for any other script. `stdout()` is what the server printed (its first 64 KB and last 20 KB) when `quiet`. */
export async function startServer({
  env = {},
  port,
  quiet = true,
  script = "scripts/serve.mjs",
  nodeArgs = [],
  startTimeoutMs = 60_000,
} = {}) {
  port ??= await freePort();
  const child = spawn("node", [...nodeArgs, script], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env },
    // BENCH_SERVER_STDOUT=1 lets a quiet server's stdout through (a benchmark's `--trace-gc-nvp` lines, say).
    stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit",
    // A process group of its own: the supervisor, its data-plane workers and Next.
    detached: true,
  });
  // SIGKILL is a crash of the whole platform, as a machine's power cut or an OOM kill of its group would be: every
  // process of the group dies at once, even a worker stuck in a synchronous call that would never see its
  // supervisor go. Other signals go to the supervisor, which drains its children.
  const killOne = child.kill.bind(child);
  child.kill = (signal = "SIGTERM") => {
    if (signal !== "SIGKILL" || !child.pid) return killOne(signal);
    try {
      process.kill(-child.pid, "SIGKILL");
      return true;
    } catch {
      return killOne(signal);
    }
  };
  let stdoutHead = "";
  let stdoutTail = "";
  child.stdout?.on("data", (d) => {
    if (process.env.BENCH_SERVER_STDOUT === "1") process.stdout.write(d);
    if (stdoutHead.length < 65536) stdoutHead += d;
    else {
      stdoutTail += d;
      if (stdoutTail.length > 20000) stdoutTail = stdoutTail.slice(-20000);
    }
  });
  // Its first 64 KB and last 20 KB, as stdout: a line logged when something first went wrong stays, however much
  // follows it.
  let stderrHead = "";
  let stderrTail = "";
  child.stderr?.on("data", (d) => {
    if (stderrHead.length < 65536) stderrHead += d;
    else {
      stderrTail += d;
      if (stderrTail.length > 20000) stderrTail = stderrTail.slice(-20000);
    }
  });
  const stderrText = () => stderrHead + stderrTail;
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderrText()}`);
    try {
      // Each try within 5 s: a connection that is accepted and never answered (a port someone else took a moment
      // before) would otherwise hold this loop for fetch's own 300 s.
      const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start: ${stderrText()}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const pid = script === "scripts/serve.mjs" ? await dataPlanePid(url) : child.pid;
  return {
    url,
    port,
    child,
    pid,
    stderr: stderrText,
    stdout: () => stdoutHead + stdoutTail,
    stop: () =>
      new Promise((resolve) => {
        // A process ended by a signal has exitCode null and signalCode set: it is gone all the same.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        // A drain may take DRAIN_GRACE_MS and then its requests in flight (up to 10 s).
        setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
      }),
  };
}
