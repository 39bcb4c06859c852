import cluster from "node:cluster";
import { AggregatorRegistry, Counter, Gauge, register } from "prom-client";
import { db } from "@/lib/db/client";
import { limiterDegraded } from "@/lib/limits/limiter";
import { recorderQueueDepth } from "@/lib/usage/recorder";
import { journalStats } from "@/lib/usage/usage-journal";
import { keyCacheStats } from "@/lib/auth/verify-api-key";
import { HotCounter, HotHistogram } from "./hot-metrics";

// GET /metrics (issue 41), in Prometheus's text format, for the operator: what the data plane answered and how fast,
// the gateway's upstreams, whether limits are degraded, the queues that hold work not yet written, the key cache.
// Each data-plane worker counts its own; the supervisor sums them (prom-client's AggregatorRegistry, over the
// cluster's IPC), so a scrape through the shared port sees the whole deployment, whichever worker answers.
//
// Labels stay few: a route's pattern (`/v1/products/{id}`, `/gw/{slug}`), never a raw path or id.

// A worker answers the supervisor's requests for its metrics: prom-client adds that listener when the process makes
// an AggregatorRegistry, so one is made (and otherwise unused) in every worker.
if (cluster.isWorker) new AggregatorRegistry();

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

// Counted on every request: prom-client's registry reads them, its own Counter and Histogram do not count them
// (see hot-metrics.ts).
const requests = new HotCounter(
  "platform_http_requests_total",
  "Requests the data plane answered, by kind (api, gateway, mcp, oauth), route pattern, method and status.",
  ["kind", "route", "method", "status"],
);

const duration = new HotHistogram(
  "platform_http_request_duration_seconds",
  "Time from a request's arrival to the end of its answer, by kind and route pattern.",
  ["kind", "route", "method"],
  SECONDS,
);

const pageRequests = new HotCounter(
  "platform_page_requests_total",
  "Requests for Next (pages, the portal) by how they reached it: handed_over (the connection passed to Next for the answer) or streamed (through the data plane).",
  ["how"],
);

const upstream = new HotHistogram(
  "platform_gateway_upstream_duration_seconds",
  "Time the product's upstream took to answer a gateway call's head, by product slug.",
  ["product"],
  SECONDS,
);

new Gauge({
  name: "platform_limiter_degraded",
  help: "1 while this deployment's limits run on per-process fallbacks because Redis failed (summed over workers).",
  collect() {
    this.set(limiterDegraded() ? 1 : 0);
  },
});

new Gauge({
  name: "platform_usage_recorder_queue",
  help: "Usage events and request logs queued in memory, not yet written to the database.",
  collect() {
    this.set(recorderQueueDepth());
  },
});

new Gauge({
  name: "platform_usage_journal_pending",
  help: "Gateway usage events in the crash journal whose database write is not confirmed yet.",
  collect() {
    this.set(journalStats().pending);
  },
});

new Gauge({
  name: "platform_webhook_deliveries_pending",
  help: "Webhook deliveries waiting to be sent (pending or retrying), from the database.",
  // One figure for the deployment: every worker reads the same table, so the first answer is taken, not the sum.
  aggregator: "first",
  async collect() {
    try {
      this.set(await db.webhookDelivery.count({ where: { status: { in: ["pending", "retrying"] } } }));
    } catch {
      this.set(-1); // the database did not answer: /readyz says why
    }
  },
});

new Counter({
  name: "platform_key_cache_lookups_total",
  help: "API key verifications, answered from this process's cache (hit) or the database (miss).",
  labelNames: ["result"] as const,
  collect() {
    this.reset();
    this.inc({ result: "hit" }, keyCacheStats.hits);
    this.inc({ result: "miss" }, keyCacheStats.misses);
  },
});

/** Counts one answered request; `seconds` from its arrival to the end of its answer. */
export function observeRequest(kind: string, route: string, method: string, status: number, seconds: number): void {
  requests.inc(kind, route, method, String(status));
  duration.observe(seconds, kind, route, method);
}

/** Counts a request for Next: its connection handed over, or the request streamed through this process. */
export function countPageRequest(how: "handed_over" | "streamed"): void {
  pageRequests.inc(how);
}

export function observeUpstream(product: string, seconds: number): void {
  upstream.observe(seconds, product);
}

/** This process's metrics in the text format (the supervisor's aggregate is asked for through IPC instead). */
export function localMetrics(): Promise<string> {
  return register.metrics();
}

export const metricsContentType = register.contentType;
