// The origin (scheme://host:port) a request is answered for: what sign-in callbacks, redirects and links use.
//
// With PUBLIC_BASE_URL set, always that. Without it, the address the browser used, so someone who opened
// http://127.0.0.1:3000 comes back to 127.0.0.1 after signing in (where their cookie is) rather than to localhost.
// The Host header is followed only when it names this server: one of the machine's own names or addresses, on
// the port the server listens on. Anything else (a forged Host, a stranger's domain) gets the server's own
// address. The data plane (scripts/lib/front-request.mjs) writes the result over Host, X-Forwarded-Host and X-Forwarded-Proto before Next sees the
// request, so nothing inside the app (next-auth, the portal's redirects, error links) can read a forged value.
import os from "node:os";

/** This machine's names and addresses (lower case, IPv6 without brackets or zone). */
export function ownHostnames() {
  const names = new Set(["localhost", "127.0.0.1", "::1", os.hostname().toLowerCase()]);
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) names.add(a.address.toLowerCase().replace(/%.*$/, ""));
  }
  return names;
}

/** {hostname, port} of a Host header value, or null when it is not a plain host[:port]. */
export function parseHost(value) {
  if (typeof value !== "string" || value.length > 255) return null;
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return null;
  return { hostname: (m[1] ?? m[2]).toLowerCase(), port: m[3] === undefined ? null : Number(m[3]) };
}

const hostPart = (hostname) => (hostname.includes(":") ? `[${hostname}]` : hostname);

/** The origin this server calls itself when the request's Host cannot be followed. */
export function canonicalOrigin({ listenHost, port }) {
  const host = !listenHost || listenHost === "0.0.0.0" || listenHost === "::" ? "localhost" : listenHost;
  return `http://${hostPart(host)}:${port}`;
}

/**
 * The origin to answer a request for.
 * `routed(hostname)`: also follow a host that host routing serves (`{slug}.{APP_HOST_SUFFIX}`, host-routing.mjs).
 * @param {{hostHeader: string | undefined, port: number, listenHost?: string, publicBaseUrl?: string, names?: Set<string>, routed?: (hostname: string) => boolean}} o
 */
export function requestOrigin({ hostHeader, port, listenHost, publicBaseUrl, names = ownHostnames(), routed = () => false }) {
  const host = parseHost(hostHeader);
  // A product's own host keeps its name even with PUBLIC_BASE_URL: its portal's sign-in and links stay on it.
  if (host && routed(host.hostname)) {
    const scheme = publicBaseUrl ? new URL(publicBaseUrl).protocol : "http:";
    return `${scheme}//${hostPart(host.hostname)}${host.port ? `:${host.port}` : ""}`;
  }
  if (publicBaseUrl) return new URL(publicBaseUrl).origin;
  // This server speaks plain http; a Host without a port means port 80.
  if (host && names.has(host.hostname) && (host.port ?? 80) === port) return `http://${hostPart(host.hostname)}:${port}`;
  return canonicalOrigin({ listenHost, port });
}

/** Writes the origin over the headers the app reads it from (a client's own values are discarded). */
export function applyOrigin(headers, origin) {
  const url = new URL(origin);
  headers.host = url.host;
  headers["x-forwarded-host"] = url.host;
  headers["x-forwarded-proto"] = url.protocol.slice(0, -1);
  headers["x-forwarded-port"] = url.port || (url.protocol === "https:" ? "443" : "80");
}
