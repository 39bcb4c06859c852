import { isAccessTokenLike } from "@/lib/oauth/token-format";
import type { AuthContext } from "@/lib/http/auth-context";
import { verifyApiKey } from "./verify-api-key";
import { verifyAccessToken } from "./verify-access-token";

/** The authentication step: an `oat_` value is an OAuth access token, anything else an API key. */
export function verifyCredential(value: string): AuthContext | Promise<AuthContext> {
  return isAccessTokenLike(value) ? verifyAccessToken(value) : verifyApiKey(value);
}
