// Next's process: the portal, docs, catalogue, /p/{slug}, /apps and sign-in, on a private address (NEXT_PRIVATE_PORT
// on 127.0.0.1, chosen by scripts/serve.mjs). The data plane (data-plane.mjs) owns the public port; every path it does
// not answer itself comes here, a page with its connection (below), anything else streamed. The API and the gateway
// never reach this process.
//  - Requests from the data plane carry `x-platform-internal: PLATFORM_INTERNAL_TOKEN`: their client address, Host
//    and X-Forwarded-* were set there and are kept. Any other request (someone on this machine calling the private
//    port) gets them worked out here as the data plane would, never as the client wrote them.
//  - A page's connection may be handed here by the data plane, through the supervisor (scripts/lib/connection-handoff.mjs):
//    this process answers its one request, reads nothing more from it, and gives it back once the answer is written.
//    Its request comes as the client sent it, so it is prepared here as a direct one (its socket is the client's).
//  - A SIGTERM/SIGINT stops accepting and lets requests in flight finish. When the supervisor is gone (the IPC
//    channel closes), the process exits.
import "./scripts/lib/native-date.mjs"; // first: the engine's Date, before Next wraps it
import { createServer } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import next from "next";
import { drainOnSignal } from "./scripts/lib/drain-on-signal.mjs";
import { nextAuthSecret } from "./scripts/lib/node-identity.mjs";
import { frontRequestPreparer } from "./scripts/lib/front-request.mjs";
import { adoptConnection, holdStill, sendConnection } from "./scripts/lib/connection-handoff.mjs";

// Gone with the supervisor (its IPC channel closes), even while still starting.
process.on("disconnect", () => process.exit(1));
const port = Number(process.env.NEXT_PRIVATE_PORT ?? 3001);
const hostname = "127.0.0.1";
const publicPort = Number(process.env.PORT ?? 3000);
const publicHost = process.env.HOST ?? "0.0.0.0";
const internalToken = Buffer.from(process.env.PLATFORM_INTERNAL_TOKEN ?? "");

// Portal sessions need a signing secret and the public address. Defaults suit one machine: a secret made once
// into the node's data folder (DATA_DIR, git-ignored), and the address each request came to (one of this server's own,
// see scripts/lib/request-origin.mjs). Behind a proxy or on several machines, set NEXTAUTH_SECRET (the same on every
// node: a node whose secret differs from a live node's refuses to start) and PUBLIC_BASE_URL.
process.env.NEXTAUTH_SECRET = nextAuthSecret();
if (process.env.PUBLIC_BASE_URL) process.env.NEXTAUTH_URL ??= process.env.PUBLIC_BASE_URL;
// No fixed address: next-auth takes the request's host, which the data plane has already checked.
else if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST = "true";

const app = next({ dev: false, hostname, port, dir: process.cwd(), conf: undefined });
const handle = app.getRequestHandler();
await app.prepare();
// instrumentation.ts's register() listens to the bus and keeps the count cache. Next runs it once per process, but
// only when its own server first starts (lazily, at the first request), so it is run here, through the same
// once-only entry point Next uses: Next's later call finds it done.
const require = createRequire(import.meta.url);
const { ensureInstrumentationRegistered } = require("next/dist/server/lib/router-utils/instrumentation-globals.external.js");
await ensureInstrumentationRegistered(process.cwd(), process.env.NEXT_DIST_DIR ?? ".next");
const pollBus = globalThis.__platformBusPoll ?? (() => {});

const prepareDirect = frontRequestPreparer({ port: publicPort, hostname: publicHost });
function fromDataPlane(req) {
  const given = req.headers["x-platform-internal"];
  delete req.headers["x-platform-internal"];
  if (typeof given !== "string" || internalToken.length === 0) return false;
  const buf = Buffer.from(given);
  return buf.length === internalToken.length && timingSafeEqual(buf, internalToken);
}

// Connections the data plane handed over, each for the one request it read from it.
const handedOver = new WeakSet();
/** Gives a handed-over connection back once its answer is written, unless the answer closes it. */
function giveBack(req, res) {
  const socket = req.socket;
  // Nothing more is read here: the client's next request waits in the kernel for the data plane.
  socket.pause();
  res.once("finish", () => {
    if (res._last || socket.destroyed || socket.writableEnded) return;
    void sendConnection({ type: "connection-back" }, socket);
  });
}
process.on("message", (m, handle) => {
  if (m?.type !== "page-connection" || !handle) return;
  holdStill(handle);
  handedOver.add(handle);
  adoptConnection(server, handle, m.head);
});

const server = createServer((req, res) => {
  if (handedOver.has(req.socket)) {
    handedOver.delete(req.socket);
    giveBack(req, res);
  }
  if (!fromDataPlane(req)) prepareDirect(req);
  // A change the data plane made (a key revoked through /v1, say) is seen by the page this request renders.
  pollBus();
  handle(req, res);
});
server.on("upgrade", (req, socket) => socket.destroy());
server.keepAliveTimeout = 65_000;
// The supervisor chose the port a moment ago; if something took it since, exit with 98 (EADDRINUSE's number) and
// the supervisor starts Next again on another one, instead of Next logging the error and serving nothing.
server.on("error", (e) => {
  console.error(`next could not listen on ${hostname}:${port}: ${e.code ?? e.message}`);
  process.exit(e.code === "EADDRINUSE" ? 98 : 1);
});
server.listen(port, hostname, () => {
  console.log(`next ready on http://${hostname}:${port} (pid ${process.pid})`);
  process.send?.({ type: "next-ready" });
});

drainOnSignal(
  server,
  async () => globalThis.__platformShutdown?.(),
  async () => globalThis.__platformDrainTick?.(),
);
