// The production server on node:http:
//  - the API (/v1), the OAuth token and revocation endpoints and the well-known document are answered by the
//    front door that instrumentation.ts registers (globalThis.__platformFrontDoor, lib/server/node-front-door.ts),
//    without Next's request handler; everything else (portal, docs, sign-in) goes to Next;
//  - the client's socket address reaches the app in a header no client can forge (x-platform-client-ip),
//    which the IP allow-list of API keys needs (X-Forwarded-For is trusted only from TRUSTED_PROXIES);
//  - a SIGTERM/SIGINT stops accepting, lets requests in flight finish, then runs the app's shutdown hooks
//    (globalThis.__platformShutdown, registered by lib/shutdown.ts) before exiting.
import "./scripts/lib/native-date.mjs"; // first: the engine's Date, before Next wraps it
import { createServer } from "node:http";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import next from "next";
import { applyOrigin, ownHostnames, requestOrigin } from "./scripts/lib/request-origin.mjs";
import { hostSuffix, isRoutedHost, routeByHost } from "./scripts/lib/host-routing.mjs";

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? "0.0.0.0";

// Portal sessions need a signing secret and the public address. Defaults suit one machine: a secret made once
// into data/ (git-ignored), and the address each request came to (one of this server's own, see
// scripts/lib/request-origin.mjs). Behind a proxy or on several machines, set NEXTAUTH_SECRET and PUBLIC_BASE_URL.
if (!process.env.NEXTAUTH_SECRET) {
  const file = "data/nextauth.secret";
  if (!existsSync(file)) {
    mkdirSync("data", { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  process.env.NEXTAUTH_SECRET = readFileSync(file, "utf8").trim();
}
if (process.env.PUBLIC_BASE_URL) process.env.NEXTAUTH_URL ??= process.env.PUBLIC_BASE_URL;
// No fixed address: next-auth takes the request's host, which the handler below has already checked.
else if (!process.env.NEXTAUTH_URL) process.env.AUTH_TRUST_HOST = "true";
const fixedOrigin = process.env.PUBLIC_BASE_URL || process.env.NEXTAUTH_URL;
const ownNames = ownHostnames();
// Products on hosts of their own (scripts/lib/host-routing.mjs): {slug}.GATEWAY_HOST_SUFFIX, {slug}.APP_HOST_SUFFIX.
const gatewaySuffix = hostSuffix(process.env.GATEWAY_HOST_SUFFIX);
const appSuffix = hostSuffix(process.env.APP_HOST_SUFFIX);
const routed = (hostname) => isRoutedHost(hostname, [gatewaySuffix, appSuffix]);
const app = next({ dev: false, hostname, port, dir: process.cwd(), conf: undefined });
const handle = app.getRequestHandler();
await app.prepare();
// instrumentation.ts's register() puts the API's front door on globalThis. Next runs it once per process, but
// only when its own server first starts (lazily, at the first request), so it is run here, through the same
// once-only entry point Next uses: Next's later call finds it done.
const require = createRequire(import.meta.url);
const { ensureInstrumentationRegistered } = require("next/dist/server/lib/router-utils/instrumentation-globals.external.js");
await ensureInstrumentationRegistered(process.cwd(), process.env.NEXT_DIST_DIR ?? ".next");
const frontDoor = globalThis.__platformFrontDoor;
if (typeof frontDoor !== "function") throw new Error("instrumentation.ts did not register the API front door");

// The headers each Host value leads to, worked out once (a bounded map: the Host header is the client's to write).
const originHeaders = new Map();
function applyRequestOrigin(headers) {
  const key = headers.host ?? "";
  let values = originHeaders.get(key);
  if (!values) {
    values = {};
    applyOrigin(
      values,
      requestOrigin({ hostHeader: headers.host, port, listenHost: hostname, publicBaseUrl: fixedOrigin, names: ownNames, routed }),
    );
    if (originHeaders.size >= 256) originHeaders.clear();
    originHeaders.set(key, values);
  }
  Object.assign(headers, values);
}

/** A product host's request, pointed at its path here (before the origin is applied: it reads the client's Host). */
function applyHostRoute(req) {
  const url = routeByHost({ hostHeader: req.headers.host, url: req.url ?? "/", gatewaySuffix, appSuffix });
  if (url) req.url = url;
}

const server = createServer((req, res) => {
  req.headers["x-platform-client-ip"] = req.socket.remoteAddress ?? "";
  applyHostRoute(req);
  // Host, X-Forwarded-Host and -Proto are replaced by the origin this request is answered for: the client's
  // own Host when it names this server, else this server's address; never a value a client made up.
  applyRequestOrigin(req.headers);
  if (!frontDoor(req, res)) handle(req, res);
});
// WebSocket (and other Upgrade) requests: the gateway's /gw/{slug}/… tunnels them to the product's upstream.
const upgrade = globalThis.__platformUpgrade;
server.on("upgrade", (req, socket, head) => {
  req.headers["x-platform-client-ip"] = req.socket.remoteAddress ?? "";
  applyHostRoute(req);
  applyRequestOrigin(req.headers);
  if (typeof upgrade !== "function" || !upgrade(req, socket, head)) socket.destroy();
});
server.keepAliveTimeout = 65_000;
server.listen(port, hostname, () => console.log(`ready on http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`));

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing requests in flight`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  // close() stops accepting and resolves once every request in flight has been answered (idle keep-alive
  // connections are closed at once); only then are the queued usage events, logs and audit entries flushed.
  const closed = new Promise((resolve) => server.close(resolve));
  // A keep-alive connection goes idle once its last response is sent; close those as they appear.
  const sweep = setInterval(() => server.closeIdleConnections?.(), 100);
  server.closeIdleConnections?.();
  await closed;
  clearInterval(sweep);
  try {
    await globalThis.__platformShutdown?.();
  } catch (e) {
    console.error("shutdown hook failed", e);
  }
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
