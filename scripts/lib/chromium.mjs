// The browser tests run in Debian's Chromium, never a downloaded browser. `npm test` makes sure it is there
// before spending minutes on the other suites: missing, as root with apt-get, it installs the `chromium`
// package; missing otherwise, it stops with one line that says what to run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";
const APT_GET = "/usr/bin/apt-get";

/** Where the browser is expected: CHROMIUM_PATH, else Debian's package location. */
export function chromiumPath(env = process.env) {
  return env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
}

/**
 * What to do, from the facts alone (kept pure so a unit test can walk every case):
 *   {action: "use"}                      the browser is there;
 *   {action: "install", command}         missing, and we are root with apt-get: install the package;
 *   {action: "stop", message}            missing and we cannot install it: one line saying what to run.
 */
export function decideChromium({ present, customPath, isRoot, hasApt }) {
  if (present) return { action: "use" };
  if (customPath)
    return {
      action: "stop",
      message: `Chromium is not at CHROMIUM_PATH=${customPath}: point CHROMIUM_PATH at a Chromium binary, then run npm test again.`,
    };
  if (hasApt && isRoot) return { action: "install", command: ["apt-get", "install", "-y", "chromium"] };
  if (hasApt)
    return {
      action: "stop",
      message: "The browser tests need Debian's Chromium: run `sudo apt-get install -y chromium`, then npm test again.",
    };
  return {
    action: "stop",
    message: "The browser tests need Chromium: install it and set CHROMIUM_PATH=/path/to/chromium, then run npm test again.",
  };
}

function run(cmd, args, logFile) {
  const r = spawnSync(cmd, args, {
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  writeFileSync(logFile, `$ ${cmd} ${args.join(" ")}\n${r.stdout ?? ""}${r.stderr ?? ""}`, { flag: "a" });
  return r.status === 0;
}

/**
 * Makes sure Chromium is present, installing it when it can. Returns {ok: true, path} or {ok: false, message}
 * (the one line to print). `facts` overrides the machine's answers, for tests.
 */
export function ensureChromium({ env = process.env, log = (m) => console.log(`[prepare] ${m}`), facts = {} } = {}) {
  const where = chromiumPath(env);
  const decision = decideChromium({
    present: facts.present ?? existsSync(where),
    customPath: env.CHROMIUM_PATH || null,
    isRoot: facts.isRoot ?? process.getuid?.() === 0,
    hasApt: facts.hasApt ?? existsSync(APT_GET),
  });
  if (decision.action === "use") return { ok: true, path: where };
  if (decision.action === "stop") return { ok: false, message: decision.message };
  const logFile = path.join(os.tmpdir(), `chromium-install-${process.pid}.log`);
  log(`Chromium is missing: installing Debian's chromium (apt-get install -y chromium; output in ${logFile})`);
  // The package lists may be missing or stale on a fresh machine; one update, then the install. Another apt run
  // (unattended upgrades, say) holding the lock is waited for rather than failed on.
  const installed =
    run("apt-get", ["-o", "DPkg::Lock::Timeout=300", "update", "-qq"], logFile) &&
    run("apt-get", ["-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq", "chromium"], logFile);
  if (installed && existsSync(where)) return { ok: true, path: where };
  const tail = existsSync(logFile) ? readFileSync(logFile, "utf8").trim().split("\n").slice(-5).join("\n") : "";
  if (tail) console.error(tail);
  return {
    ok: false,
    message: `Installing Chromium failed (see ${logFile}): run \`apt-get install -y chromium\` yourself, then npm test again.`,
  };
}
