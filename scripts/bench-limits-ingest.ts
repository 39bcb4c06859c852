// Usage ingestion in one process, run by scripts/bench-limits.mjs as
//   node_modules/.bin/tsx --conditions=react-server scripts/bench-limits-ingest.ts
// with DATABASE_URL (fresh SQLite), BENCH_BUSINESS_ID, BENCH_PROJECT_ID. Offers BENCH_INGEST_RATE synthetic
// requests/s to recordRequest for BENCH_INGEST_SECONDS (in 10 ms ticks, the recorder's own timers writing
// meanwhile, as in the server), samples queuedCounts() each second (at the start of a tick), then flushUsage() and
// counts the rows.
// Prints one JSON line.
import { performance } from "node:perf_hooks";
import { recordRequest, flushUsage, queuedCounts, recorderStats } from "@/lib/usage/recorder";
import { db } from "@/lib/db/client";
import type { AuthContext } from "@/lib/http/auth-context";

const RATE = Number(process.env.BENCH_INGEST_RATE ?? 10_000);
const SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 5);
// Wall-time caps on a slow machine: stop offering after MAX_OFFER_S, stop waiting for the final flush after MAX_FLUSH_S.
const MAX_OFFER_S = Number(process.env.BENCH_INGEST_MAX_OFFER_S ?? 30);
const MAX_FLUSH_S = Number(process.env.BENCH_INGEST_MAX_FLUSH_S ?? 45);
const TICK_MS = 10;
const ENDPOINTS = ["/v1/products", "/v1/products/{id}", "/v1/prices", "/v1/features", "/v1/usage/metrics"];

async function main() {
  const auth: AuthContext = {
    principal: { kind: "api_key", id: "key_bench" },
    businessId: process.env.BENCH_BUSINESS_ID!,
    projectId: process.env.BENCH_PROJECT_ID!,
    environment: "production",
    scopes: ["*"],
    plan: "enterprise",
    rateLimit: null,
    restrictions: null,
  };
  const reqHeaders = new Headers({
    "user-agent": "bench",
    authorization: "Bearer sk_live_xxxxxxxxxxxxxxxxxxxxxxxx",
    accept: "application/json",
  });
  const resHeaders = { "content-type": "application/json", "x-request-id": "req" };
  const body = JSON.stringify({ object: "product", id: "prod_x", name: "A product", description: "some text" });
  let seq = 0;
  const one = () => {
    const i = seq++;
    recordRequest({
      requestId: `req_bench${String(i).padStart(20, "0")}`,
      at: new Date(),
      auth,
      method: i % 7 === 0 ? "POST" : "GET",
      endpoint: ENDPOINTS[i % ENDPOINTS.length],
      path: `/v1/products/prod_${i % 1000}`,
      statusCode: i % 50 === 0 ? 404 : 200,
      errorType: i % 50 === 0 ? "not_found" : null,
      latencyMs: 2 + (i % 40),
      computeMs: 1 + (i % 10),
      requestBytes: 120,
      responseBytes: body.length,
      ip: "127.0.0.1",
      userAgent: "bench",
      requestHeaders: reqHeaders,
      requestBody: i % 7 === 0 ? body : null,
      responseHeaders: resHeaders,
      responseBody: body,
      userId: null,
    });
  };

  const samples: { t: number; offered: number; writtenRows: number; usage: number; logs: number; rollupCells: number }[] = [];
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let nextSample = 1000;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const elapsed = performance.now() - start;
      // Sampled before this tick's requests are offered: the backlog is what the writer left since the last tick,
      // not the burst a late tick (on a busy machine) is about to add in one go.
      if (elapsed >= nextSample) {
        samples.push({ t: Math.round(elapsed), offered: seq, writtenRows: recorderStats.written, ...queuedCounts() });
        nextSample += 1000;
      }
      const due = Math.min(Math.floor((elapsed / 1000) * RATE), RATE * SECONDS);
      while (seq < due) one();
      if (seq >= RATE * SECONDS || elapsed > MAX_OFFER_S * 1000) return resolve();
      setTimeout(tick, TICK_MS);
    };
    tick();
  });
  const offeredMs = performance.now() - start;
  const queuedAtEnd = queuedCounts();
  // Rows written so far count usage events and request logs alike (one of each per request): half are events.
  const writtenInWindow = Math.floor(recorderStats.written / 2);
  const flushed = await Promise.race([
    flushUsage().then(() => true),
    new Promise<boolean>((r) => setTimeout(() => r(false), MAX_FLUSH_S * 1000)),
  ]);
  const totalMs = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  if (!flushed) {
    process.stdout.write(
      JSON.stringify({
        targetRate: RATE,
        seconds: SECONDS,
        flushed,
        offered: seq,
        offeredMs,
        offeredRate: seq / (offeredMs / 1000),
        queuedAtEnd,
        writtenInWindow,
        writtenPerSInWindow: writtenInWindow / (offeredMs / 1000),
        queuedAfterFlushWait: queuedCounts(),
        totalMs,
        writtenEventsPerS: NaN,
        cpuMsPerEvent: (cpu.user + cpu.system) / 1000 / seq,
        stats: recorderStats,
        samples,
      }) + "\n",
    );
    process.exit(0);
  }
  const events = await db.usageEvent.count({ where: { projectId: auth.projectId } });
  const logs = await db.requestLog.count({ where: { projectId: auth.projectId } });
  const rollups = await db.usageRollup.aggregate({ where: { projectId: auth.projectId }, _sum: { count: true }, _count: true });
  await db.$disconnect().catch(() => {});
  process.stdout.write(
    JSON.stringify({
      targetRate: RATE,
      seconds: SECONDS,
      flushed,
      writtenInWindow,
      writtenPerSInWindow: writtenInWindow / (offeredMs / 1000),
      offered: seq,
      offeredMs,
      offeredRate: seq / (offeredMs / 1000),
      queuedAtEnd,
      flushMs: totalMs - offeredMs,
      totalMs,
      events,
      logs,
      rollupRows: rollups._count,
      rollupCount: rollups._sum.count,
      writtenEventsPerS: events / (totalMs / 1000),
      cpuMsPerEvent: (cpu.user + cpu.system) / 1000 / seq,
      stats: recorderStats,
      samples,
    }) + "\n",
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
