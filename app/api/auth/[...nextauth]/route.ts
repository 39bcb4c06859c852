// GET, POST /api/auth/*: next-auth (sign-in, callbacks, sessions) for the portal
import NextAuth from "next-auth";
import { authOptions } from "@/lib/portal/auth-options";

const handler = NextAuth(authOptions);
export { handler as GET, handler as POST };
