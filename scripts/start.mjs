// `npm start`: install what is missing, apply migrations to DATABASE_URL (default: data/platform.db), build if the
// sources changed (Next's pages and the data plane's bundle), and serve portal and API on PORT (default 3000) from
// two kinds of process under one supervisor (scripts/serve.mjs).
import { failureLine, prepare } from "./lib/prepare.mjs";
import { dataPlaneWorkers, serve } from "./serve.mjs";
import { paymentSettingsError } from "./lib/payment-settings.mjs";
import { redisSettingsError } from "./lib/redis-settings.mjs";
import { databaseSettingsError } from "./lib/database-url.mjs";

// A setting that cannot be honoured stops us before minutes of installing and building.
const plan = dataPlaneWorkers();
const settingError = plan.error ?? paymentSettingsError() ?? redisSettingsError() ?? databaseSettingsError();
if (settingError) {
  console.error(settingError);
  process.exit(1);
}
// Only node's own modules and scripts that need nothing installed are imported above: on a fresh clone there is no
// node_modules until prepare() has run, and a static import of db-migrate.mjs (better-sqlite3) would fail first.
let membership;
try {
  prepare();
  const { migrateIfPending } = await import("./db-migrate.mjs");
  // Several nodes starting at once on a new database: one applies the migrations, the others wait for it on
  // PostgreSQL's advisory lock and then find none pending (db-migrate.mjs).
  await migrateIfPending();
  // Beside other nodes: refused in one line where this one could not serve correctly (scripts/lib/cluster-node.mjs).
  const { joinOrRefuse } = await import("./lib/cluster-node.mjs");
  membership = await joinOrRefuse();
} catch (e) {
  // One line saying what failed and what to do (an install, a build, a migration), not a stack trace.
  console.error(failureLine(e));
  process.exit(1);
}
console.log(`Serving on http://localhost:${process.env.PORT ?? "3000"} (API under /v1, docs at /docs)`);
await serve({ membership });
