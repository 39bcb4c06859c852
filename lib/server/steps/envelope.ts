import { meta, singleEnvelope, collectionEnvelopeJson } from "@/lib/http/envelope";
import type { CollectionResult } from "@/lib/http/route";
import type { RequestContext } from "../request-context";

/** Step 11: the handler's result in the spec's envelope (`data` + `meta`, and `pagination` for collections). */
export function writeEnvelope(ctx: RequestContext): void {
  if (ctx.response) return;
  const { route, result, headers } = ctx;
  const m = meta(ctx.requestId, ctx.version?.warning);
  switch (route.response.kind) {
    case "single":
      ctx.response = { status: route.response.status, headers, body: JSON.stringify(singleEnvelope(result, m)) };
      return;
    case "collection": {
      const r = result as CollectionResult;
      ctx.response = { status: 200, headers, body: collectionEnvelopeJson(r.data, r.pagination, m) };
      return;
    }
    case "raw":
      ctx.response = { status: 200, headers, body: JSON.stringify(result) };
      return;
    case "text":
      ctx.response = { status: 200, headers: { ...headers, "Content-Type": route.response.contentType }, body: result as string };
      return;
    case "empty":
      // No body, so no Content-Type or Cache-Control: the request id, version and rate-limit headers only.
      ctx.response = {
        status: 204,
        headers: { "X-Request-Id": ctx.requestId, ...(ctx.version?.headers ?? {}), ...(ctx.admission?.headers ?? {}) },
        body: null,
      };
  }
}
