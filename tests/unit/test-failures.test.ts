// The test runner's failure summary (scripts/lib/test-failures.mjs): CI keeps only the tail of its log, so a failed
// test's name and error are repeated after the totals. A slip here hides which test failed.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { failureReport, playwrightFailures, tapFailureCollector } from "../../scripts/lib/test-failures.mjs";

const TAP = `# Subtest: passes
ok 1 - passes
  ---
  duration_ms: 1.2
  ...
# Subtest: parent
    # Subtest: child fails
    not ok 1 - child fails
      ---
      duration_ms: 3.4
      failureType: 'testCodeFailure'
      error: 'Expected values to be strictly equal'
      ...
not ok 2 - parent
  ---
  error: '1 subtest failed'
  ...
ok 3 - after
`;

test("failed tests are kept with their YAML block, nested ones included, passing ones not", () => {
  const collector = tapFailureCollector();
  // Chunks that cut lines in the middle, as a pipe delivers them.
  for (let i = 0; i < TAP.length; i += 7) collector.push(TAP.slice(i, i + 7));
  collector.end();
  assert.equal(collector.failures.length, 2);
  assert.match(collector.failures[0], /^ {4}not ok 1 - child fails\n/);
  assert.match(collector.failures[0], /error: 'Expected values to be strictly equal'\n\s+\.\.\.$/);
  assert.equal(collector.failures[1], "not ok 2 - parent\n  ---\n  error: '1 subtest failed'\n  ...");
  assert.doesNotMatch(collector.failures.join("\n"), /passes|after/);
});

test("a block cut off by a crash is still reported, and a long one is cut", () => {
  const collector = tapFailureCollector();
  collector.push("not ok 1 - long\n  ---\n" + Array.from({ length: 100 }, (_, i) => `  line ${i}`).join("\n"));
  collector.end();
  assert.equal(collector.failures.length, 1);
  const lines = collector.failures[0].split("\n");
  assert.equal(lines[0], "not ok 1 - long");
  assert.equal(lines.length, 41);
  assert.equal(lines.at(-1), "  (cut here)");
});

test("the report names the run and lists each failure; nothing when all passed", () => {
  assert.equal(failureReport("api (postgres)", []), "");
  assert.equal(failureReport("unit", ["not ok 1 - a", "not ok 2 - b"]), "Failed in unit (2):\nnot ok 1 - a\nnot ok 2 - b\n");
});

test("Playwright's report gives each failed or flaky test with its file, titles and first error", () => {
  const report = {
    suites: [
      {
        title: "portal.spec.ts",
        file: "portal.spec.ts",
        specs: [{ title: "signs in", file: "portal.spec.ts", tests: [{ status: "expected", results: [{}] }] }],
        suites: [
          {
            title: "keys",
            file: "portal.spec.ts",
            specs: [
              {
                title: "creates a key",
                file: "portal.spec.ts",
                tests: [{ status: "unexpected", results: [{ error: { message: "Timed out\nwaiting for button" } }] }],
              },
              { title: "revokes a key", file: "portal.spec.ts", tests: [{ status: "flaky", results: [{ error: { message: "x" } }, {}] }] },
            ],
          },
        ],
      },
    ],
  };
  assert.deepEqual(playwrightFailures(report), [
    "not ok - portal.spec.ts: keys › creates a key (unexpected)\nTimed out\nwaiting for button",
    "not ok - portal.spec.ts: keys › revokes a key (flaky)\nx",
  ]);
});
