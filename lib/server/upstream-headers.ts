import type { OutgoingHttpHeaders } from "node:http";
import { signatureHeader, signedContent } from "@/lib/gateway/gateway-secret";
import type { UpstreamTarget } from "@/lib/gateway/proxy";
import type { RequestContext } from "./request-context";

// What every call the gateway sends upstream carries (a /gw pass-through and an MCP tool call alike): the product's
// secret headers, X-Forwarded-*, and who is calling, signed with the product's gateway secret.

export interface CallerAddress {
  /** The client's address as this process saw it. */
  address: string | null | undefined;
  /** The X-Forwarded-For the client sent, if any. */
  forwardedFor: string | undefined;
}

/** `headers` (the client's forwardable ones, names in lower case) with the gateway's added; the same object. */
export function signedUpstreamHeaders(
  ctx: RequestContext,
  target: UpstreamTarget,
  headers: OutgoingHttpHeaders,
  caller: CallerAddress,
): OutgoingHttpHeaders {
  const product = ctx.gatewayProduct!;
  const sub = ctx.subscription!;
  const auth = ctx.auth!;
  const timestamp = Math.floor(ctx.at.getTime() / 1000);
  // Names in lower case, as the client's are: a provider's secret header replaces a client's of the same name
  // (headerList sends every name it is given).
  for (const name in product.secretHeaders) headers[name.toLowerCase()] = product.secretHeaders[name];
  const { forwardedFor } = caller;
  const clientAddress = ctx.ip ?? caller.address;
  Object.assign(headers, {
    host: target.host,
    "x-forwarded-for": forwardedFor && clientAddress ? `${forwardedFor}, ${clientAddress}` : (forwardedFor ?? clientAddress ?? ""),
    "x-forwarded-proto": ctx.request.baseUrl.startsWith("https:") ? "https" : "http",
    "x-forwarded-host": ctx.request.headers.get("host") ?? "",
    "x-platform-consumer": auth.businessId,
    "x-platform-subscription": sub.subscriptionId,
    "x-platform-plan": sub.priceId,
    "x-platform-environment": auth.environment,
    "x-platform-key-id": auth.principal.id,
    "x-platform-request-id": ctx.requestId,
    "x-platform-timestamp": String(timestamp),
  });
  if (product.signingSecrets.length)
    headers["x-platform-signature"] = signatureHeader(
      product.signingSecrets,
      signedContent({
        requestId: ctx.requestId,
        timestamp,
        method: ctx.request.method,
        pathWithQuery: target.path,
        consumer: auth.businessId,
        subscription: sub.subscriptionId,
        environment: auth.environment,
      }),
    );
  return headers;
}
