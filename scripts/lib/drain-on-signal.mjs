// How both kinds of process stop (data-plane.mjs, next-server.mjs): on SIGTERM or SIGINT, stop accepting, let the
// requests in flight finish (close() resolves once every one has been answered; idle keep-alive connections are
// closed as they appear), then run `flush` (the queued usage events, logs and audit entries) and exit. A process
// that cannot finish within 10 s exits with 1.
export function drainOnSignal(server, flush) {
  let stopping = false;
  async function drain(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight`);
    setTimeout(() => process.exit(1), 10_000).unref();
    const closed = new Promise((resolve) => server.close(resolve));
    const sweep = setInterval(() => server.closeIdleConnections?.(), 100);
    server.closeIdleConnections?.();
    await closed;
    clearInterval(sweep);
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
