// OAuth endpoints answer in RFC 6749's shapes, not the /v1 envelope: {error, error_description} (§5.2) from the
// token and revocation endpoints, and error=… on the redirect (§4.1.2.1) from the authorization endpoint.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "access_denied"
  | "unsupported_response_type"
  | "server_error"
  | "unsupported_token_type"
  // RFC 8707: the resource parameter names nothing this server issues tokens for.
  | "invalid_target";

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

/** An invalid_grant (or invalid_scope) with its reason and, when known, the grant's business for the audit log. */
export class GrantRefusal extends OAuthError {
  constructor(
    description: string,
    readonly subject: { businessId: string; environment: string; grantId?: string | null } | null,
    readonly reason: string,
    code: "invalid_grant" | "invalid_scope" | "invalid_target" = "invalid_grant",
  ) {
    super(code, description);
  }
}

/** Token responses must never be cached (RFC 6749 §5.1). */
export const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

// Browser apps (public clients) call the token and revocation endpoints from their own origin. No cookie is
// read there, so any origin may: the client's credentials or PKCE verifier are what count.
export const CORS = { "Access-Control-Allow-Origin": "*" };

/** The answer to a CORS preflight of the token, revocation and metadata endpoints. */
export function corsPreflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
      "Access-Control-Allow-Headers": "Authorization, Content-Type",
      "Access-Control-Max-Age": "86400",
    },
  });
}

export function oauthJson(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...NO_STORE, ...CORS, ...headers } });
}

export function oauthErrorResponse(e: OAuthError): Response {
  return oauthJson({ error: e.code, error_description: e.description }, e.status, e.headers);
}

/** The authorization endpoint's error redirect: error, error_description, state and iss on the client's URI. */
export function errorRedirectUrl(
  redirectUri: string,
  e: { code: OAuthErrorCode; description: string },
  state: string | null,
  issuer: string,
): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", e.code);
  url.searchParams.set("error_description", e.description);
  if (state !== null) url.searchParams.set("state", state);
  url.searchParams.set("iss", issuer);
  return url.toString();
}
