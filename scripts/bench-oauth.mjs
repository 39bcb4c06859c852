// `node scripts/bench-oauth.mjs`: the cost of authenticating with an OAuth access token, beside an API key: p50/p99 and
// CPU per call of BENCH_OAUTH_CALLS (100,000) verifications on a cache hit, and how many of them reached the
// database (goal: none). Fresh SQLite database, dropped afterwards; writes bench-results/oauth.json.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureGenerated } from "./lib/prepare.mjs";

process.chdir(path.resolve(path.dirname(fileURLToPath(import.meta.url)), ".."));

async function main() {
  ensureGenerated();
  const { makeBench, num, tsxJson, writeResults } = await import("./lib/bench-setup.mjs");
  const CALLS = Math.round(num("BENCH_OAUTH_CALLS", 100_000));
  const b = makeBench("bench-oauth");
  try {
    const db = await b.freshDb();
    const boot = b.bootstrap(db.env);
    const r = tsxJson("scripts/bench-oauth-inproc.ts", {
      ...db.env,
      BENCH_BUSINESS_ID: boot.businessId,
      BENCH_PROJECT_ID: boot.projectId,
      BENCH_OAUTH_CALLS: String(CALLS),
    });
    const line = (name, x) =>
      `${name}: p50 ${x.p50Ms.toFixed(4)} ms  p99 ${x.p99Ms.toFixed(4)} ms  max ${x.maxMs.toFixed(2)} ms  CPU ${x.cpuUsPerCall.toFixed(1)} us/call`;
    console.log("");
    console.log(`OAuth access-token verification, cache hit, ${CALLS} calls`);
    console.log(line("verifyAccessToken", r.accessToken));
    console.log(line("verifyApiKey     ", r.apiKey));
    console.log(
      `database loads during the timed calls: ${r.databaseLoadsDuringTimedCalls} (goal 0); first call (cache miss, 3 point reads): ${r.cacheMissMs.toFixed(2)} ms`,
    );
    console.log(`written ${writeResults("oauth", r)}`);
  } finally {
    await b.cleanup();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
