// `npm start`: install what is missing, apply migrations to DATABASE_URL (default: data/platform.db),
// build if the sources changed, and serve portal and API on PORT (default 3000).
import { spawn } from "node:child_process";
import { prepare } from "./lib/prepare.mjs";
import { serverNodeFlags } from "./lib/server-flags.mjs";

// Only node's own modules and scripts that need nothing installed are imported above: on a fresh clone there is no
// node_modules until prepare() has run, and a static import of db-migrate.mjs (better-sqlite3) would fail first.
prepare();
const { migrate } = await import("./db-migrate.mjs");
migrate();
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "0.0.0.0";
console.log(`Serving on http://localhost:${port} (API under /v1, docs at /docs)`);
const child = spawn("node", [...serverNodeFlags(), "server.mjs"], {
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", PORT: port, HOST: host },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
