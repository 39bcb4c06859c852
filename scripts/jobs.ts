// `npm run jobs`: the periodic jobs once (`--loop` to keep running every JOBS_INTERVAL_MS, default 10 minutes).
import { runJobsOnce } from "@/lib/jobs/scheduler";
import { db } from "@/lib/db/client";

const loop = process.argv.includes("--loop");
const interval = Number(process.env.JOBS_INTERVAL_MS ?? 10 * 60_000);
do {
  await runJobsOnce();
  if (loop) await new Promise((r) => setTimeout(r, interval));
} while (loop);
await db.$disconnect();
