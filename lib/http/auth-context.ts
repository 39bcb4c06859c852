/** `test` keys see test data only; `production` is what live keys see. */
export type Environment = "test" | "production";

/** Who is calling: resolved once per request by the authentication step. */
export interface AuthContext {
  keyId: string;
  businessId: string;
  projectId: string;
  environment: Environment;
  scopes: string[];
  plan: string;
  rateLimit: number | null;
  restrictions: KeyRestrictions | null;
  /** Set when the caller is an OAuth access token: `keyId` is then the grant's id (the rate limiter's subject). */
  oauth?: OAuthActor | null;
}

/** The third-party application acting, and the portal user who allowed it. */
export interface OAuthActor {
  clientId: string;
  grantId: string;
  userId: string;
}

export interface KeyRestrictions {
  ipWhitelist?: string[];
  referrerWhitelist?: string[];
  rateLimit?: number;
}
