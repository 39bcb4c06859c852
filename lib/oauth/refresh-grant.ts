import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { coversAll, isValidScope } from "@/lib/auth/scopes";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import { GrantRefusal, OAuthError } from "./oauth-error";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { revokeGrant } from "./revoke-grants";
import { checkResourceParam } from "./resource-param";
import { hashSecret, hasSecretShape } from "./token-format";

// grant_type=refresh_token (RFC 6749 §6) with rotation: every use returns a new refresh token and retires the
// old one. A retired refresh token presented again means one of the two holders is not the client, so the
// whole grant is revoked (OAuth 2.0 Security BCP §4.14.2). A narrower `scope` narrows the new access token only.

export async function refreshGrant(client: ClientRow, params: Record<string, string>): Promise<TokenResponse> {
  const value = params.refresh_token;
  if (!value) throw new OAuthError("invalid_request", "refresh_token is required.");
  const token = hasSecretShape("refresh", value) ? await db.oAuthToken.findUnique({ where: { tokenHash: hashSecret(value) } }) : null;
  const grant = token?.kind === "refresh" ? await db.oAuthGrant.findUnique({ where: { id: token.grantId } }) : null;
  if (!token || !grant || grant.clientId !== client.id)
    throw new GrantRefusal("The refresh token is invalid.", null, grant ? "token_of_another_client" : "unknown_refresh_token");
  const subject = { businessId: grant.businessId, environment: grant.environment, grantId: grant.id };
  if (grant.revokedAt || token.revokedAt) throw new GrantRefusal("The refresh token has been revoked.", subject, "refresh_token_revoked");
  if (token.usedAt) {
    await revokeGrant(grant.id);
    throw new GrantRefusal(
      "The refresh token was already used; every token of this authorization is revoked.",
      subject,
      "refresh_token_replayed",
    );
  }
  const t = now();
  if (token.expiresAt <= t) throw new GrantRefusal("The refresh token has expired.", subject, "refresh_token_expired");

  // RFC 8707: the new tokens keep the grant's resource; naming another is invalid_target.
  checkResourceParam(params.resource, grant.resource, subject);

  const scopes = grant.scopes as string[];
  let accessScopes: string[] | null = null;
  if (params.scope !== undefined && params.scope.trim() !== "") {
    accessScopes = [...new Set(params.scope.trim().split(/ +/))];
    const beyond = accessScopes.find((s) => !isValidScope(s)) ?? coversAll(scopes, accessScopes);
    if (beyond)
      throw new GrantRefusal(`The scope '${beyond.slice(0, 100)}' was not granted.`, subject, "scope_wider_than_grant", "invalid_scope");
  }
  const tokens = await db.$transaction(async (tx) => {
    const claimed = await tx.oAuthToken.updateMany({ where: { id: token.id, usedAt: null }, data: { usedAt: t } });
    if (claimed.count !== 1) return null;
    return issueTokens(tx, grant.id, scopes, accessScopes, grant.resource);
  });
  if (!tokens) {
    await revokeGrant(grant.id);
    throw new GrantRefusal(
      "The refresh token was already used; every token of this authorization is revoked.",
      subject,
      "refresh_token_replayed",
    );
  }
  return tokens;
}
