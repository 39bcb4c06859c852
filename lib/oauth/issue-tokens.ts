import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import type { Prisma } from "@/generated/prisma-sqlite";
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, generateSecret, hashSecret } from "./token-format";

// A new access token (one hour) and refresh token (30 days) for a grant, written in the caller's transaction.
// The response is RFC 6749 §5.1's. A grant bound to a resource (RFC 8707) binds its tokens to it too.

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export async function issueTokens(
  tx: Prisma.TransactionClient,
  grantId: string,
  scopes: string[],
  accessScopes: string[] | null = null,
  resource: string | null = null,
): Promise<TokenResponse> {
  const access = generateSecret("access");
  const refresh = generateSecret("refresh");
  const t = now();
  await tx.oAuthToken.createMany({
    data: [
      {
        id: newId("oauthToken"),
        grantId,
        kind: "access",
        tokenHash: hashSecret(access),
        scopes: accessScopes ?? undefined,
        resource,
        expiresAt: new Date(t.getTime() + ACCESS_TOKEN_TTL_S * 1000),
        createdAt: t,
      },
      {
        id: newId("oauthToken"),
        grantId,
        kind: "refresh",
        tokenHash: hashSecret(refresh),
        resource,
        expiresAt: new Date(t.getTime() + REFRESH_TOKEN_TTL_S * 1000),
        createdAt: t,
      },
    ],
  });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_S,
    refresh_token: refresh,
    scope: (accessScopes ?? scopes).join(" "),
  };
}
