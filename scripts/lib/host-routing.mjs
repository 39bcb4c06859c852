// Host routing, for deployments that give each product its own host names:
//  - GATEWAY_HOST_SUFFIX=gw.example.com: a call to {slug}.gw.example.com/{path} is the gateway's /gw/{slug}/{path};
//  - APP_HOST_SUFFIX=apps.example.com: {slug}.apps.example.com/{path} is the product portal /p/{slug}/{path} (or
//    any stored app: /apps/{slug} is reachable there as it is, and so are Next's assets and the sign-in pages).
// The data plane (scripts/lib/front-request.mjs) rewrites the request's path before anything else reads it; the Host is kept (see request-origin.mjs),
// so sign-in and links stay on the host the visitor used.
import { parseHost } from "./request-origin.mjs";

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
// `/mcp` itself (with a query, or a trailing slash), not `/mcp-tools` or `/mcp/x`: those stay the upstream's paths.
const MCP_ON_HOST = /^\/mcp\/?(?:\?|$)/;
// Paths an app host serves as they are: the app's own pages and what they load.
const AS_IS = /^\/(?:_next\/|api\/|p\/|apps\/|signin|signup|favicon|icon|v1\/|oauth\/|\.well-known\/)/;

/** A suffix as configured (`gw.example.com`, `.gw.example.com`), lower case without dots around it, or null. */
export function hostSuffix(value) {
  const s =
    typeof value === "string"
      ? value
          .trim()
          .toLowerCase()
          .replace(/^\.+|\.+$/g, "")
      : "";
  return s ? s : null;
}

/** The slug when `hostname` is `{slug}.{suffix}`, else null. */
export function slugOfHost(hostname, suffix) {
  if (!suffix || !hostname.endsWith(`.${suffix}`)) return null;
  const slug = hostname.slice(0, -suffix.length - 1);
  return SLUG.test(slug) ? slug : null;
}

/**
 * The path to serve for a request, or null to leave it as it is.
 * @param {{hostHeader: string | undefined, url: string, gatewaySuffix: string | null, appSuffix: string | null}} o
 */
export function routeByHost({ hostHeader, url, gatewaySuffix, appSuffix }) {
  if (!gatewaySuffix && !appSuffix) return null;
  const host = parseHost(hostHeader);
  if (!host) return null;
  const path = url.startsWith("/") ? url : `/${url}`;
  const gatewaySlug = slugOfHost(host.hostname, gatewaySuffix);
  if (gatewaySlug) {
    // The product's MCP server (and its OAuth discovery document) answer at /mcp on its gateway host.
    if (MCP_ON_HOST.test(path)) return `/mcp/${gatewaySlug}${path.slice(4)}`;
    if (path.startsWith("/.well-known/oauth-protected-resource/mcp") && MCP_ON_HOST.test(path.slice(37)))
      return `/.well-known/oauth-protected-resource/mcp/${gatewaySlug}${path.slice(41)}`;
    return `/gw/${gatewaySlug}${path}`;
  }
  const appSlug = slugOfHost(host.hostname, appSuffix);
  if (appSlug && !AS_IS.test(path)) return path === "/" || path.startsWith("/?") ? `/p/${appSlug}${path.slice(1)}` : `/p/${appSlug}${path}`;
  return null;
}

/** Whether a Host names one of the routed hosts (its origin is then followed like the server's own names). */
export function isRoutedHost(hostname, suffixes) {
  return suffixes.some((s) => s && slugOfHost(hostname, s) !== null);
}
