// `npm run cli` and `npm run jobs` on a fresh clone: install what is missing, generate the Prisma clients and apply
// pending migrations to DATABASE_URL, then run the TypeScript entry with tsx. Like start.mjs, nothing here imports a
// package before ensureInstalled() has run. It runs beside a serving `npm start` on the same database (the README's
// first calls do): with no migration pending it only reads which ones the database has (scripts/db-migrate.mjs).
// A failure is one line saying what failed and what to do, never a stack trace.
import { spawn } from "node:child_process";
import { ensureGenerated, ensureInstalled, failureLine, printToStderr } from "./lib/prepare.mjs";

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error("usage: node scripts/run-ts.mjs <file.ts> [args…]");
  process.exit(2);
}
// The CLI's --json output is read by scripts: what the install step prints goes to stderr.
printToStderr();
try {
  ensureInstalled();
  ensureGenerated();
  const { migrateIfPending } = await import("./db-migrate.mjs");
  await migrateIfPending(undefined, { quiet: true });
} catch (e) {
  console.error(failureLine(e));
  process.exit(1);
}
const child = spawn("node_modules/.bin/tsx", ["--conditions=react-server", entry, ...args], { stdio: "inherit" });
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
