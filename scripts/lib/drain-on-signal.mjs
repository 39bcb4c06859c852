import { closeIdleConnectionsHandedBack } from "./connection-handoff.mjs";

// How both kinds of process stop (data-plane.mjs, next-server.mjs): on SIGTERM or SIGINT, stop accepting, let the
// requests in flight finish (close() resolves once every one has been answered; idle keep-alive connections are
// closed as they appear), then run `flush` (the queued usage events, logs and audit entries) and exit. Meanwhile
// `tick` (what the requests that finish queue, written) runs every 100 ms, so that a connection holding the drain
// open (a client stalled halfway through a request) cannot take the others' usage with it when the process gives up:
// a process that cannot finish within 10 s says how many connections were still open and exits with 1.
export function drainOnSignal(server, flush, tick) {
  let stopping = false;
  async function drain(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight`);
    setTimeout(() => {
      console.error(`${signal}: ${server._connections ?? "some"} connection(s) still open after 10 s; exiting without them`);
      process.exit(1);
    }, 10_000).unref();
    const closed = new Promise((resolve) => server.close(resolve));
    let ticking = null;
    const closeIdle = () => {
      server.closeIdleConnections?.();
      closeIdleConnectionsHandedBack();
    };
    const sweep = setInterval(() => {
      closeIdle();
      if (tick && !ticking)
        ticking = Promise.resolve()
          .then(tick)
          .catch((e) => console.error("writing the queues while draining failed", e))
          .finally(() => (ticking = null));
    }, 100);
    closeIdle();
    await closed;
    clearInterval(sweep);
    await ticking;
    try {
      await flush();
    } catch (e) {
      console.error("shutdown hook failed", e);
    }
    process.exit(0);
  }
  process.on("SIGTERM", () => drain("SIGTERM"));
  process.on("SIGINT", () => drain("SIGINT"));
}
