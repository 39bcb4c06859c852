// The data plane's bundle (scripts/build-data-plane.mjs builds it to dist/data-plane/entry.mjs at `npm start`'s build
// step; data-plane.mjs loads it): the API, OAuth's token endpoints, the gateway and the operator endpoints, with the
// process-wide services they need, and nothing of Next or React. What instrumentation.ts does in a single process.
import { enableCountCache } from "@/lib/db/count-cache";
import { startSqliteThreadForDb } from "@/lib/db/sqlite-direct";
import { startJournalRecovery } from "@/lib/usage/recorder";
import { startScheduler } from "@/lib/jobs/scheduler";
import { startWorker } from "@/lib/webhooks/worker";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import { listenToLocalBus, pollLocalBusThisTurn } from "@/lib/bus/local-bus";
import { answerUsageFlushRequests } from "@/lib/usage/flush-everywhere";
import { listenForTestClock } from "./test-clock-endpoint";

export { handleNodeRequest } from "./node-front-door";
export { handleGatewayUpgrade } from "./gateway-front-door";
export { readiness, type ReadinessCheck } from "./readiness";
export { countPageRequest, localMetrics, metricsContentType } from "./metrics";
export { pollLocalBusThisTurn };
export { startIdleRelease } from "./idle-memory";

/** Starts this process's services; `background` adds the jobs and the webhook worker (one process of the data plane
 * runs them, so N workers do not each wake every interval). */
export function startDataPlaneServices({ background }: { background: boolean }): void {
  enableCountCache();
  startSqliteThreadForDb();
  // Listening from the start: a change made before this process's first request is heard as well.
  listenToLocalBus(() => {});
  listenForKeyChanges();
  listenForTestClock();
  answerUsageFlushRequests();
  startJournalRecovery();
  if (background) {
    startScheduler();
    startWorker();
  }
}

/** Flushes what is queued (usage, logs, audit entries) and stops the worker; called after the server stopped accepting. */
export async function shutdownDataPlane(): Promise<void> {
  await (globalThis as { __platformShutdown?: () => Promise<void> }).__platformShutdown?.();
}

/** What a drain repeats while it waits for the requests in flight (lib/shutdown.ts, whileDraining). */
export async function drainTick(): Promise<void> {
  await (globalThis as { __platformDrainTick?: () => Promise<void> }).__platformDrainTick?.();
}
