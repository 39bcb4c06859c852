// A real webhook receiver for the tests: an HTTP server on 127.0.0.1 (a random port unless told) that records
// every request it gets (raw body included, so signatures can be checked exactly as an outside receiver would)
// and answers according to a mode, per path or for all paths:
//   ok                 200 {"received":true}
//   status             any status, optional body and headers (Retry-After, say)
//   hang               reads the request and never answers
//   slow               answers 200 after delayMs
//   trickle            sends 200 and its headers at once, then one byte a second and never ends the body
//   redirect           3xx with Location (the platform must not follow it)
//   huge               a 10 MB body (any status)
//   destroy            closes the socket without answering
// down()/up() stop and restart listening on the same port, for "the receiver is down" scenarios.
//
// Also here: startClockServer(), a platform server with the test clock on a database of its own, for the tests
// that move time (see its comment for why they must not share the suite's database).
import http from "node:http";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { AddressInfo, Socket } from "node:net";
import type { ChildProcess } from "node:child_process";
// @ts-expect-error: plain ESM script without types
import { startServer as start, freePort } from "../../scripts/lib/server.mjs";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";
import { deleteRedisPrefix, uniquePrefix } from "./usage-db";

export type ReceiverMode =
  | { kind: "ok" }
  | { kind: "status"; status: number; body?: string; headers?: Record<string, string> }
  | { kind: "hang" }
  | { kind: "slow"; delayMs: number; status?: number }
  | { kind: "trickle" }
  | { kind: "redirect"; location: string; status?: number }
  | { kind: "huge"; bytes?: number; status?: number }
  | { kind: "destroy" };

export interface ReceivedRequest {
  method: string;
  path: string;
  /** Lower-case names, as node gives them. */
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** The status the receiver answered with; null when it answered nothing (hang, destroy). */
  answered: number | null;
}

export interface Receiver {
  port: number;
  url(path?: string): string;
  requests: ReceivedRequest[];
  /** The mode for every path without a mode of its own. */
  setMode(mode: ReceiverMode): void;
  /** The mode for one path (exact match, query string excluded). */
  route(path: string, mode: ReceiverMode): void;
  /** Requests to one path. */
  at(path: string): ReceivedRequest[];
  /** Waits until `count` requests match `filter` (all requests without one); returns them. */
  waitFor(count: number, filter?: (r: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Stops listening (connections refused) and cuts open connections; up() listens again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const TEN_MB = 10 * 1024 * 1024;

export async function startReceiver(opts: { port?: number; mode?: ReceiverMode; listen?: boolean } = {}): Promise<Receiver> {
  let fallback: ReceiverMode = opts.mode ?? { kind: "ok" };
  const routes = new Map<string, ReceiverMode>();
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const record = (r: ReceivedRequest) => {
    requests.push(r);
    for (const w of waiters) w();
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = (req.url ?? "/").split("?")[0];
      const mode = routes.get(path) ?? fallback;
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
      const entry: ReceivedRequest = {
        method: req.method ?? "",
        path,
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
        answered: null,
      };
      const answer = (status: number, body = "", extra: Record<string, string> = {}) => {
        entry.answered = status;
        res.writeHead(status, { "Content-Type": "application/json", ...extra });
        res.end(body);
      };
      switch (mode.kind) {
        case "ok":
          answer(200, '{"received":true}');
          break;
        case "status":
          answer(mode.status, mode.body ?? "", mode.headers);
          break;
        case "hang":
          break;
        case "slow":
          later(mode.delayMs, () => {
            if (!res.destroyed) answer(mode.status ?? 200, '{"received":true}');
          });
          break;
        case "trickle": {
          entry.answered = 200;
          res.writeHead(200, { "Content-Type": "text/plain" });
          const drip = () => {
            if (!res.destroyed) {
              res.write(".");
              later(1000, drip);
            }
          };
          drip();
          break;
        }
        case "redirect":
          answer(mode.status ?? 302, "", { Location: mode.location });
          break;
        case "huge": {
          entry.answered = mode.status ?? 200;
          res.writeHead(entry.answered, { "Content-Type": "text/plain", "Content-Length": String(mode.bytes ?? TEN_MB) });
          const chunk = Buffer.alloc(64 * 1024, "x");
          let left = mode.bytes ?? TEN_MB;
          const pump = () => {
            while (left > 0 && !res.destroyed) {
              const n = Math.min(left, chunk.length);
              left -= n;
              if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
                res.once("drain", pump);
                return;
              }
            }
            if (!res.destroyed) res.end();
          };
          pump();
          break;
        }
        case "destroy":
          req.socket.destroy();
          break;
      }
      record(entry); // after the answer's status is known
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1000;

  let port = opts.port ?? 0;
  const up = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        port = (server.address() as AddressInfo).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  if (opts.listen !== false) await up();
  else if (!port) port = await freePort();

  return {
    get port() {
      return port;
    },
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    requests,
    setMode: (mode) => {
      fallback = mode;
    },
    route: (path, mode) => {
      routes.set(path, mode);
    },
    at: (path) => requests.filter((r) => r.path === path),
    waitFor(count, filter = () => true, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hits = requests.filter(filter);
          if (hits.length >= count) {
            cleanup();
            resolve(hits);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(
              `receiver: waited ${timeoutMs} ms for ${count} request(s), got ${requests.filter(filter).length} (${requests.length} in all)`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    down,
    up,
    close: down,
  };
}

/** The headers of a recorded request in the shape the standardwebhooks package's verify() takes. */
export function standardHeaders(r: ReceivedRequest) {
  return {
    "webhook-id": r.headers["webhook-id"],
    "webhook-timestamp": r.headers["webhook-timestamp"],
    "webhook-signature": r.headers["webhook-signature"],
  };
}

// ---------------------------------------------------------------- a server that moves time

export interface PlatformProcess {
  url: string;
  child: ChildProcess;
  /** Sets this server's clock to real time + offsetMs (POST /api/test-clock); returns the server's new now. */
  setOffset(offsetMs: number): Promise<Date>;
  advance(ms: number): Promise<Date>;
  stop(): Promise<void>;
}

export interface ClockServer extends PlatformProcess {
  databaseUrl: string;
  /** The bootstrapped business's full-access test key. */
  testKey: string;
  businessId: string;
  /** Another server process on the same database (a restart after a crash, a second worker), its clock at real time. */
  startAnother(): Promise<PlatformProcess>;
  /** Stops every server started here (killed ones included) and drops the database. */
  stop(): Promise<void>;
}

const exec = promisify(execFile);

/** PLATFORM_ADMIN_TOKEN of the servers that move time; /api/test-clock answers only calls that carry it. */
export const TEST_ADMIN_TOKEN = "test-admin-token-not-for-production";
export const testClockHeaders = { "content-type": "application/json", authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * Moves a clock server's clock to `t` (ms; never back) and runs the scheduled jobs there, as the billing tests walk
 * through periods; `now()` is the server's time. `url` is read at each move (the server starts in `before`).
 */
export function clockMover(url: () => string) {
  let offset = 0;
  return {
    async moveTo(t: number) {
      offset = Math.max(offset, t - Date.now());
      const res = await fetch(`${url()}/api/test-clock`, {
        method: "POST",
        headers: testClockHeaders,
        body: JSON.stringify({ offsetMs: offset, runJobs: true }),
      });
      if (res.status !== 200) throw new Error(`test clock: ${res.status} ${await res.text()}`);
    },
    now: () => Date.now() + offset,
  };
}

async function moveClock(url: string, body: unknown): Promise<Date> {
  const res = await fetch(`${url}/api/test-clock`, { method: "POST", headers: testClockHeaders, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`test clock: ${res.status} ${await res.text()}`);
  return new Date(((await res.json()) as { now: string }).now);
}

async function startProcess(env: Record<string, string>): Promise<PlatformProcess> {
  const s = await start({ env });
  const child = s.child as ChildProcess;
  return {
    url: s.url,
    child,
    setOffset: (offsetMs) => moveClock(s.url, { offsetMs }),
    advance: (ms) => moveClock(s.url, { advanceMs: ms }),
    // scripts/lib/server.mjs's stop() waits for an 'exit' that has already happened when the process died of a
    // signal (exitCode stays null then), so a process killed with SIGKILL is not handed to it.
    stop: () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : s.stop()),
  };
}

/**
 * A platform server with the test clock (PLATFORM_TEST_CLOCK=true and PLATFORM_ADMIN_TOKEN) on a fresh database of its own, with a bootstrapped business.
 *
 * Why not the suite's database: delivery leases compare `lockedUntil` with each worker's own clock. A server whose
 * clock runs a day ahead sees every lease the suite's server takes as long expired and would send those deliveries
 * a second time (and the suite's server would attempt this test's deliveries at times the test did not choose).
 * In production every process reads the same system clock, so this only concerns tests that move time.
 */
export async function startClockServer(extraEnv: Record<string, string> = {}): Promise<ClockServer> {
  const kind = (process.env.DATABASE_URL ?? "file:").startsWith("file:") ? "sqlite" : "postgres";
  const database = await createTestDatabase(kind);
  // With Redis, a deployment of its own there too: a moved clock is published on the bus, and under the suite's
  // prefix each clock server moved the clock of every other one running at the same time (two files at once).
  const redisUrl = extraEnv.REDIS_URL ?? process.env.REDIS_URL;
  const redisPrefix = redisUrl && !extraEnv.REDIS_PREFIX ? uniquePrefix("clock") : null;
  const env = {
    DATABASE_URL: database.url,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET ?? "test-suite-secret-not-for-production",
    PLATFORM_TEST_CLOCK: "true",
    PLATFORM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_POLL_MS: "200",
    ...(redisPrefix ? { REDIS_PREFIX: redisPrefix } : {}),
    ...extraEnv,
  };
  const servers: PlatformProcess[] = [];
  const stopAll = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database.drop();
    if (redisPrefix) await deleteRedisPrefix(redisUrl!, redisPrefix).catch(() => {});
  };
  try {
    const { stdout } = await exec(
      "node_modules/.bin/tsx",
      ["--conditions=react-server", "scripts/cli.ts", "bootstrap", "--business", "Clock test", "--plan", "enterprise", "--json"],
      {
        env: { ...process.env, ...env },
        timeout: 60_000,
      },
    );
    const boot = JSON.parse(stdout.trim().split("\n").at(-1)!);
    const first = await startProcess(env);
    servers.push(first);
    return {
      ...first,
      databaseUrl: database.url,
      testKey: boot.testKey,
      businessId: boot.businessId,
      async startAnother() {
        const s = await startProcess(env);
        servers.push(s);
        return s;
      },
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

// ---------------------------------------------------------------- endpoints and deliveries through the API

interface Api {
  get(path: string): Promise<{ status: number; body: any; text: string }>;
  post(path: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
}

/** POST /v1/webhooks; anything but a 201 fails the calling test. Returns the endpoint with its full secret. */
export async function createEndpoint(api: Api, body: Record<string, unknown>) {
  const res = await api.post("/v1/webhooks", body);
  if (res.status !== 201) throw new Error(`creating a webhook: expected 201, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data as { id: string; url: string; secret: string; events: string[]; isActive: boolean; [k: string]: any };
}

/** Every delivery of an endpoint (newest first), following pages; `query` adds filters such as status=failed. */
export async function deliveriesOf(api: Api, webhookId: string, query = ""): Promise<any[]> {
  const out: any[] = [];
  let cursor = "";
  for (let page = 0; page < 100; page++) {
    const res = await api.get(
      `/v1/webhooks/${webhookId}/deliveries?limit=100${query ? `&${query}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
    );
    if (res.status !== 200) throw new Error(`listing deliveries: ${res.status} ${res.text.slice(0, 300)}`);
    out.push(...res.body.data);
    if (!res.body.pagination.hasMore) return out;
    cursor = res.body.pagination.nextCursor;
  }
  throw new Error("more than 100 pages of deliveries");
}

/** Polls an endpoint's deliveries until `done(list)` holds; returns the list (throws with the last list on timeout). */
export async function waitForDeliveries(api: Api, webhookId: string, done: (list: any[]) => boolean, timeoutMs = 15_000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const list = await deliveriesOf(api, webhookId);
    if (done(list)) return list;
    if (Date.now() > deadline) {
      throw new Error(
        `deliveries of ${webhookId} did not reach the expected state in ${timeoutMs} ms: ${JSON.stringify(list.map((d) => ({ id: d.id, type: d.eventType, status: d.status, attempts: d.attempts, error: d.error })))}`,
      );
    }
    await new Promise((r) => setTimeout(r, 150));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
