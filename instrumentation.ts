// Runs once when Next's server starts (next-server.mjs runs it before the first request; `next dev` at its first):
//  - turns on the list-total cache (lib/db/count-cache.ts) for this process;
//  - listens to the invalidation bus (lib/redis/bus.ts): keys, subscriptions, prices, counts and the test clock
//    changed by the data plane reach the pages this process renders; next-server.mjs polls the local bus before
//    each request through globalThis.__platformBusPoll.
// The API, the gateway, the jobs and the webhook worker run in the data plane (data-plane.mjs). Under `next dev`
// there is no data plane: /v1 is answered by the catch-all route app/v1/[[...path]], and with DEV_BACKGROUND=true
// this process runs the jobs and the webhook worker too.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { enableCountCache } = await import("@/lib/db/count-cache");
    enableCountCache();
    const { listenToLocalBus, pollLocalBus } = await import("@/lib/bus/local-bus");
    listenToLocalBus(() => {});
    (globalThis as { __platformBusPoll?: () => void }).__platformBusPoll = pollLocalBus;
    const { listenForKeyChanges } = await import("@/lib/auth/key-invalidation");
    listenForKeyChanges();
    const { listenForTestClock } = await import("@/lib/server/test-clock-endpoint");
    listenForTestClock();
    if (process.env.DEV_BACKGROUND === "true") {
      const { startScheduler } = await import("@/lib/jobs/scheduler");
      const { startWorker } = await import("@/lib/webhooks/worker");
      startScheduler();
      startWorker();
    }
  }
}
