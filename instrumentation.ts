// Runs once when the server starts: the periodic jobs (log retention, rollup compaction) live in the server
// unless JOBS_IN_SERVER=false (then run `npm run jobs` on its own).
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startScheduler } = await import("@/lib/jobs/scheduler");
    startScheduler();
  }
}
