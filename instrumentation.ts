// Runs once when the server starts: the periodic jobs (log retention, rollup compaction) and the webhook
// delivery worker live in the server unless JOBS_IN_SERVER=false / WEBHOOK_WORKER=false (then run
// `npm run jobs -- --loop` on its own).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startScheduler } = await import("@/lib/jobs/scheduler");
    const { startWorker } = await import("@/lib/webhooks/worker");
    startScheduler();
    startWorker();
  }
}
