// npm test and the browser (scripts/lib/chromium.mjs): a missing Chromium is installed from Debian's packages when
// we are root with apt-get; otherwise the run stops with one line saying what to run, instead of counting every
// browser test as failed.
import { test } from "node:test";
import assert from "node:assert/strict";
// @ts-expect-error: plain ESM script without types
import { decideChromium, ensureChromium } from "../../scripts/lib/chromium.mjs";

const oneLine = (m: string) => assert.ok(m.length > 0 && !m.includes("\n"), `one line: ${m}`);

test("present: used as it is, nothing installed", () => {
  for (const isRoot of [true, false])
    assert.deepEqual(decideChromium({ present: true, customPath: null, isRoot, hasApt: true }), { action: "use" });
});

test("missing, root and apt-get: Debian's chromium package is installed", () => {
  assert.deepEqual(decideChromium({ present: false, customPath: null, isRoot: true, hasApt: true }), {
    action: "install",
    command: ["apt-get", "install", "-y", "chromium"],
  });
});

test("missing without root: one line naming the apt-get command to run", () => {
  const d = decideChromium({ present: false, customPath: null, isRoot: false, hasApt: true });
  assert.equal(d.action, "stop");
  oneLine(d.message);
  assert.match(d.message, /sudo apt-get install -y chromium/);
});

test("missing without apt-get: one line asking for Chromium and CHROMIUM_PATH", () => {
  for (const isRoot of [true, false]) {
    const d = decideChromium({ present: false, customPath: null, isRoot, hasApt: false });
    assert.equal(d.action, "stop");
    oneLine(d.message);
    assert.match(d.message, /CHROMIUM_PATH/);
  }
});

test("a CHROMIUM_PATH that does not exist is never papered over by an install elsewhere", () => {
  const d = decideChromium({ present: false, customPath: "/opt/chrome/chrome", isRoot: true, hasApt: true });
  assert.equal(d.action, "stop");
  oneLine(d.message);
  assert.match(d.message, /\/opt\/chrome\/chrome/);
});

test("ensureChromium follows the decision: present is ok, no root is a one-line refusal, without running apt-get", () => {
  const logs: string[] = [];
  const log = (m: string) => logs.push(m);
  assert.deepEqual(ensureChromium({ env: {}, log, facts: { present: true, isRoot: false, hasApt: true } }), {
    ok: true,
    path: "/usr/bin/chromium",
  });
  assert.deepEqual(ensureChromium({ env: { CHROMIUM_PATH: "/x/chromium" }, log, facts: { present: true } }), {
    ok: true,
    path: "/x/chromium",
  });
  const refused = ensureChromium({ env: {}, log, facts: { present: false, isRoot: false, hasApt: true } });
  assert.equal(refused.ok, false);
  oneLine(refused.message);
  assert.deepEqual(logs, [], "nothing was installed");
});
