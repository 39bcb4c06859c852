// Helpers for the metering tests (rate limits, quotas, usage, logs, metrics): seeding hourly rollups straight into
// the database the server reads, waiting for the recorder's batched writes, reading Event rows, and a throwaway
// Redis server of the test's own.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import net from "node:net";
import { randomBytes } from "node:crypto";
import Redis from "ioredis";
import { newId } from "@/lib/ids";
import { db, poll } from "./db";
import { startServer, type TestServer } from "./server";
import type { ApiClient } from "./api";

export { db, poll };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const HOUR_MS = 3_600_000;
export const hourOf = (at: Date | number) => new Date(Math.floor(new Date(at).getTime() / HOUR_MS) * HOUR_MS);

export interface RollupSeed {
  projectId: string;
  environment?: "test" | "production";
  hour?: Date;
  endpoint?: string;
  method?: string;
  statusCode?: number;
  errorType?: string | null;
  apiKey?: string;
  principal?: string;
  count: number;
  billableCount?: number;
  latencyHist?: Record<string, number>;
  latencySum?: number;
  requestBytes?: number;
  responseBytes?: number;
  computeMs?: number;
  cost?: number;
}

/** Writes rollup rows as the recorder would have (defaults: this hour, test environment, GET /v1/products, 200). */
export async function seedRollups(rows: RollupSeed[]): Promise<void> {
  await db.usageRollup.createMany({
    data: rows.map((r) => ({
      id: newId("rollup"),
      projectId: r.projectId,
      environment: r.environment ?? "test",
      hour: r.hour ?? hourOf(Date.now()),
      endpoint: r.endpoint ?? "/v1/products",
      method: r.method ?? "GET",
      statusCode: r.statusCode ?? 200,
      errorType: r.errorType ?? null,
      apiKey: r.apiKey ?? "key_seeded",
      principal: r.principal ?? r.apiKey ?? "key_seeded",
      count: r.count,
      billableCount: r.billableCount ?? 0,
      latencyHist: r.latencyHist ?? { "10": r.count },
      latencySum: r.latencySum ?? 10 * r.count,
      requestBytes: r.requestBytes ?? 0,
      responseBytes: r.responseBytes ?? 0,
      computeMs: r.computeMs ?? 0,
      cost: r.cost ?? 0,
    })),
  });
}

/**
 * Waits until `count()` reaches `expected` (the recorder writes in batches, off the request's path), then a little
 * longer, and returns the final count: so a test can assert "exactly", catching duplicates as well as losses.
 */
export async function settledCount(count: () => Promise<number>, expected: number, timeoutMs = 10_000): Promise<number> {
  await poll(async () => (await count()) >= expected, timeoutMs, 100);
  await sleep(400);
  return count();
}

/** Event rows of one business and type, oldest first. */
export function eventRows(businessId: string, type: string) {
  return db.event.findMany({ where: { businessId, type }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Creates a key through the API (default: full access); returns its record with the full `key`. */
export async function createKey(api: ApiClient, body: Record<string, unknown> = {}) {
  const res = await api.post("/v1/api-keys", { name: "Metering test key", scopes: ["*"], ...body });
  if (res.status !== 201) throw new Error(`creating a key: expected 201, got ${res.status} ${res.text.slice(0, 300)}`);
  return res.body.data as { id: string; key: string; rateLimit: number | null; [k: string]: unknown };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A Redis key prefix no other run uses. */
export const uniquePrefix = (label: string) => `test-${label}-${process.pid}-${randomBytes(4).toString("hex")}:`;

/** Deletes every key under `prefix` on the Redis at `url`. */
export async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await r.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length) await r.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    r.disconnect();
  }
}

export interface OwnRedis {
  port: number;
  url: string;
  child: ChildProcess;
  kill(): Promise<void>;
}

/** A redis-server of the test's own on a free port, nothing persisted; kill() ends it (an outage). */
export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  port ??= await freePort();
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on("error", () => {}); // refused until the server is up: expected
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      break;
    } catch {
      probe.disconnect();
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`);
      await sleep(100);
    }
  }
  return {
    port,
    url,
    child,
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      }),
  };
}

export type ServerWithLogs = TestServer & { stderr(): string };

/** kill -9 of a server: resolves once its process has exited. */
export function kill9(s: ServerWithLogs): Promise<void> {
  return new Promise((resolve) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return resolve();
    s.child.once("exit", () => resolve());
    s.child.kill("SIGKILL");
  });
}

/** A second server on the suite's database (same DATABASE_URL and key secret) with extra settings. */
export async function startSecondServer(env: Record<string, string> = {}): Promise<ServerWithLogs> {
  const base: Record<string, string> = {};
  for (const k of ["DATABASE_URL", "KEY_HASH_SECRET", "ALLOW_PRIVATE_URLS"]) if (process.env[k]) base[k] = process.env[k]!;
  return (await startServer({ USAGE_FLUSH_MS: "100", ROLLUP_FLUSH_MS: "300", ...base, ...env })) as ServerWithLogs;
}

/**
 * A POST whose body arrives only when told. The pipeline admits a request (takes its concurrency slot) before it
 * reads the body, so until finish() the request is in flight.
 */
export function slowPost(base: string, key: string, path: string, body: unknown) {
  const text = JSON.stringify(body);
  const req = http.request(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(text) },
  });
  const response = new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    req.on("error", reject);
    req.on("response", (res) => {
      let data = "";
      res.on("data", (d) => {
        data += d;
      });
      res.on("end", () => resolve({ status: res.statusCode!, body: data, headers: res.headers }));
    });
  });
  response.catch(() => {}); // awaited by finish(); an early socket error must not be an unhandled rejection
  req.write(text.slice(0, 5));
  return {
    finish: () => {
      req.end(text.slice(5));
      return response;
    },
  };
}
