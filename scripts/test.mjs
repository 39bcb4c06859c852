// `npm test`: the whole suite with nothing run before it.
//   0. lint: the import rules of .dependency-cruiser.cjs (layers point down), ESLint, Prettier, tsc
//   1. unit tests (tests/unit), in-process
//   2. API integration tests (tests/api) against the real built server on a fresh database
//   3. browser tests (e2e/) in Debian's Chromium via Playwright (installed with apt-get when missing and we are
//      root; otherwise the run stops at once with one line saying what to run: scripts/lib/chromium.mjs)
// Ends with the line `N passed, N failed`.
// Options: --only lint|unit|api|e2e (repeatable), --db sqlite|postgres (the integration database); REDIS_URL passes through.
// Words after the options pick test files by a part of their path.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { prepare } from "./lib/prepare.mjs";
import { ensureChromium } from "./lib/chromium.mjs";
import { failureReport, playwrightFailures, tapFailureCollector } from "./lib/test-failures.mjs";
// server.mjs and test-database.mjs need installed packages: imported after prepare().
let startServer, createTestDatabase;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { only: { type: "string", multiple: true }, db: { type: "string", default: "sqlite" } },
});
const wanted = new Set(values.only ?? ["lint", "unit", "api", "e2e"]);
const totals = { passed: 0, failed: 0 };
/** Each run's failure report, repeated after the totals (CI keeps only the tail of the log). */
const reports = [];

// Positional arguments narrow a run to the test files whose path contains one of them
// (`node scripts/test.mjs --only api oauth billing`); without them every file runs.
function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => `${dir}/${f}`)
    .filter((f) => positionals.length === 0 || positionals.some((p) => f.includes(p)));
}

/** Runs a command, echoing its output, and reads node's TAP totals (`# pass N`, `# fail N`). */
function runTap(args, env) {
  return new Promise((resolve) => {
    const child = spawn("node_modules/.bin/tsx", args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const collector = tapFailureCollector();
    child.stdout.on("data", (d) => {
      process.stdout.write(d);
      collector.push(String(d));
      out += d;
      if (out.length > 200_000) out = out.slice(-100_000);
    });
    child.on("exit", (code) => {
      collector.end();
      const pass = Number(/^# pass (\d+)/m.exec(out)?.[1] ?? 0);
      const fail = Number(/^# fail (\d+)/m.exec(out)?.[1] ?? 0);
      // A crash before the runner's summary still counts as a failure.
      const failures = collector.failures;
      if (code !== 0 && failures.length === 0)
        failures.push(`not ok - the test runner exited with code ${code} before reporting a failure`);
      resolve({ passed: pass, failed: fail + (code !== 0 && fail === 0 ? 1 : 0), failures });
    });
  });
}

function add(r, label) {
  totals.passed += r.passed;
  totals.failed += r.failed;
  reports.push(failureReport(label, r.failures ?? []));
  console.log(`\n${label}: ${r.passed} passed, ${r.failed} failed\n`);
}

/** Runs a checker; it counts as one passed test, or one failed test with its output shown. */
function check(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("exit", (code) => {
      if (code !== 0) process.stdout.write(out);
      console.log(`${code === 0 ? "ok" : "not ok"} - ${label}`);
      resolve({ passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, failures: code === 0 ? [] : [`not ok - ${label}`] });
    });
  });
}

async function lint() {
  const results = [
    await check("imports point down (dependency-cruiser)", "node_modules/.bin/depcruise", [
      "lib",
      "app",
      "components",
      "instrumentation.ts",
      "proxy.ts",
      "--config",
      ".dependency-cruiser.cjs",
      "--output-type",
      "err",
    ]),
    await check("ESLint (Next, TypeScript, import order)", "node_modules/.bin/eslint", [".", "--max-warnings", "0"]),
    await check("Prettier formatting", "node_modules/.bin/prettier", ["--check", "--log-level", "warn", "."]),
    await check("TypeScript types (tsc --noEmit)", "node_modules/.bin/tsc", ["--noEmit"]),
  ];
  add(
    results.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, failures: [...a.failures, ...r.failures] }), {
      passed: 0,
      failed: 0,
      failures: [],
    }),
    "lint",
  );
}

const KEY_HASH_SECRET = "test-suite-secret-not-for-production";
const TAP = ["--conditions=react-server", "--test", "--test-reporter=tap", "--test-concurrency=2"];

async function unit() {
  const list = files("tests/unit", ".test.ts");
  if (list.length) add(await runTap([...TAP, ...list], { KEY_HASH_SECRET }), "unit");
}

async function api() {
  const list = files("tests/api", ".test.ts");
  if (!list.length) return;
  const database = await createTestDatabase(values.db);
  // Short flush intervals so tests see usage, logs and metrics within a few hundred milliseconds.
  const env = {
    DATABASE_URL: database.url,
    KEY_HASH_SECRET,
    ALLOW_PRIVATE_URLS: "true",
    USAGE_FLUSH_MS: "100",
    ROLLUP_FLUSH_MS: "300",
    WEBHOOK_POLL_MS: "200",
  };
  const server = await startServer({ env });
  try {
    add(await runTap([...TAP, ...list], { ...env, BASE_URL: server.url }), `api (${values.db})`);
  } finally {
    await server.stop();
    await database.drop();
  }
}

async function e2e() {
  const specs = files("e2e", ".spec.ts");
  if (!specs.length) return;
  const database = await createTestDatabase("sqlite");
  const report = "test-results/e2e-report.json";
  rmSync(report, { force: true });
  const code = await new Promise((resolve) => {
    const child = spawn("node_modules/.bin/playwright", ["test", ...(positionals.length ? specs : [])], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: database.url, KEY_HASH_SECRET, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    });
    child.on("exit", resolve);
  });
  await database.drop();
  let r = { passed: 0, failed: code === 0 ? 0 : 1, failures: [] };
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, "utf8"));
    const stats = json.stats ?? {};
    r = {
      passed: stats.expected ?? 0,
      failed: (stats.unexpected ?? 0) + (stats.flaky ?? 0) + (code !== 0 && !stats.unexpected ? 1 : 0),
      failures: playwrightFailures(json),
    };
  }
  if (r.failed && r.failures.length === 0) r.failures.push(`not ok - Playwright exited with code ${code} before reporting a failure`);
  add(r, "e2e");
}

// The browser first: installed when missing and possible, else one line saying what to run, before any suite runs.
if (wanted.has("e2e") && files("e2e", ".spec.ts").length) {
  const browser = ensureChromium();
  if (!browser.ok) {
    console.error(browser.message);
    process.exit(1);
  }
}

try {
  prepare();
  ({ startServer } = await import("./lib/server.mjs"));
  ({ createTestDatabase } = await import("./lib/test-database.mjs"));
  if (wanted.has("lint")) await lint();
  if (wanted.has("unit")) await unit();
  if (wanted.has("api")) await api();
  if (wanted.has("e2e")) await e2e();
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  totals.failed += 1;
  reports.push(failureReport("the run itself", [`not ok - ${e instanceof Error ? e.message : e}`]));
}
process.stdout.write(reports.join(""));
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed === 0 && totals.passed > 0 ? 0 : 1);
