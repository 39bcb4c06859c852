// The data plane: one node:http process (or several, as node:cluster workers sharing the port; scripts/serve.mjs
// starts them) that owns the public port and answers the API (/v1), OAuth's token, revocation and metadata
// endpoints, the gateway (/gw/{slug}/…, WebSockets included), /healthz and /readyz itself, from the bundle
// dist/data-plane/entry.mjs (lib/ only: Next and React are never loaded here). Every other path (the portal, docs,
// catalogue, sign-in) is Next's, so a page render never holds up an API call: they run on different event loops. A
// page's connection is handed to Next for that one answer and comes back (scripts/lib/connection-handoff.mjs says
// which requests and why); the rest (a form's POST, or all with PAGE_CONNECTIONS=stream) is streamed to Next on its
// private address, both ways.
//
// A SIGTERM stops accepting, lets requests in flight finish, then flushes the queued usage events, logs and audit
// entries before exiting. When the supervisor is gone (its IPC channel closes), the process exits at once, as a crash.
import "./scripts/lib/native-date.mjs"; // first, as in the Next process: the engine's own Date
import http from "node:http";
import cluster from "node:cluster";
import { timingSafeEqual } from "node:crypto";
import { drainOnSignal } from "./scripts/lib/drain-on-signal.mjs";
import { frontRequestPreparer } from "./scripts/lib/front-request.mjs";
import {
  adoptConnection,
  aloneOnConnection,
  canHandOff,
  holdStill,
  portalUnavailable,
  readEndsWithRequest,
  requestHead,
  sendConnection,
} from "./scripts/lib/connection-handoff.mjs";

// Gone with the supervisor (its IPC channel closes), even while still starting; node:cluster ends a worker whose
// primary is gone by itself, a plain child needs this.
if (!cluster.isWorker) process.on("disconnect", () => process.exit(1));
const startedAt = performance.now();
const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";
const next = { host: "127.0.0.1", port: Number(process.env.NEXT_PRIVATE_PORT ?? 0) };
// Whether Next takes page connections now (the supervisor says so when Next is ready, and again when it is gone).
let nextTakesConnections = false;
// Messages from the supervisor: Next moved to another port (its first one was taken before Next could listen),
// whether Next takes connections, a connection Next gives back, or the deployment's metrics this worker asked for.
const metricsAsked = new Map(); // request id → resolve
// Set when the supervisor stops the node: /readyz says so, and a load balancer takes the node out while it still serves.
let draining = false;
const nodeId = process.env.NODE_ID ?? null;
process.on("message", (m, handle) => {
  if (m?.type === "connection-back" && handle) {
    holdStill(handle);
    adoptConnection(server, handle);
    return;
  }
  if (m?.type === "next-connections") nextTakesConnections = m.on === true;
  if (m?.type === "draining") draining = true;
  if (m?.type === "next-port" && Number.isInteger(m.port)) next.port = m.port;
  if (m?.type === "metrics-answer" && metricsAsked.has(m.id)) {
    metricsAsked.get(m.id)(m);
    metricsAsked.delete(m.id);
  }
});
const internalToken = process.env.PLATFORM_INTERNAL_TOKEN ?? "";
const worker = cluster.isWorker ? cluster.worker.id : 1;
// V8's collection function (scripts/serve.mjs starts the data plane with --expose-gc for the idle release alone;
// V8 defines the global as neither writable nor deletable, and nothing else here calls it).
const collectGarbage = globalThis.gc;
const plane = await import("./dist/data-plane/entry.mjs");
plane.startDataPlaneServices({ background: process.env.DATA_PLANE_BACKGROUND !== "false" });
// Requests served, for the idle release: once none has come for DATA_PLANE_IDLE_RELEASE_MS, the process gives back what
// the last burst grew (lib/server/idle-memory.ts). The supervisor sets the value, its default included, and checked
// it; without one (not started by it) the release stays off.
let requestsServed = 0;
plane.startIdleRelease(collectGarbage, () => requestsServed, Number(process.env.DATA_PLANE_IDLE_RELEASE_MS ?? 0));

const prepare = frontRequestPreparer({ port, hostname });
// Keep-alive connections to Next: a page's request does not pay a TCP handshake.
const nextAgent = new http.Agent({ keepAlive: true, maxSockets: 256 });

// Headers that belong to one hop (RFC 9110 §7.6.1), not passed on to Next.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);

function json(res, status, body) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Hands the connection of a page request to Next (through the supervisor); streams it when that cannot be done. */
function handOffToNext(req, res, clientUrl) {
  const readEndedWithIt = readEndsWithRequest(req.socket); // now, while the parser still has the read
  queueMicrotask(() => {
    if (aloneOnConnection(req, res, readEndedWithIt)) sendToNext(req, res, clientUrl);
    else toNext(req, res); // pipelined: what came after the page was read here, so the page is streamed
  });
}

function sendToNext(req, res, clientUrl) {
  const head = requestHead(req.method, clientUrl, req.rawHeaders);
  sendConnection({ type: "page-connection", head }, req.socket).then((sent) => {
    if (sent) plane.countPageRequest("handed_over");
    else if (!req.socket.destroyed) toNext(req, res);
  });
}

/** Next's answer to a page request, streamed both ways; a Next that is down or restarting is a 502 in the envelope. */
function toNext(req, res) {
  plane.countPageRequest("streamed");
  const headers = {};
  for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  headers["x-platform-internal"] = internalToken;
  const upstream = http.request(
    { host: next.host, port: next.port, method: req.method, path: req.url, headers, agent: nextAgent },
    (answer) => {
      const out = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(answer.rawHeaders[i].toLowerCase())) out.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
      }
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res);
      answer.on("error", () => res.destroy());
    },
  );
  upstream.on("error", (e) => {
    if (res.headersSent) return res.destroy();
    json(res, 502, portalUnavailable(e.message));
  });
  req.pipe(upstream);
  res.on("close", () => {
    if (!res.writableFinished) upstream.destroy();
  });
}

// GET /metrics (Prometheus text), behind METRICS_TOKEN as a bearer token; without the setting it does not exist.
// Under node:cluster the supervisor sums every worker's metrics (scripts/serve.mjs), so any worker answers for all.
const metricsToken = Buffer.from(process.env.METRICS_TOKEN ?? "");
let metricsAskCount = 0;
function deploymentMetrics() {
  if (!cluster.isWorker) return plane.localMetrics().then((text) => ({ text }));
  return new Promise((resolve) => {
    const id = `${process.pid}-${++metricsAskCount}`;
    const timer = setTimeout(() => {
      metricsAsked.delete(id);
      resolve({ error: "the supervisor did not answer within 5 s" });
    }, 5000);
    metricsAsked.set(id, (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    process.send({ type: "metrics-request", id });
  });
}
function serveMetrics(req, res) {
  if (metricsToken.length === 0)
    return json(res, 404, {
      error: {
        type: "not_found_error",
        code: "METRICS_DISABLED",
        message: "Metrics are off on this deployment.",
        suggestion: "Set METRICS_TOKEN to turn on GET /metrics.",
      },
    });
  const given = Buffer.from(/^Bearer (.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? "");
  if (given.length !== metricsToken.length || !timingSafeEqual(given, metricsToken)) {
    res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
    return json(res, 401, {
      error: {
        type: "authentication_error",
        code: "METRICS_TOKEN_INVALID",
        message: "GET /metrics needs the deployment's METRICS_TOKEN as a bearer token.",
        suggestion: "Send Authorization: Bearer <METRICS_TOKEN>.",
      },
    });
  }
  deploymentMetrics()
    .then((m) => {
      if (m.error) return json(res, 503, { error: { type: "server_error", code: "SERVICE_UNAVAILABLE", message: m.error } });
      res.writeHead(200, { "Content-Type": plane.metricsContentType, "Cache-Control": "no-store" });
      res.end(m.text);
    })
    .catch((e) => json(res, 503, { error: { type: "server_error", code: "SERVICE_UNAVAILABLE", message: e.message } }));
}

/** /readyz's extra check: Next answers its health route on its private address. */
function nextReachable() {
  return new Promise((resolve) => {
    const probe = http.get({ host: next.host, port: next.port, path: "/api/health", agent: nextAgent, timeout: 1000 }, (r) => {
      r.resume();
      resolve([{ name: "next", ok: r.statusCode === 200, ...(r.statusCode === 200 ? {} : { detail: `answered ${r.statusCode}` }) }]);
    });
    probe.on("timeout", () => probe.destroy(new Error("no answer within 1 s")));
    probe.on("error", (e) => resolve([{ name: "next", ok: false, detail: e.message }]));
  });
}

const server = http.createServer((req, res) => {
  requestsServed++;
  // A change another process made (a key revoked in the portal, say) is applied before this request is looked at
  // (checked once per event-loop turn: lib/bus/local-bus.ts says why that is enough).
  plane.pollLocalBusThisTurn();
  const clientUrl = req.url; // before prepare: a product host's request is pointed at its path there, and Next does that itself
  prepare(req);
  const url = req.url ?? "/";
  if (url === "/healthz") return json(res, 200, { status: "ok", process: "data-plane", worker, pid: process.pid });
  if (url === "/metrics") return serveMetrics(req, res);
  if (url === "/readyz") {
    if (draining) return json(res, 503, { status: "draining", node: nodeId, checks: [{ name: "draining", ok: false }] });
    plane
      .readiness(nextReachable)
      .then((r) => json(res, r.ok ? 200 : 503, { status: r.ok ? "ready" : "not_ready", node: nodeId, checks: r.checks }))
      .catch((e) => json(res, 503, { status: "not_ready", checks: [{ name: "readiness", ok: false, detail: e.message }] }));
    return;
  }
  if (plane.handleNodeRequest(req, res)) return;
  if (nextTakesConnections && canHandOff(req)) handOffToNext(req, res, clientUrl);
  else toNext(req, res);
});
// WebSocket (and other Upgrade) requests: the gateway's /gw/{slug}/… tunnels them to the product's upstream; others
// (none in production) are refused.
server.on("upgrade", (req, socket, head) => {
  requestsServed++;
  plane.pollLocalBusThisTurn();
  prepare(req);
  if (!plane.handleGatewayUpgrade(req, socket, head)) socket.destroy();
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => {
  const ms = Math.round(performance.now() - startedAt);
  console.log(
    `data plane ${worker} ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port} in ${ms} ms (pid ${process.pid})`,
  );
  process.send?.({ type: "data-plane-ready", worker, ms });
});

drainOnSignal(
  server,
  async () => {
    nextAgent.destroy();
    await plane.shutdownDataPlane();
  },
  () => plane.drainTick(),
);
