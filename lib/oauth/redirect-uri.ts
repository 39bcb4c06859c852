// Redirect URIs a self-registered client (RFC 7591) may use: https, or http on a loopback address for native and
// command-line clients (RFC 8252 §7.3: 127.0.0.1, [::1], localhost, any port). Nothing else: no http to any other
// host (a link-local or private address included), no private-use schemes (anyone can register, so a scheme another
// app on the device claims would receive the code), no fragments, no credentials in the URI.

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];

/** Why `value` cannot be a dynamically registered redirect URI, or null when it can. */
export function checkDynamicRedirectUri(value: string): string | null {
  if (value.length > 2000) return "is longer than 2000 characters";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "must be an absolute URL";
  }
  if (url.hash || value.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain credentials";
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:")
    return LOOPBACK.includes(url.hostname) ? null : "must use https (http is allowed on 127.0.0.1, [::1] and localhost only)";
  return "must use https, or http on 127.0.0.1, [::1] or localhost";
}
