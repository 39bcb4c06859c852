// In-process timing of OAuth access-token verification on a cache hit, beside API-key verification. Run by
// scripts/bench-oauth.mjs with DATABASE_URL (a fresh, migrated SQLite DB), KEY_HASH_SECRET, BENCH_BUSINESS_ID and
// BENCH_PROJECT_ID set. Makes a client, a grant and its tokens as the token endpoint does, verifies the access
// token once (the cache miss), then times BENCH_OAUTH_CALLS calls and counts the database loads among them.
// Prints one JSON line on stdout.
import { performance } from "node:perf_hooks";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createApiKey } from "@/lib/keys/create-api-key";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
import { accessTokenCacheStats, verifyAccessToken } from "@/lib/auth/verify-access-token";
import { issueTokens } from "@/lib/oauth/issue-tokens";

const CALLS = Number(process.env.BENCH_OAUTH_CALLS ?? 100_000);

function pct(sorted: Float64Array, p: number): number {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank),
    hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

async function time(verify: () => unknown) {
  for (let i = 0; i < Math.min(10_000, CALLS / 10); i++) await verify();
  const times = new Float64Array(CALLS);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await verify();
    times[i] = performance.now() - t0;
  }
  const cpu = process.cpuUsage(cpu0);
  times.sort();
  return { p50Ms: pct(times, 50), p99Ms: pct(times, 99), maxMs: times[times.length - 1], cpuUsPerCall: (cpu.user + cpu.system) / CALLS };
}

async function main() {
  const businessId = process.env.BENCH_BUSINESS_ID!,
    projectId = process.env.BENCH_PROJECT_ID!;
  const t = new Date();
  const clientId = newId("oauthClient");
  await db.oAuthClient.create({
    data: {
      id: clientId,
      businessId,
      environment: "test",
      name: "bench",
      redirectUris: ["https://b.example/cb"],
      scopes: ["*"],
      clientType: "public",
      createdAt: t,
      updatedAt: t,
    },
  });
  const grantId = newId("oauthGrant");
  const tokens = await db.$transaction(async (tx) => {
    await tx.oAuthGrant.create({
      data: { id: grantId, clientId, userId: "usr_bench", businessId, projectId, environment: "test", scopes: ["*"], createdAt: t },
    });
    return issueTokens(tx, grantId, ["*"]);
  });
  const missStart = performance.now();
  await verifyAccessToken(tokens.access_token);
  const missMs = performance.now() - missStart;
  const loadsBefore = accessTokenCacheStats.loads;
  const token = await time(() => verifyAccessToken(tokens.access_token));
  const loadsDuring = accessTokenCacheStats.loads - loadsBefore;
  const { key } = await createApiKey({ businessId, projectId, type: "test", name: "bench", scopes: ["*"] });
  await verifyApiKey(key);
  const apiKey = await time(() => verifyApiKey(key));
  await db.$disconnect().catch(() => {});
  process.stdout.write(
    JSON.stringify({ calls: CALLS, cacheMissMs: missMs, databaseLoadsDuringTimedCalls: loadsDuring, accessToken: token, apiKey }) + "\n",
  );
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
