import type { HeaderReader } from "./header-reader";

// A Host header is the client's to write: only a plain host[:port] is used to build links, anything else
// falls back to the address the server itself knows.
const PLAIN_HOST = /^[A-Za-z0-9.:[\]-]{1,255}$/;

/** The Host header when it is a plain host[:port], else null. */
export const plainHost = (host: string | null | undefined): string | null => (host && PLAIN_HOST.test(host) ? host : null);

// Read once: a process.env read is a call into the C++ environment (~0.4 µs), and this runs for every request.
const PUBLIC_BASE_URL = process.env.PUBLIC_BASE_URL ? process.env.PUBLIC_BASE_URL.replace(/\/+$/, "") : null;

/** PUBLIC_BASE_URL when set (behind a proxy); otherwise the address the client used. */
export function baseUrlFor(protocol: string, host: string | null, fallbackOrigin: string): string {
  if (PUBLIC_BASE_URL) return PUBLIC_BASE_URL;
  const plain = plainHost(host);
  return plain ? `${protocol}//${plain}` : fallbackOrigin;
}

/** The same for a Web `Request` (Next's route handlers). */
export function publicBaseUrl(req: { url: string; headers: HeaderReader }): string {
  const url = new URL(req.url);
  return baseUrlFor(url.protocol, req.headers.get("host"), url.origin);
}
