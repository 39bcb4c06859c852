// The node flags the platform's server runs with, wherever it is started (npm start, the tests, the benchmarks).
// - --max-semi-space-size=4: young-generation semi-spaces of 4 MB instead of V8's up to 16 MB. A scavenge copies
//   what the requests of the last few milliseconds left alive (each request's record is held until the usage flush),
//   so each pause is shorter: at 200 req/s the gateway's scavenges took 5–30 ms with 16 MB on this 2-core machine.
// - --heap-growing-percent=50: the old generation may grow to 1.5 times what survived the last full collection
//   before the next one, instead of up to 4 times under a high allocation rate. A burst of traffic then leaves a
//   heap of about 200 MB rather than 300–450 MB, which V8 kept for minutes after the burst ended.
// Measured side by side (bench:api, bench:gateway, one run each way): RSS after the runs 209–218 MB against
// 302 MB, peak 243–266 MB against 430 MB, CPU per request within the runs' noise (single read 0.198 ms against
// 0.211 ms; the list page 0.433–0.442 ms against 0.422 ms).
// SERVER_NODE_FLAGS replaces them (an empty value runs node's defaults).
export const serverNodeFlags = (env = process.env) =>
  (env.SERVER_NODE_FLAGS ?? "--max-semi-space-size=4 --heap-growing-percent=50").split(/\s+/).filter(Boolean);
