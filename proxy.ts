import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";

// Every portal page needs a signed-in user; anyone else goes to the sign-in page and comes back after.
export async function proxy(req: NextRequest) {
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET });
  if (token) {
    const res = NextResponse.next();
    // The OAuth consent page must never be framed by another site (clickjacking an approval).
    if (req.nextUrl.pathname.startsWith("/oauth/")) {
      res.headers.set("X-Frame-Options", "DENY");
      res.headers.set("Content-Security-Policy", "frame-ancestors 'none'");
    }
    return res;
  }
  const url = new URL("/signin", req.url);
  url.searchParams.set("callbackUrl", req.nextUrl.pathname + req.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = { matcher: ["/portal/:path*", "/oauth/consent/:path*"] };
