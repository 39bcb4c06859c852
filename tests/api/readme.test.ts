// The README is executable (issue 59): every block marked `<!-- run: … -->` in README.md and docs/*.md runs as
// written, in order, against a freshly started server on a database of its own (as a newcomer's `npm start` on a
// fresh clone), the CLI beside it on that same database. A README edit that breaks a call fails this test; the
// second test breaks one call on purpose and checks that the run says so.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { startServer, freePort } from "../../scripts/lib/server.mjs";
// @ts-expect-error: plain ESM script without types
import { createTestDatabase } from "../../scripts/lib/test-database.mjs";
// @ts-expect-error: plain ESM script without types
import { docBlocks, runBlocks } from "../../scripts/lib/doc-blocks.mjs";
import { deleteRedisPrefix, uniquePrefix } from "../helpers/usage-db";

interface Block {
  file: string;
  line: number;
  section: string;
  code: string;
}
interface Result {
  block: Block;
  ok: boolean;
  problems: string[];
  stdout: string;
  stderr: string;
}

let server: { url: string; stop(): Promise<void> };
let database: { url: string; drop(): Promise<void> };
let env: Record<string, string | undefined>;
const redisPrefix = process.env.REDIS_URL ? uniquePrefix("readme") : null;

before(async () => {
  database = await createTestDatabase((process.env.DATABASE_URL ?? "file:").startsWith("file:") ? "sqlite" : "postgres");
  const serverEnv = {
    DATABASE_URL: database.url,
    KEY_HASH_SECRET: process.env.KEY_HASH_SECRET ?? "test-suite-secret-not-for-production",
    // The walk-through's upstream runs on this machine (npm run example:upstream), as the README says.
    ALLOW_PRIVATE_URLS: "true",
    ...(redisPrefix ? { REDIS_PREFIX: redisPrefix } : {}),
  };
  server = await startServer({ env: serverEnv });
  // The blocks' own commands (npm run cli) reach the server's database and secrets, as in a newcomer's terminal.
  env = { ...process.env, ...serverEnv };
});

after(async () => {
  await server?.stop();
  await database?.drop();
  if (redisPrefix) await deleteRedisPrefix(process.env.REDIS_URL!, redisPrefix).catch(() => {});
});

const report = (results: Result[]) =>
  results
    .filter((r) => !r.ok)
    .map((r) => `${r.block.file}:${r.block.line} (${r.block.section}):\n  ${r.problems.join("\n  ")}\n  stdout: ${r.stdout.slice(-800)}`)
    .join("\n");

test("every marked block of the README and docs runs as written against a fresh server, the CLI beside it", async () => {
  const blocks: Block[] = docBlocks();
  const sections = new Set(blocks.map((b) => b.section));
  assert.ok(sections.has("first-calls") && sections.has("walk-through"), "the README marks its first calls and its walk-through");
  assert.ok(sections.has("marketplace"), "docs/marketplace.md marks its walk-through");
  const results: Result[] = await runBlocks(blocks, { base: server.url, upstreamPort: await freePort(), env });
  assert.equal(results.filter((r) => !r.ok).length, 0, report(results));
  // What the walk-through promises is what happened: a metered gateway call of the published product.
  const gateway = results.find((r) => r.block.code.includes("/gw/weather-api/forecast"))!;
  assert.match(gateway.stdout, /^HTTP\/1\.1 200/m);
  assert.match(gateway.stdout, /^x-request-cost: 0\.002 USD/im);
  assert.match(gateway.stdout, /"city":"Oslo"/);
  assert.match(gateway.stdout, /"upstreamKey":"received"/, "the provider's secret header reached its upstream");
  // docs/marketplace.md: the provider that serves its API itself verifies B's key and meters B's usage.
  const verify = results.find((r) => r.block.code.includes("/v1/keys/verify"))!;
  assert.match(verify.stdout, /"valid":true,"code":"VALID"/);
  assert.match(verify.stdout, /"quantity":250/);
});

test("a README block whose call is broken fails the run, naming the block and the answer", async () => {
  const blocks: Block[] = docBlocks({ sections: ["first-calls"] });
  const broken = blocks.map((b, i) => (i === 1 ? { ...b, code: b.code.replace("/v1/products -H", "/v1/productz -H") } : b));
  assert.notEqual(broken[1].code, blocks[1].code, "the second first-calls block lists products");
  const results: Result[] = await runBlocks(broken, { base: server.url, env });
  assert.deepEqual(
    results.map((r) => r.ok),
    [true, false],
  );
  assert.match(results[1].problems.join("\n"), /404 from \/v1\/productz/);
});
