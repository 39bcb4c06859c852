import { createHash } from "node:crypto";
import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { hashesEqual } from "@/lib/keys/key-format";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import { GrantRefusal, OAuthError } from "./oauth-error";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { revokeGrant } from "./revoke-grants";
import { checkResourceParam } from "./resource-param";
import { hashSecret, hasSecretShape } from "./token-format";

// grant_type=authorization_code (RFC 6749 §4.1.3, RFC 7636 §4.6). A code works once, within 10 minutes, for
// the client it was issued to, with the same redirect_uri and the PKCE verifier of its challenge. A second use
// of a code that was already exchanged revokes the grant it issued (§4.1.2: the code may have been stolen).

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function pkceMatches(verifier: string, challenge: string): boolean {
  const computed = createHash("sha256").update(verifier, "ascii").digest("base64url");
  return computed.length === challenge.length && hashesEqual(Buffer.from(computed).toString("hex"), Buffer.from(challenge).toString("hex"));
}

export async function exchangeCode(client: ClientRow, params: Record<string, string>): Promise<TokenResponse> {
  const value = params.code;
  if (!value) throw new OAuthError("invalid_request", "code is required.");
  const code = hasSecretShape("code", value) ? await db.oAuthCode.findUnique({ where: { codeHash: hashSecret(value) } }) : null;
  if (!code || code.clientId !== client.id)
    throw new GrantRefusal("The authorization code is invalid.", null, code ? "code_of_another_client" : "unknown_code");
  const subject = { businessId: code.businessId, environment: code.environment, grantId: code.grantId };
  if (code.usedAt) {
    if (code.grantId) await revokeGrant(code.grantId);
    throw new GrantRefusal("The authorization code was already used; the tokens it issued are revoked.", subject, "code_replayed");
  }
  if (code.expiresAt <= now()) throw new GrantRefusal("The authorization code has expired.", subject, "code_expired");
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined ? code.redirectUriGiven : redirectUri !== code.redirectUri) {
    throw new GrantRefusal("redirect_uri does not match the one of the authorization request.", subject, "redirect_uri_mismatch");
  }
  const verifier = params.code_verifier;
  if (code.codeChallenge) {
    if (!verifier) throw new GrantRefusal("code_verifier is required: the authorization request used PKCE.", subject, "pkce_missing");
    if (!VERIFIER.test(verifier) || !pkceMatches(verifier, code.codeChallenge))
      throw new GrantRefusal("code_verifier does not match the code_challenge.", subject, "pkce_mismatch");
  } else if (verifier !== undefined) {
    // A verifier for a code issued without a challenge: a downgrade attempt (OAuth 2.0 Security BCP §4.8.2).
    throw new GrantRefusal("code_verifier was sent but the authorization request had no code_challenge.", subject, "pkce_unexpected");
  }

  checkResourceParam(params.resource, code.resource, subject);

  const scopes = code.scopes as string[];
  const grantId = newId("oauthGrant");
  const t = now();
  const tokens = await db.$transaction(async (tx) => {
    // The update decides a race between two exchanges of one code: only one sees usedAt still null.
    const claimed = await tx.oAuthCode.updateMany({ where: { id: code.id, usedAt: null }, data: { usedAt: t, grantId } });
    if (claimed.count !== 1) return null;
    await tx.oAuthGrant.create({
      data: {
        id: grantId,
        clientId: client.id,
        userId: code.userId,
        businessId: code.businessId,
        projectId: code.projectId,
        environment: code.environment,
        scopes,
        resource: code.resource,
        createdAt: t,
      },
    });
    return issueTokens(tx, grantId, scopes, null, code.resource);
  });
  if (!tokens) {
    const again = await db.oAuthCode.findUnique({ where: { id: code.id } });
    if (again?.grantId) await revokeGrant(again.grantId);
    throw new GrantRefusal("The authorization code was already used; the tokens it issued are revoked.", subject, "code_replayed");
  }
  return tokens;
}
