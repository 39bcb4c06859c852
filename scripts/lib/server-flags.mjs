// The node flags the platform's server runs with, wherever it is started (npm start, the tests, the benchmarks).
// - --max-semi-space-size=16: young-generation semi-spaces of up to 16 MB (V8's own ceiling on 64-bit, said here so
//   that it is a decision; V8 starts them small and grows them under load). A scavenge's cost is what is alive when
//   it runs, and under load that is mostly the calls in flight (32 at the benchmarks' load: ~400–600 KB whether the
//   semi-spaces are 4 MB or 16), not how much was allocated since the last one; so fewer, larger semi-spaces mean
//   a third as many scavenges for the same survivors. Measured on 2026-11-28 (2-core AMD EPYC, runs alternating
//   with 4 MB, `PerformanceObserver('gc')` in the gateway's throughput run): 340–375 scavenges of 1.5 ms against
//   1,090–1,230 of 1.0 ms; bench:gateway 8,628–8,699 req/s at 0.133–0.135 ms a call against 7,309–8,455 at
//   0.138–0.160, added p50 and p99 at 200 req/s lower, not higher; bench:api's single read 0.104–0.108 ms against
//   0.114–0.116. The cost: RSS after the runs 15–20 MB higher (175–207 MB), its peak during bench:api's list runs
//   ~270 MB against ~210. These were 4 MB until then, chosen when every gateway call was held by a WeakMap and every
//   usage record for 100 ms, so that much more survived each scavenge (5–30 ms pauses with 16 MB at 200 req/s).
// - --heap-growing-percent=50: the old generation may grow to 1.5 times what survived the last full collection
//   before the next one, instead of up to 4 times under a high allocation rate. A burst of traffic then leaves a
//   heap of about 200 MB rather than 300–450 MB, which V8 kept for minutes after the burst ended.
// SERVER_NODE_FLAGS replaces them (an empty value runs node's defaults).
export const serverNodeFlags = (env = process.env) =>
  (env.SERVER_NODE_FLAGS ?? "--max-semi-space-size=16 --heap-growing-percent=50").split(/\s+/).filter(Boolean);
