import type { IncomingMessage, ServerResponse } from "node:http";
import { NodeHeaders } from "@/lib/http/header-reader";
import { baseUrlFor, plainHost } from "@/lib/http/public-base-url";
import { readNodeText } from "@/lib/http/read-body";
import { handleTokenRequest, handleRevokeRequest } from "@/lib/oauth/token-endpoint";
import { AUTHORIZATION_SERVER_METADATA_PATH, handleMetadataRequest } from "@/lib/oauth/metadata";
import { handleProtectedResourceRequest, PROTECTED_RESOURCE_PREFIX } from "@/lib/oauth/protected-resource";
import { handleRegisterRequest } from "@/lib/oauth/register-client";
import { corsPreflight } from "@/lib/oauth/oauth-error";
import { handleStripeWebhook } from "@/lib/billing/stripe/stripe-webhook";
import { API_PATH, dispatchApi } from "./dispatch";
import { observeRequest } from "./metrics";
import type { ApiRequest } from "./request-context";
import { writeAnswer as write } from "./write-answer";
import { GATEWAY_PATH, serveGateway } from "./gateway-front-door";
import { MCP_PATH, serveMcp } from "./mcp-front-door";
import { getTestClock, moveTestClock } from "./test-clock-endpoint";
import { getPlatformFees } from "./platform-fees-endpoint";

// The data plane (data-plane.mjs) hands every request here first: the API and the OAuth endpoints are answered on node:http,
// in a process without Next; anything else (the portal, docs, NextAuth) returns false and is streamed to Next.
// What another process changed reaches this one through the bus (lib/redis/bus.ts), polled before each request.

type WebHandler = (req: Request) => Promise<Response> | Response;

// The endpoints written against the Web `Request`: OAuth's, and the operator's test clock (it moves the clock of the
// process that runs the jobs, and every other one through the bus).
const WEB_HANDLERS: Record<string, Partial<Record<string, WebHandler>>> = {
  "/oauth/token": { POST: handleTokenRequest, OPTIONS: corsPreflight },
  "/oauth/revoke": { POST: handleRevokeRequest, OPTIONS: corsPreflight },
  [AUTHORIZATION_SERVER_METADATA_PATH]: { GET: handleMetadataRequest, HEAD: handleMetadataRequest, OPTIONS: corsPreflight },
  "/oauth/register": { POST: handleRegisterRequest, OPTIONS: corsPreflight },
  "/api/test-clock": { GET: getTestClock, POST: moveTestClock },
  // The platform's fee income, for the administrator (PLATFORM_ADMIN_TOKEN).
  "/api/admin/platform-fees": { GET: getPlatformFees },
  // Stripe's events (PAYMENT_PROVIDER=stripe), verified by their signature before anything is read.
  "/webhooks/stripe": { POST: handleStripeWebhook },
};

// Well-known documents under a path (RFC 8414 §3.1, RFC 9728 §3.1: the resource's or issuer's path inserted after
// the well-known name): the protected resource metadata of each product's MCP server, and the authorization server
// metadata again for clients that take an MCP server's URL for the issuer.
const WEB_PREFIX_HANDLERS: [string, Partial<Record<string, WebHandler>>][] = [
  [`${PROTECTED_RESOURCE_PREFIX}/`, { GET: handleProtectedResourceRequest, HEAD: handleProtectedResourceRequest, OPTIONS: corsPreflight }],
  [`${AUTHORIZATION_SERVER_METADATA_PATH}/`, { GET: handleMetadataRequest, HEAD: handleMetadataRequest, OPTIONS: corsPreflight }],
];

function webHandlersFor(path: string): Partial<Record<string, WebHandler>> | undefined {
  const exact = WEB_HANDLERS[path];
  if (exact) return exact;
  if (!path.startsWith("/.well-known/")) return undefined;
  return WEB_PREFIX_HANDLERS.find(([prefix]) => path.startsWith(prefix))?.[1];
}

function origin(req: IncomingMessage): { protocol: string; fallback: string } {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https:" : "http:";
  const port = req.socket.localPort;
  return { protocol, fallback: `${protocol}//localhost${port ? `:${port}` : ""}` };
}

async function serveApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { protocol, fallback } = origin(req);
  const headers = new NodeHeaders(req.headers);
  let url: URL;
  try {
    url = new URL(req.url ?? "/", "http://api.invalid");
  } catch {
    url = new URL("http://api.invalid/");
  }
  const request: ApiRequest = {
    method: req.method ?? "GET",
    url,
    headers,
    baseUrl: baseUrlFor(protocol, headers.get("host"), fallback),
    readText: () => readNodeText(req),
  };
  const answer = await dispatchApi(request);
  apiRoutes.set(res, request.routePattern ?? "unmatched");
  write(res, req.method, answer);
}

/** Converts to a Web `Request` for the handlers written against it (the OAuth endpoints). */
async function serveWeb(handler: WebHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { protocol } = origin(req);
  const host = plainHost(req.headers.host) ?? "localhost";
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const webReq = new Request(`${protocol}//${host}${req.url}`, {
    method: req.method,
    headers: new Headers(
      Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, x] as [string, string]) : [[k, v] as [string, string]],
      ),
    ),
    body: hasBody ? await readNodeText(req) : undefined,
  });
  const response = await handler(webReq);
  const headers: Record<string, string> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const text = req.method === "HEAD" ? null : await response.text();
  write(res, req.method, { status: response.status, headers, body: text });
}

function fail(res: ServerResponse, err: unknown): void {
  console.error("[front-door] request failed", err);
  if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
  res.end(
    res.writableEnded
      ? undefined
      : JSON.stringify({ error: { type: "server_error", code: "INTERNAL_ERROR", message: "Something went wrong on our side." } }),
  );
}

// The API route each answer matched, for GET /metrics (known only once dispatchApi has matched it).
const apiRoutes = new WeakMap<ServerResponse, string>();

/** GET /metrics counts the request when its answer has ended (or its client went away). */
function observe(req: IncomingMessage, res: ServerResponse, kind: string, route: () => string): void {
  const started = performance.now();
  res.once("close", () =>
    observeRequest(kind, route(), req.method ?? "GET", res.headersSent ? res.statusCode : 499, (performance.now() - started) / 1000),
  );
}

const gatewayRoute = () => "/gw/{slug}";
const mcpRoute = () => "/mcp/{slug}";

/** True when this request is the API's (and is being answered); false hands it to Next. */
export function handleNodeRequest(req: IncomingMessage, res: ServerResponse): boolean {
  const target = req.url ?? "/";
  if (GATEWAY_PATH.test(target)) {
    observe(req, res, "gateway", gatewayRoute);
    serveGateway(req, res).catch((e) => fail(res, e));
    return true;
  }
  if (MCP_PATH.test(target)) {
    observe(req, res, "mcp", mcpRoute);
    serveMcp(req, res).catch((e) => fail(res, e));
    return true;
  }
  if (API_PATH.test(target)) {
    observe(req, res, "api", () => apiRoutes.get(res) ?? "unmatched");
    serveApi(req, res).catch((e) => fail(res, e));
    return true;
  }
  const q = target.indexOf("?");
  const path = q === -1 ? target : target.slice(0, q);
  const handlers = webHandlersFor(path);
  if (!handlers) return false;
  const handler = handlers[req.method ?? "GET"];
  if (!handler) return false; // Next answers other methods (405) as before
  // The OAuth endpoints and the metadata documents: fixed paths, but the protected-resource ones end in a slug.
  const route = path.startsWith(PROTECTED_RESOURCE_PREFIX) ? `${PROTECTED_RESOURCE_PREFIX}/{resource}` : path;
  observe(req, res, "oauth", () => route);
  serveWeb(handler, req, res).catch((e) => fail(res, e));
  return true;
}
