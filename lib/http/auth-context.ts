/** `test` keys see test data only; `production` is what live keys see. */
export type Environment = "test" | "production";

/**
 * The credential behind a call: an API key, an OAuth grant (the access token's authorization), or a portal user
 * (the portal acts as its signed-in user). Rate limits, last-used times and audit entries count per principal.
 */
export interface Principal {
  kind: "api_key" | "oauth_grant" | "portal_user";
  id: string;
}

/** Who is calling: resolved once per request by the authentication step. */
export interface AuthContext {
  principal: Principal;
  businessId: string;
  projectId: string;
  environment: Environment;
  scopes: string[];
  plan: string;
  rateLimit: number | null;
  restrictions: KeyRestrictions | null;
  /** Set when the caller is an OAuth access token (`principal` is then its grant). */
  oauth?: OAuthActor | null;
}

/** The third-party application acting, and the portal user who allowed it. */
export interface OAuthActor {
  clientId: string;
  grantId: string;
  userId: string;
  /**
   * RFC 8707: the resource the token is bound to (`{base}/mcp/{slug}` of one API product), or null for a token that
   * works on the /v1 API like a key. A bound token is refused on /v1 and on every other product's gateway.
   */
  resource?: string | null;
}

export interface KeyRestrictions {
  ipWhitelist?: string[];
  referrerWhitelist?: string[];
  rateLimit?: number;
}
