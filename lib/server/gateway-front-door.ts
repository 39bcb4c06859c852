import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { now } from "@/lib/clock";
import { NodeHeaders } from "@/lib/http/header-reader";
import { baseUrlFor } from "@/lib/http/public-base-url";
import { resolvePathAndQuery } from "@/lib/http/request-target";
import { defineRoute } from "@/lib/http/route";
import { rateProductCall } from "@/lib/billing/rate-request";
import { nanosToNumber } from "@/lib/billing/money";
import { forwardableHeaders, proxyRequest, tunnel, upstreamTarget, type ProxyResult, type UpstreamTarget } from "@/lib/gateway/proxy";
import { admitCall, recordOutcome } from "@/lib/gateway/circuit-breaker";
import { eventEnd, meterFor } from "@/lib/gateway/answer-meter";
import { circuitOpen, faultStatus, upstreamFailed } from "@/lib/gateway/upstream-errors";
import { journalRequest, journalRequestNow, recordRequest, type RequestRecord } from "@/lib/usage/recorder";
import { measuredCost, paidByCredits } from "@/lib/billing/spend-guard";
import { createRequestContext, type RequestContext } from "./request-context";
import { runPipeline, type Pipeline } from "./pipeline";
import { observeUpstream } from "./metrics";
import { identifyRequest } from "./steps/identify";
import { checkRestrictions } from "./steps/restrictions";
import { mapError } from "./steps/map-error";
import {
  authenticateGatewayCall,
  checkEntitlement,
  checkPlanLimits,
  holdCallSpend,
  measuredWithinBudget,
  releaseCallSpend,
  resolveGatewayProduct,
  settleCallSpend,
} from "./steps/gateway";
import { writeAnswer } from "./write-answer";
import { signedUpstreamHeaders } from "./upstream-headers";

// The data plane: {base}/gw/{product-slug}/{path…} on the same node:http fast path as /v1. A subscriber's call is
// checked with the pipeline's own steps (request id, credential, key restrictions, entitlement, the plan's rate
// limit and quota), then streamed to the provider's upstream (test keys to the sandbox, live keys to the live
// one) with the consumer's identity signed, rated by the subscription's price on the way back (X-Request-Cost),
// and recorded for both sides. Refusals are the platform's error envelope, as on /v1.

export const GATEWAY_PATH = /^\/gw\/[^/?#]+(?:[/?#]|$)/;
const PARTS = /^\/gw\/([^/?#]+)(\/[^?#]*)?(\?[^#]*)?/;

/** The gateway as a route of its own: any method, the path after the slug passed through. */
const GATEWAY_ROUTE = defineRoute({
  method: "GET",
  path: "/gw/{slug}/{path}",
  summary: "Call a product through the gateway",
  tag: "Gateway",
  response: { kind: "raw", description: "The upstream's answer, streamed" },
  handler: async () => null,
});

interface GatewayCall {
  req: IncomingMessage;
  /** Absent for a WebSocket upgrade, which answers on the socket. */
  res?: ServerResponse;
  /** The request's path and query as recorded: `/gw/{slug}/…`, resolved as a URL would be. */
  path: string;
  /** What follows the slug: the path and query asked of the upstream, under its prefix. */
  pathWithQuery: string;
  proxied: ProxyResult | null;
  /** Units measured from the call's request or answer (a price's measured metrics). */
  quantities?: Record<string, number> | null;
  socket?: Duplex;
  head?: Buffer;
}

// The call rides on its context as a property, not in a WeakMap keyed by the context: V8's young-generation
// collector treats a WeakMap's values as strongly held (only its keys are weak there), so every call's request,
// response and headers in such a map were copied by a scavenge or two and promoted, left for a full collection
// (--trace-gc-nvp at 200 req/s: ~430 KB promoted a scavenge with the map, ~105 KB without; pauses half as long).
interface GatewayContext extends RequestContext {
  gatewayCall: GatewayCall;
}
const callOf = (ctx: RequestContext) => (ctx as GatewayContext).gatewayCall;

/** What the upstream receives: the client's headers minus hop-by-hop ones and its credentials, and the gateway's. */
function upstreamHeaders(ctx: RequestContext, call: GatewayCall, target: UpstreamTarget) {
  const forwardedFor = call.req.headers["x-forwarded-for"];
  return signedUpstreamHeaders(ctx, target, forwardableHeaders(call.req.headers), {
    address: call.req.socket.remoteAddress,
    forwardedFor: typeof forwardedFor === "string" ? forwardedFor : undefined,
  });
}

const targetOf = (ctx: RequestContext, call: GatewayCall) =>
  upstreamTarget(ctx.auth!.environment === "production" ? ctx.gatewayProduct!.live : ctx.gatewayProduct!.sandbox, call.pathWithQuery);

/** Whether the price bills bytes (data transfer, tokens counted from bytes). */
const billsBytes = (sub: RequestContext["subscription"]) => sub!.plan.usage.some((c) => c.measure === "bytes" || c.measure === "tokens");

/** Gateway step: the call, streamed to the upstream and back, signed and rated. */
async function proxyCall(ctx: RequestContext): Promise<void> {
  const call = callOf(ctx);
  const product = ctx.gatewayProduct!;
  const sub = ctx.subscription!;
  const target = targetOf(ctx, call);
  const headers = upstreamHeaders(ctx, call, target);
  const gatewayStarted = ctx.started;
  if (!admitCall(product.id)) throw circuitOpen();
  const meter = meterFor(sub.plan);
  // A streamed answer metered as it passes is stopped before it costs more than the call may spend (its credits or
  // cap, lib/billing/spend-guard.ts): what was delivered is billed, and the client gets an SSE error event.
  const hold = ctx.spendHold;
  let cutAt: Record<string, number> | null = null;
  const watchBudget =
    meter && hold?.budget !== null && hold?.budget !== undefined
      ? (chunk: Buffer) => {
          // An event at a time: a chunk may carry several (a whole answer is one chunk), and the stop falls between two.
          for (let from = 0, to = 0; from < chunk.length; from = to) {
            to = eventEnd(chunk, from);
            const before = meter.current();
            meter.response(chunk.subarray(from, to));
            const after = meter.current();
            if (!after || measuredCost(sub, after) <= hold.budget!) continue;
            cutAt = before ?? {};
            return { stop: budgetStopEvent(hold.budgetCode!), passedBytes: from };
          }
        }
      : null;
  // A cost that depends on the answer's body (a measured metric, or bytes of an answer of unknown length) is known
  // only once the body has passed: it is rated then and sent as the trailer X-Request-Cost, never as a wrong header.
  let finishDeferred: ((r: ProxyResult) => Promise<Record<string, string>>) | null = null;
  const result = await proxyRequest(call.req, call.res!, {
    target,
    method: ctx.request.method,
    headers,
    timeoutMs: product.timeoutMs,
    onRequestChunk: meter ? (c) => meter.request(c) : undefined,
    onResponseChunk: watchBudget ?? (meter ? (c) => meter.response(c) : undefined),
    onResponse: async (status, upstreamMs, upHeaders) => {
      const gatewayMs = performance.now() - gatewayStarted - upstreamMs;
      observeUpstream(product.slug, upstreamMs / 1000);
      // The upstream decides its answer's type and caching; the envelope's defaults are for refusals.
      const headers: Record<string, string> = {};
      for (const name in ctx.headers) if (name !== "Content-Type" && name !== "Cache-Control") headers[name] = ctx.headers[name];
      headers["Server-Timing"] = `gateway;dur=${gatewayMs.toFixed(2)}, upstream;dur=${upstreamMs.toFixed(2)}`;
      meter?.headers(upHeaders);
      const declaredLength = upHeaders["content-length"];
      const unknownLength = declaredLength === undefined || call.req.headers["transfer-encoding"] !== undefined;
      if (meter || (billsBytes(sub) && unknownLength && status < 400)) {
        let finished: Promise<Record<string, string>> | null = null;
        finishDeferred = (r) => (finished ??= rateAtEnd(ctx, status, r, cutAt ?? measuredWithinBudget(ctx, meter?.finish() ?? null)));
        return { headers, trailerNames: ["X-Request-Cost"], trailers: (r) => finishDeferred!(r) };
      }
      const requestBytes = Number(call.req.headers["content-length"] ?? 0);
      const responseBytes = Number(declaredLength ?? 0);
      const pendingRate = rateProductCall(sub, { at: ctx.at, statusCode: status, bytes: requestBytes + responseBytes, computeMs: 0 });
      const rated = pendingRate instanceof Promise ? await pendingRate : pendingRate;
      if (rated) ctx.cost = nanosToNumber(rated.nanos);
      settleCallSpend(ctx, rated?.nanos ?? null);
      // Written down before the answer's first byte goes out: a crash from here on cannot lose the call's event.
      const journaled = journalRequest(gatewayRecord(ctx, status, requestBytes, responseBytes));
      if (journaled) await journaled;
      if (rated) headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`;
      return headers;
    },
  });
  call.proxied = result;
  // An answer cut off before its end (the client went away) is still rated for what passed.
  if (finishDeferred && result.status !== null) await (finishDeferred as (r: ProxyResult) => Promise<Record<string, string>>)(result);
  // A call whose client went away before the upstream answered (no status, no fault) says nothing about the upstream.
  if (result.fault) recordOutcome(product.id, false);
  else if (result.status !== null) recordOutcome(product.id, result.status < 500);
  if (result.fault) {
    // A failed upstream call is billed only when the price says so (billFailedCalls).
    const rated = await rateProductCall(sub, { at: ctx.at, statusCode: faultStatus(result.fault), bytes: 0, computeMs: 0 });
    settleCallSpend(ctx, rated?.nanos ?? null);
    if (rated) {
      ctx.cost = nanosToNumber(rated.nanos);
      ctx.headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`;
    }
    throw upstreamFailed(result.fault, result.faultMessage);
  }
  // Streamed already: the answer as recorded (no body kept: it went straight to the client).
  ctx.response = { status: result.status ?? 499, headers: result.responseHeaders, body: null };
}

/** The last event of a stream stopped because the call's budget is spent (a blank line first ends any event cut). */
function budgetStopEvent(code: "INSUFFICIENT_CREDITS" | "SPEND_CAP_REACHED"): string {
  const error =
    code === "INSUFFICIENT_CREDITS"
      ? {
          code: "insufficient_credits",
          message: "The subscription's prepaid credits are spent: the answer was stopped here and billed up to this point.",
        }
      : {
          code: "spend_cap_reached",
          message: "The subscription's spend cap is reached: the answer was stopped here and billed up to this point.",
        };
  return `\n\nevent: error\ndata: ${JSON.stringify({ type: "error", error })}\n\n`;
}

/** A call whose cost needed its whole answer: rated by the bytes that passed and the quantities measured, journaled
 * before the last chunk goes out; answers the trailer. */
async function rateAtEnd(ctx: RequestContext, status: number, r: ProxyResult, quantities: Record<string, number> | null) {
  const call = callOf(ctx);
  call.quantities = quantities;
  const pendingRate = rateProductCall(ctx.subscription!, {
    at: ctx.at,
    statusCode: status,
    bytes: r.requestBytes + r.responseBytes,
    computeMs: 0,
    quantities,
  });
  const rated = pendingRate instanceof Promise ? await pendingRate : pendingRate;
  if (rated) ctx.cost = nanosToNumber(rated.nanos);
  settleCallSpend(ctx, rated?.nanos ?? null);
  // The answer's end (its trailer) waits for it. A stream's calls end in turns of their own: written now. An answer
  // that arrived whole ends in the turn its head came, as the other calls answered then: one write for them all.
  const record = gatewayRecord(ctx, status, r.requestBytes, r.responseBytes);
  if (r.arrivedWhole) await journalRequest(record);
  else journalRequestNow(record);
  return rated ? { "X-Request-Cost": `${rated.decimal} ${rated.currency}` } : ({} as Record<string, string>);
}

/** The call's record: endpoint `/gw/{slug}`, with product, subscription and provider for both sides. One object
 * literal (no spreads): it is made twice for every call. */
function gatewayRecord(ctx: RequestContext, statusCode: number, requestBytes: number, responseBytes: number): RequestRecord {
  const product = ctx.gatewayProduct;
  const { request, response } = ctx;
  const call = callOf(ctx);
  const proxied = call?.proxied;
  return {
    requestId: ctx.requestId,
    at: ctx.at,
    auth: ctx.auth!,
    method: request.method,
    endpoint: product ? `/gw/${product.slug}` : "/gw",
    path: call ? call.path : request.url.pathname + request.url.search,
    statusCode,
    errorType: ctx.error?.code ?? null,
    latencyMs: performance.now() - ctx.started,
    computeMs: 0,
    requestBytes,
    responseBytes,
    ip: ctx.ip,
    userAgent: request.headers.get("user-agent"),
    requestHeaders: request.headers,
    requestBody: null,
    responseHeaders: response?.headers ?? {},
    // Bodies are not kept: they were streamed. A refusal's envelope is.
    responseBody: proxied ? null : (response?.body ?? null),
    cost: ctx.cost,
    product: product
      ? {
          productId: product.id,
          subscriptionId: ctx.subscription?.subscriptionId ?? null,
          providerId: product.providerId,
          paidByCredits: paidByCredits(ctx.spendHold),
          quantities: call?.quantities ?? null,
        }
      : null,
  };
}

/** Outbound: a usage event and a request log for the consumer, durable (journaled before the answer goes out,
 * lib/usage/usage-journal.ts) since it is what the invoice bills. */
function recordGatewayCall(ctx: RequestContext): void {
  const { auth, response, request } = ctx;
  if (!auth || !response) return;
  const proxied = callOf(ctx).proxied;
  recordRequest(
    gatewayRecord(
      ctx,
      response.status,
      proxied?.requestBytes ?? Number(request.headers.get("content-length") ?? 0),
      proxied?.responseBytes ?? (response.body ? Buffer.byteLength(response.body) : 0),
    ),
    { durable: true },
  );
}

const CHECKS = [
  identifyRequest,
  authenticateGatewayCall,
  checkRestrictions,
  resolveGatewayProduct,
  checkEntitlement,
  checkPlanLimits,
  holdCallSpend,
];

const GATEWAY_PIPELINE: Pipeline = { inbound: [...CHECKS, proxyCall], onError: mapError, outbound: [releaseCallSpend, recordGatewayCall] };

/** Gateway step for a WebSocket (or any Upgrade) request: after the same checks, a tunnel to the upstream. The
 * call is rated and recorded once, when the upstream switches protocols. */
async function tunnelUpgrade(ctx: RequestContext): Promise<void> {
  const call = callOf(ctx);
  const target = targetOf(ctx, call);
  const headers = upstreamHeaders(ctx, call, target);
  headers.push("connection", "Upgrade", "upgrade", String(call.req.headers.upgrade ?? "websocket"));
  const result = await tunnel(call.req, call.socket!, call.head!, {
    target,
    method: ctx.request.method,
    headers,
    timeoutMs: ctx.gatewayProduct!.timeoutMs,
  });
  recordOutcome(ctx.gatewayProduct!.id, result.status === 101);
  if (result.fault) throw upstreamFailed(result.fault, result.faultMessage);
  if (result.status === 101) {
    const rated = await rateProductCall(ctx.subscription!, { at: ctx.at, statusCode: 101, bytes: 0, computeMs: 0 });
    if (rated) ctx.cost = nanosToNumber(rated.nanos);
    settleCallSpend(ctx, rated?.nanos ?? null);
  }
  call.proxied = result;
  ctx.response = { status: result.status ?? 502, headers: result.responseHeaders, body: null };
}

const UPGRADE_PIPELINE: Pipeline = {
  inbound: [...CHECKS, tunnelUpgrade],
  onError: mapError,
  outbound: [releaseCallSpend, recordGatewayCall],
};

/** The data plane's `upgrade` event: true when this is a gateway call (being answered); false to refuse it. */
export function handleGatewayUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  if (!GATEWAY_PATH.test(req.url ?? "")) return false;
  const { ctx, call } = contextFor(req, undefined);
  call.socket = socket;
  call.head = head;
  runPipeline(ctx, UPGRADE_PIPELINE)
    .then((answer) => {
      if (call.proxied && !call.proxied.fault) return;
      // Refused: the envelope as a plain HTTP answer on the socket, then close it.
      const body = answer.body ?? "";
      const lines = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ""}`];
      for (const [k, v] of Object.entries(answer.headers)) lines.push(`${k}: ${v}`);
      lines.push(`Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", "", body);
      socket.end(lines.join("\r\n"));
    })
    .catch(() => socket.destroy());
  return true;
}

function contextFor(req: IncomingMessage, res: ServerResponse | undefined) {
  const raw = req.url ?? "/";
  const m = PARTS.exec(raw)!;
  let slug: string;
  try {
    slug = decodeURIComponent(m[1]);
  } catch {
    slug = "";
  }
  const headers = new NodeHeaders(req.headers);
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? "https:" : "http:";
  let url: URL | undefined;
  const ctx = createRequestContext(
    {
      method: req.method ?? "GET",
      // Parsed only if a step asks (an error's path): the call's record takes its path from `call.path`.
      get url() {
        return (url ??= new URL(raw, "http://gateway.invalid"));
      },
      headers,
      baseUrl: baseUrlFor(protocol, headers.get("host"), `${protocol}//localhost`),
      // The body is streamed to the upstream, never read here.
      readText: async () => "",
    },
    GATEWAY_ROUTE,
    { slug, path: m[2] ?? "/" },
    now(),
  );
  const call: GatewayCall = { req, res, path: resolvePathAndQuery(raw), pathWithQuery: (m[2] ?? "/") + (m[3] ?? ""), proxied: null };
  (ctx as GatewayContext).gatewayCall = call;
  return { ctx, call };
}

export async function serveGateway(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { ctx, call } = contextFor(req, res);
  const answer = await runPipeline(ctx, GATEWAY_PIPELINE);
  if (call.proxied && !call.proxied.fault) return;
  // Refused (or the upstream failed before answering): the envelope, unless the client has gone.
  if (!res.headersSent && !res.destroyed) {
    // A refused request's body is not read: drain it, so that a keep-alive connection stays usable.
    req.resume();
    writeAnswer(res, req.method, answer);
  }
}
