// In-process timing of verifyApiKey on a cache hit. Run by scripts/bench-auth.mjs as
//   node_modules/.bin/tsx --conditions=react-server scripts/bench-auth-inproc.ts
// with DATABASE_URL (a fresh, migrated SQLite DB), KEY_HASH_SECRET, BENCH_BUSINESS_ID, BENCH_PROJECT_ID set.
// Creates one key with createApiKey, verifies it once (the cache miss, loads the row), then times
// BENCH_AUTH_CALLS (100,000) calls one by one with performance.now(). Prints one JSON line on stdout.
import { performance } from "node:perf_hooks";
import { createApiKey } from "@/lib/keys/create-api-key";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import { db } from "@/lib/db/client";

const CALLS = Number(process.env.BENCH_AUTH_CALLS ?? 100_000);
const WARMUP = Math.min(10_000, Math.ceil(CALLS / 10));

function pct(sorted: Float64Array, p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank),
    hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

async function main() {
  const businessId = process.env.BENCH_BUSINESS_ID!,
    projectId = process.env.BENCH_PROJECT_ID!;
  if (!businessId || !projectId) throw new Error("BENCH_BUSINESS_ID and BENCH_PROJECT_ID are required");
  const { key } = await createApiKey({ businessId, projectId, type: "test", name: "bench-auth", scopes: ["*"] });

  const missStart = performance.now();
  const ctx = await verifyApiKey(key); // cache miss: one query
  const missMs = performance.now() - missStart;
  if (ctx.businessId !== businessId) throw new Error("verified the wrong business");

  for (let i = 0; i < WARMUP; i++) await verifyApiKey(key);
  const times = new Float64Array(CALLS);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await verifyApiKey(key);
    times[i] = performance.now() - t0;
  }
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  let sum = 0;
  for (const t of times) sum += t;
  const out = {
    calls: CALLS,
    warmup: WARMUP,
    cacheMissMs: missMs,
    p50Ms: pct(times, 50),
    p90Ms: pct(times, 90),
    p99Ms: pct(times, 99),
    p999Ms: pct(times, 99.9),
    maxMs: times[times.length - 1],
    meanMs: sum / CALLS,
    wallMs,
    cpuMsPerCall: (cpu.user + cpu.system) / 1000 / CALLS,
  };
  await db.$disconnect().catch(() => {});
  process.stdout.write(JSON.stringify(out) + "\n");
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
