// `npm run jobs`: the periodic jobs once. `--loop` keeps running them every JOBS_INTERVAL_MS (default 10 minutes)
// and delivers webhooks too, for deployments whose servers run with JOBS_IN_SERVER=false and WEBHOOK_WORKER=false.
import { runJobsOnce } from "@/lib/jobs/scheduler";
import { wakeWorker } from "@/lib/webhooks/worker";
import { db } from "@/lib/db/client";
import { closeRedis } from "@/lib/redis/client";

const loop = process.argv.includes("--loop");
// Stopped with SIGTERM/SIGINT, the worker finishes its attempts in flight and writes their results first.
const g = globalThis as unknown as { __platformShutdown?: () => Promise<void> };
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.once(sig, () => {
    void (g.__platformShutdown?.() ?? Promise.resolve()).finally(() => process.exit(0));
  });
}
if (loop) {
  // The delivery worker ignores WEBHOOK_WORKER here: this process is where it is meant to run.
  setInterval(wakeWorker, Number(process.env.WEBHOOK_POLL_MS ?? 1000)).unref();
  wakeWorker();
}
const interval = Number(process.env.JOBS_INTERVAL_MS ?? 10 * 60_000);
try {
  do {
    await runJobsOnce(undefined, { waitForLeases: !loop });
    if (loop) await new Promise((r) => setTimeout(r, interval));
  } while (loop);
} catch (e) {
  // One line, never a stack (the server's log keeps the jobs' own failures).
  console.error(`error: the jobs failed: ${(e instanceof Error ? e.message : String(e)).trim().split("\n")[0]}`);
  await db.$disconnect().catch(() => {});
  await closeRedis().catch(() => {});
  process.exit(1);
}
// Batched writes (audit entries of automatic rotations) go out before the connections close.
await g.__platformShutdown?.();
await db.$disconnect();
await closeRedis();
