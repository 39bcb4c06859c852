import CredentialsProvider from "next-auth/providers/credentials";
import EmailProvider from "next-auth/providers/email";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { NextAuthOptions } from "next-auth";
import { db } from "@/lib/db/client";
import { portalAdapter } from "./auth-adapter";
import { verifyPassword } from "./password";

// Portal sign-in: email and password, magic links by e-mail (EMAIL_SERVER, e.g. smtp://127.0.0.1:2525; without
// it the link is printed to the server log), and GitHub/Google when their client ids are set. Sessions are
// JWTs in an httpOnly cookie; the /v1 API never accepts them.

function providers(): NextAuthOptions["providers"] {
  const list: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const email = credentials?.email?.trim().toLowerCase();
        if (!email || !credentials?.password) return null;
        const user = await db.user.findUnique({ where: { email } });
        const ok = await verifyPassword(credentials.password, user?.passwordHash);
        return ok && user ? { id: user.id, email: user.email, name: user.name } : null;
      },
    }),
    EmailProvider({
      server: process.env.EMAIL_SERVER ?? "smtp://127.0.0.1:2525",
      from: process.env.EMAIL_FROM ?? "Developer Platform <no-reply@localhost>",
      maxAge: 24 * 60 * 60,
      ...(process.env.EMAIL_SERVER
        ? {}
        : {
            async sendVerificationRequest({ identifier, url }: { identifier: string; url: string }) {
              console.log(`[portal] magic link for ${identifier}: ${url}`);
            },
          }),
    }),
  ];
  if (process.env.GITHUB_ID && process.env.GITHUB_SECRET)
    list.push(GitHubProvider({ clientId: process.env.GITHUB_ID, clientSecret: process.env.GITHUB_SECRET }));
  if (process.env.GOOGLE_CLIENT_ID && process.env.GOOGLE_CLIENT_SECRET)
    list.push(GoogleProvider({ clientId: process.env.GOOGLE_CLIENT_ID, clientSecret: process.env.GOOGLE_CLIENT_SECRET }));
  return list;
}

export const authOptions: NextAuthOptions = {
  adapter: portalAdapter(),
  providers: providers(),
  session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
  pages: { signIn: "/signin", verifyRequest: "/signin?check=email", error: "/signin" },
  callbacks: {
    async jwt({ token, user }) {
      if (user) token.uid = user.id;
      return token;
    },
    async session({ session, token }) {
      if (session.user) (session.user as { id?: string }).id = token.uid as string;
      return session;
    },
  },
};

export const oauthProviders = () => ({
  github: !!(process.env.GITHUB_ID && process.env.GITHUB_SECRET),
  google: !!(process.env.GOOGLE_CLIENT_ID && process.env.GOOGLE_CLIENT_SECRET),
});
