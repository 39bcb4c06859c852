// What `npm start` and `npm test` do before anything else on a fresh clone: install, generate the Prisma
// clients, build the app when its sources changed. Each step is skipped when already done.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

// Where the steps print: stdout, or stderr for a command whose stdout a script reads (`npm run cli -- … --json`).
let toStderr = false;
export const printToStderr = () => {
  toStderr = true;
};
const log = (msg) => (toStderr ? console.error : console.log)(`[prepare] ${msg}`);
const stdio = () => (toStderr ? ["inherit", 2, 2] : "inherit");

/** The one line an operator command prints for a failure before it exits 1: the message's first line, never a stack. */
export const failureLine = (e) => `error: ${(e instanceof Error ? e.message : String(e)).split("\n")[0]}`;

export function ensureInstalled() {
  const lock = existsSync("package-lock.json") ? readFileSync("package-lock.json") : Buffer.from("");
  const stamp = "node_modules/.install-stamp";
  // What an install depends on: the lock and package.json's dependency fields (a new script is no reason to reinstall).
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const deps = JSON.stringify([pkg.dependencies, pkg.devDependencies, pkg.overrides, pkg.allowScripts]);
  const want = createHash("sha256").update(lock).update(deps).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want && existsSync("node_modules/.bin/next")) return;
  log("installing dependencies (npm ci)");
  const r = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { stdio: stdio() });
  if (r.status !== 0)
    throw new Error("npm ci failed (its output is above): check the network to the npm registry and run `npm start` again");
  writeFileSync(stamp, want);
}

export function ensureGenerated() {
  const schema = readFileSync("prisma/schema.prisma");
  const stamp = "generated/.schema-stamp";
  const want = createHash("sha256").update(schema).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want && existsSync("generated/prisma-pg/index.js")) return;
  log("generating Prisma clients");
  execFileSync("node", ["scripts/prisma-generate.mjs"], { stdio: stdio() });
  mkdirSync("generated", { recursive: true });
  writeFileSync(stamp, want);
}

const SOURCE_DIRS = ["app", "components", "lib", "public", "generated"];
const SOURCE_FILES = ["next.config.mjs", "package-lock.json", "postcss.config.mjs", "tsconfig.json", "proxy.ts", "instrumentation.ts"];

function hashTree(hash, target) {
  if (!existsSync(target)) return;
  const st = statSync(target);
  if (st.isDirectory()) {
    for (const name of readdirSync(target).sort()) hashTree(hash, path.join(target, name));
  } else {
    hash.update(target).update(readFileSync(target));
  }
}

export function sourceHash() {
  const hash = createHash("sha256");
  for (const t of [...SOURCE_DIRS, ...SOURCE_FILES]) hashTree(hash, t);
  return hash.digest("hex");
}

export function ensureBuilt() {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  const stamp = `${dist}/source-stamp`;
  const want = sourceHash();
  if (!(existsSync(stamp) && readFileSync(stamp, "utf8") === want && existsSync(`${dist}/BUILD_ID`))) {
    log("building the app (next build)");
    const r = spawnSync("node_modules/.bin/next", ["build"], { stdio: stdio(), env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (r.status !== 0) throw new Error("next build failed");
    writeFileSync(stamp, want);
  }
  ensureDataPlaneBuilt(want);
}

/** The data plane's bundle (scripts/build-data-plane.mjs), from the same sources: about a second with esbuild. */
export function ensureDataPlaneBuilt(want = sourceHash()) {
  const stamp = "dist/data-plane/source-stamp";
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want && existsSync("dist/data-plane/entry.mjs")) return;
  log("building the data plane (esbuild)");
  const r = spawnSync("node", ["scripts/build-data-plane.mjs"], { stdio: stdio() });
  if (r.status !== 0) throw new Error("the data plane's build failed");
  writeFileSync(stamp, want);
}

export function prepare() {
  ensureInstalled();
  ensureGenerated();
  ensureBuilt();
}
