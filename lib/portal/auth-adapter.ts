import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { createUserWithBusiness } from "./sign-up";

// The few adapter methods next-auth needs with JWT sessions: users, linked OAuth accounts and magic-link
// tokens. A user next-auth creates (first magic link or OAuth sign-in) gets a business and project, as a
// sign-up with a password does.

type Row = { id: string; email: string; name: string | null; image: string | null; emailVerified: Date | null };
const toAdapterUser = (u: Row): AdapterUser => ({ id: u.id, email: u.email, name: u.name, image: u.image, emailVerified: u.emailVerified });

export function portalAdapter(): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      return toAdapterUser(
        await createUserWithBusiness({ email: user.email, name: user.name, image: user.image, emailVerified: user.emailVerified }),
      );
    },
    async getUser(id) {
      const u = await db.user.findUnique({ where: { id } });
      return u ? toAdapterUser(u) : null;
    },
    async getUserByEmail(email) {
      const u = await db.user.findUnique({ where: { email: email.toLowerCase() } });
      return u ? toAdapterUser(u) : null;
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const a = await db.account.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        include: { user: true },
      });
      return a ? toAdapterUser(a.user) : null;
    },
    async updateUser(user) {
      const u = await db.user.update({
        where: { id: user.id },
        data: {
          ...(user.name !== undefined ? { name: user.name } : {}),
          ...(user.image !== undefined ? { image: user.image } : {}),
          ...(user.emailVerified !== undefined ? { emailVerified: user.emailVerified } : {}),
        },
      });
      return toAdapterUser(u);
    },
    async linkAccount(account: AdapterAccount) {
      await db.account.create({
        data: {
          id: newId("account"),
          userId: account.userId,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          refresh_token: account.refresh_token ?? null,
          access_token: account.access_token ?? null,
          expires_at: account.expires_at ?? null,
          token_type: account.token_type ?? null,
          scope: account.scope ?? null,
          id_token: account.id_token ?? null,
          session_state: (account.session_state as string | undefined) ?? null,
        },
      });
    },
    async createVerificationToken(token) {
      await db.verificationToken.create({ data: token });
      return token;
    },
    async useVerificationToken({ identifier, token }) {
      try {
        return await db.verificationToken.delete({ where: { identifier_token: { identifier, token } } });
      } catch {
        return null; // already used or never issued
      }
    },
  };
}
