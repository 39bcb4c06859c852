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

// The names the gateway writes itself: a client's or a provider's secret header of the same name is left out.
const GATEWAY_NAMES = new Set(["host", "x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"]);

/** A product's secret headers with their names in lower case, those the gateway writes itself left out: made once
 * per product entry (its secret headers object), not on every call. */
const secretLists = new WeakMap<Record<string, string>, { names: Set<string>; list: string[] }>();
function secretHeaderList(secretHeaders: Record<string, string>) {
  let found = secretLists.get(secretHeaders);
  if (!found) {
    found = { names: new Set(), list: [] };
    for (const name in secretHeaders) {
      const lower = name.toLowerCase();
      if (GATEWAY_NAMES.has(lower) || found.names.has(lower)) continue;
      found.names.add(lower);
      found.list.push(lower, secretHeaders[name]);
    }
    secretLists.set(secretHeaders, found);
  }
  return found;
}

/**
 * `headers` (the client's forwardable ones, names in lower case) with the gateway's added, as the list node:http
 * writes as it is (name, value, name, value…; no object made and turned into one on every call). A provider's
 * secret header replaces a client's of the same name; the gateway's own replace both.
 */
export function signedUpstreamHeaders(
  ctx: RequestContext,
  target: UpstreamTarget,
  headers: OutgoingHttpHeaders,
  caller: CallerAddress,
): string[] {
  const product = ctx.gatewayProduct!;
  const sub = ctx.subscription!;
  const auth = ctx.auth!;
  const timestamp = Math.floor(ctx.at.getTime() / 1000);
  const secret = secretHeaderList(product.secretHeaders);
  const list: string[] = [];
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || GATEWAY_NAMES.has(name) || secret.names.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) list.push(name, v);
    else list.push(name, String(value));
  }
  for (const v of secret.list) list.push(v);
  const { forwardedFor } = caller;
  const clientAddress = ctx.ip ?? caller.address;
  list.push(
    "host",
    target.host,
    "x-forwarded-for",
    forwardedFor && clientAddress ? `${forwardedFor}, ${clientAddress}` : (forwardedFor ?? clientAddress ?? ""),
    "x-forwarded-proto",
    ctx.request.baseUrl.startsWith("https:") ? "https" : "http",
    "x-forwarded-host",
    ctx.request.headers.get("host") ?? "",
    "x-platform-consumer",
    auth.businessId,
    "x-platform-subscription",
    sub.subscriptionId,
    "x-platform-plan",
    sub.priceId,
    "x-platform-environment",
    auth.environment,
    "x-platform-key-id",
    auth.principal.id,
    "x-platform-request-id",
    ctx.requestId,
    "x-platform-timestamp",
    String(timestamp),
  );
  if (product.signingSecrets.length)
    list.push(
      "x-platform-signature",
      signatureHeader(
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
      ),
    );
  return list;
}
