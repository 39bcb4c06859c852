import { NextResponse, type NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";

// Every portal page needs a signed-in user; anyone else goes to the sign-in page and comes back after.
export async function proxy(req: NextRequest) {
  const token = await getToken({ req, secret: process.env.NEXTAUTH_SECRET });
  if (token) return NextResponse.next();
  const url = new URL("/signin", req.url);
  url.searchParams.set("callbackUrl", req.nextUrl.pathname + req.nextUrl.search);
  return NextResponse.redirect(url);
}

export const config = { matcher: ["/portal/:path*", "/oauth/consent/:path*"] };
