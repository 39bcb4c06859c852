import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { consentFormTargets, contentSecurityPolicy, newNonce, securityHeaders } from "@/lib/portal/security-headers";
import { allowsStripeJs, withStripeJs } from "@/lib/portal/stripe-js-csp";

// Runs before every page and next-auth's routes (not /v1, the other JSON routes or static files; see the matcher):
//  - security headers on every answer, with a fresh CSP nonce that Next.js puts on the page's scripts
//    (lib/portal/security-headers.ts); with PAYMENT_PROVIDER=stripe it also allows Stripe.js's frames and API
//    (lib/portal/stripe-js-csp.ts);
//  - portal pages and the consent page need a signed-in user; anyone else goes to the sign-in page and comes back.
// X-Forwarded-Proto is trustworthy here: the data plane writes it (scripts/lib/request-origin.mjs).

const needsSignIn = (path: string) => path === "/portal" || path.startsWith("/portal/") || path.startsWith("/oauth/consent");

export async function proxy(req: NextRequest) {
  const https = req.headers.get("x-forwarded-proto") === "https";
  const nonce = newNonce();
  const policy = contentSecurityPolicy({
    nonce,
    https,
    dev: process.env.NODE_ENV === "development",
    formTargets: consentFormTargets(req.nextUrl.pathname, req.nextUrl.searchParams),
  });
  const csp = allowsStripeJs() ? withStripeJs(policy) : policy;

  let res: NextResponse | undefined;
  if (needsSignIn(req.nextUrl.pathname)) {
    const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET, secureCookie: https });
    if (!token) {
      const url = new URL("/signin", req.url);
      url.searchParams.set("callbackUrl", req.nextUrl.pathname + req.nextUrl.search);
      res = NextResponse.redirect(url);
    }
  }
  if (!res) {
    // The request carries the policy too: that is where Next.js reads the nonce from while rendering.
    const headers = new Headers(req.headers);
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", csp);
    res = NextResponse.next({ request: { headers } });
  }
  res.headers.set("Content-Security-Policy", csp);
  for (const [name, value] of Object.entries(securityHeaders({ https }))) res.headers.set(name, value);
  return res;
}

export const config = {
  matcher: [
    "/((?!v1/|v1$|api/(?!auth/)|_next/static/|_next/image|favicon\\.ico|\\.well-known/|oauth/token|oauth/revoke|oauth/register).*)",
  ],
};
