// Runs once when the server starts:
//  - registers the API's node:http front door (lib/server/node-front-door.ts) for server.mjs, which answers /v1,
//    /oauth/token, /oauth/revoke and the well-known document with it before Next's request handler. Next builds
//    this file to JavaScript with the rest of the app, so the front door shares the app's build and its
//    process-wide services (database client, key cache, limiter, recorder queue, event bus);
//  - turns on the list-total cache (lib/db/count-cache.ts) for this process;
//  - on SQLite, moves WAL checkpoints and the usage recorder's inserts to their own thread (lib/db/sqlite-thread.ts);
//  - replays the usage journals of server processes that died (lib/usage/usage-journal.ts), now and periodically;
//  - starts the periodic jobs (log retention, rollup compaction) and the webhook delivery worker unless
//    JOBS_IN_SERVER=false / WEBHOOK_WORKER=false (then run `npm run jobs -- --loop` on its own).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { enableCountCache } = await import("@/lib/db/count-cache");
    enableCountCache();
    const { startSqliteThreadForDb } = await import("@/lib/db/sqlite-direct");
    startSqliteThreadForDb();
    const { handleNodeRequest } = await import("@/lib/server/node-front-door");
    (globalThis as { __platformFrontDoor?: typeof handleNodeRequest }).__platformFrontDoor = handleNodeRequest;
    const { handleGatewayUpgrade } = await import("@/lib/server/gateway-front-door");
    (globalThis as { __platformUpgrade?: typeof handleGatewayUpgrade }).__platformUpgrade = handleGatewayUpgrade;
    const { startJournalRecovery } = await import("@/lib/usage/recorder");
    startJournalRecovery();
    const { startScheduler } = await import("@/lib/jobs/scheduler");
    const { startWorker } = await import("@/lib/webhooks/worker");
    startScheduler();
    startWorker();
  }
}
