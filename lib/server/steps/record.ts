import { recordRequest } from "@/lib/usage/recorder";
import type { RequestContext } from "../request-context";

/** Bytes in, as recorded: the declared request length (or the body read). */
export function requestBytes(ctx: RequestContext): number {
  return Number(ctx.request.headers.get("content-length") ?? Buffer.byteLength(ctx.rawBody));
}

/** Outbound: usage, metrics and the request log, queued and written in batches off the request's path. */
export function recordCall(ctx: RequestContext): void {
  const { auth, response, request } = ctx;
  if (!auth || !response) return;
  recordRequest({
    requestId: ctx.requestId,
    at: ctx.at,
    auth,
    method: request.method,
    endpoint: ctx.route.path,
    path: request.url.pathname + request.url.search,
    statusCode: response.status,
    errorType: ctx.error?.type ?? null,
    latencyMs: performance.now() - ctx.started,
    computeMs: ctx.computeMs,
    requestBytes: requestBytes(ctx),
    responseBytes: response.body ? Buffer.byteLength(response.body) : 0,
    ip: ctx.ip,
    userAgent: request.headers.get("user-agent"),
    requestHeaders: request.headers,
    requestBody: ctx.rawBody || null,
    responseHeaders: response.headers,
    responseBody: response.body,
    cost: ctx.cost,
  });
}
