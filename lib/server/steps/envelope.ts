import { meta, singleEnvelope, collectionEnvelopeJson } from "@/lib/http/envelope";
import type { CollectionResult } from "@/lib/http/route";
import type { ApiResponse, RequestContext } from "../request-context";

/** Step 11: the handler's result in the spec's envelope (`data` + `meta`, and `pagination` for collections). */
export function writeEnvelope(ctx: RequestContext): void {
  if (ctx.response) return;
  ctx.response = envelopeFor(ctx, ctx.result);
}

/** The answer a route gives for `result`: also made ahead, inside the handler's transaction, for a declared answer. */
export function envelopeFor(ctx: RequestContext, result: unknown): ApiResponse {
  const { route, headers } = ctx;
  const m = meta(ctx.requestId, ctx.version?.warning);
  switch (route.response.kind) {
    case "single":
      return { status: route.response.status, headers, body: JSON.stringify(singleEnvelope(result, m)) };
    case "collection": {
      const r = result as CollectionResult;
      return { status: 200, headers, body: collectionEnvelopeJson(r.data, r.pagination, m) };
    }
    case "raw":
      return { status: 200, headers, body: JSON.stringify(result) };
    case "text":
      return { status: 200, headers: { ...headers, "Content-Type": route.response.contentType }, body: result as string };
    case "empty":
      // No body, so no Content-Type or Cache-Control: the request id, version and rate-limit headers only.
      return {
        status: 204,
        headers: { "X-Request-Id": ctx.requestId, ...(ctx.version?.headers ?? {}), ...(ctx.admission?.headers ?? {}) },
        body: null,
      };
  }
}
