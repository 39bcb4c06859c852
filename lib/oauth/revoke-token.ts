import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { announceKeyChange } from "@/lib/auth/key-invalidation";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import { revokeGrant } from "./revoke-grants";
import { hashSecret, hasSecretShape } from "./token-format";

// RFC 7009: a client revokes one of its own tokens. An access token stops alone; a refresh token ends the whole
// grant (§2.1: its access tokens too). Unknown tokens, and tokens of other clients, are answered 200 like
// success (§2.2), so the endpoint reveals nothing about tokens the caller does not hold.

export async function revokeToken(
  client: ClientRow,
  value: string,
): Promise<{ revoked: "access" | "grant" | null; grantId?: string; businessId?: string; environment?: string }> {
  const shaped = hasSecretShape("access", value) || hasSecretShape("refresh", value);
  const token = shaped ? await db.oAuthToken.findUnique({ where: { tokenHash: hashSecret(value) } }) : null;
  if (!token) return { revoked: null };
  const grant = await db.oAuthGrant.findUnique({ where: { id: token.grantId } });
  if (!grant || grant.clientId !== client.id) return { revoked: null };
  const where = { businessId: grant.businessId, environment: grant.environment, grantId: grant.id };
  if (token.kind === "refresh") {
    await revokeGrant(grant.id);
    return { revoked: "grant", ...where };
  }
  if (!token.revokedAt) {
    await db.oAuthToken.update({ where: { id: token.id }, data: { revokedAt: now() } });
    announceKeyChange(token.id);
  }
  return { revoked: "access", ...where };
}
