// The failed tests of a run, repeated after its totals: CI keeps only the tail of a long log, and a flaky test's
// name and error must be in it. From node's TAP output as it streams by (each `not ok` line with its YAML block: the
// error, the expected and actual values, the stack) and from Playwright's JSON report.

const NOT_OK = /^\s*not ok \d+ - /;
const BLOCK_END = /^\s*\.\.\.$/;
const MAX_LINES = 40;

/** A collector fed with chunks of TAP text; `failures` holds one text per failed test, in the order they ended. */
export function tapFailureCollector() {
  const failures = [];
  let partial = "";
  let current = null;
  const finish = () => {
    if (current) failures.push(current.join("\n"));
    current = null;
  };
  const line = (text) => {
    if (NOT_OK.test(text)) {
      finish();
      current = [text];
      return;
    }
    if (!current) return;
    if (current.length < MAX_LINES) current.push(text);
    else if (current.length === MAX_LINES) current.push("  (cut here)");
    if (BLOCK_END.test(text)) finish();
  };
  return {
    failures,
    push(chunk) {
      const lines = (partial + chunk).split("\n");
      partial = lines.pop();
      for (const text of lines) line(text);
    },
    end() {
      if (partial) line(partial);
      partial = "";
      finish();
    },
  };
}

/** Playwright's JSON report: each test that failed or only passed on a retry, with its file, title and first error. */
export function playwrightFailures(report) {
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        if (t.status !== "unexpected" && t.status !== "flaky") continue;
        const error = (t.results ?? []).find((r) => r.error)?.error?.message ?? "";
        const title = [...titles, spec.title].filter(Boolean).join(" › ");
        failures.push(`not ok - ${spec.file ?? ""}: ${title} (${t.status})\n${error.split("\n").slice(0, MAX_LINES).join("\n")}`.trimEnd());
      }
    for (const child of suite.suites ?? []) walk(child, child.file === child.title ? titles : [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return failures;
}

/** The failures as printed after a run's totals: a header, then each failed test's lines. */
export function failureReport(label, failures) {
  if (!failures.length) return "";
  return [`Failed in ${label} (${failures.length}):`, ...failures].join("\n") + "\n";
}
