import { randomBytes } from "node:crypto";
import { hashKey } from "@/lib/keys/key-format";

// OAuth secrets have recognisable prefixes, so the pipeline's authentication step knows which verifier to use
// and secret scanners can spot a leak: access tokens `oat_`, refresh tokens `ort_`, authorization codes `ocd_`,
// client secrets `ocs_` (client ids are `oac_`). Each is 32 random bytes in
// base64url; only an HMAC-SHA256 under the server secret (lib/auth/server-secret.ts) is ever stored.

export const OAUTH_PREFIX = { access: "oat_", refresh: "ort_", code: "ocd_", clientSecret: "ocs_" } as const;
export type OAuthSecretKind = keyof typeof OAUTH_PREFIX;

const BODY = /^[A-Za-z0-9_-]{43}$/;

export function generateSecret(kind: OAuthSecretKind): string {
  return OAUTH_PREFIX[kind] + randomBytes(32).toString("base64url");
}

/** Cheap shape check before any hashing or query. */
export function hasSecretShape(kind: OAuthSecretKind, value: string): boolean {
  const prefix = OAUTH_PREFIX[kind];
  return value.length === prefix.length + 43 && value.startsWith(prefix) && BODY.test(value.slice(prefix.length));
}

export const isAccessTokenLike = (value: string) => value.startsWith(OAUTH_PREFIX.access);

/** The same keyed hash as API keys: a leaked database alone cannot be used to check guesses. */
export const hashSecret = (value: string) => hashKey(value);

export const ACCESS_TOKEN_TTL_S = 3600;
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
export const CODE_TTL_S = 600;
