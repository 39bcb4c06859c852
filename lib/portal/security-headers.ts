// The headers every HTML page is sent with (proxy.ts): a Content-Security-Policy whose scripts run only with this
// response's nonce, no framing by other sites, no MIME sniffing, a referrer policy, and HSTS when served over https.
//
// Scripts: 'nonce-…' + 'strict-dynamic' (Google's "strict CSP"). Next.js reads the nonce from the request's CSP
// header and puts it on every script it renders; code those scripts load (route chunks, Scalar's reference loaded
// with next/dynamic) is trusted through 'strict-dynamic'. Injected markup has no nonce, so it does not run.
// Styles: 'unsafe-inline', because React style attributes, Recharts and Scalar set inline styles that a nonce
// cannot cover; styles cannot run code. Connections, images and fonts: this origin only (try-it calls this
// deployment; the reference loads no outside fonts).

export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

export interface CspOptions {
  nonce: string;
  https: boolean;
  /** Development builds need eval for React's error overlays; production never does. */
  dev?: boolean;
  /** Origins a form on the page may post to besides this one, through redirects (the consent page's client). */
  formTargets?: string[];
}

export function contentSecurityPolicy(o: CspOptions): string {
  const directives: [string, ...string[]][] = [
    ["default-src", "'self'"],
    ["script-src", "'self'", `'nonce-${o.nonce}'`, "'strict-dynamic'", ...(o.dev ? ["'unsafe-eval'"] : [])],
    ["style-src", "'self'", "'unsafe-inline'"],
    ["img-src", "'self'", "data:", "blob:"],
    ["font-src", "'self'", "data:"],
    ["connect-src", "'self'"],
    ["worker-src", "'self'", "blob:"],
    ["frame-src", "'none'"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'", ...(o.formTargets ?? [])],
    ["frame-ancestors", "'none'"],
  ];
  if (o.https) directives.push(["upgrade-insecure-requests"]);
  return directives.map((d) => d.join(" ")).join("; ");
}

export function securityHeaders(o: { https: boolean }): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // For browsers older than frame-ancestors.
    "X-Frame-Options": "DENY",
    ...(o.https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}

/**
 * The consent page's form posts to /oauth/authorize, which redirects to the client's redirect URI; browsers apply
 * form-action to that redirect too, so the client's origin is allowed on that page alone. Only an http(s) origin is
 * taken; whether the URI is registered is the authorize endpoint's check (it never redirects to one that is not).
 */
export function consentFormTargets(pathname: string, search: URLSearchParams): string[] {
  if (pathname !== "/oauth/consent") return [];
  try {
    const u = new URL(search.get("redirect_uri") ?? "");
    return u.protocol === "https:" || u.protocol === "http:" ? [u.origin] : [];
  } catch {
    return [];
  }
}
