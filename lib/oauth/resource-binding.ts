import { ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { canonicalResource, slugOfStoredResource } from "./mcp-resource";
import { resourceMetadataUrlOf } from "./protected-resource";

// Where a resource-bound OAuth access token (RFC 8707) may be used: the MCP server it was issued for
// (`{base}/mcp/{slug}`, which calls assertTokenResource with its own URL) and that product's gateway
// (`/gw/{slug}/…`, which its tools call with the same token). Anywhere else it is a 401 TOKEN_AUDIENCE_MISMATCH,
// as RFC 6750's invalid_token: the token was not issued for this resource. API keys and unbound tokens pass
// these checks unchanged (except at an MCP server, which accepts only tokens issued for it).

const INVALID_TOKEN = 'error="invalid_token", error_description="The token was not issued for this resource"';

function mismatch(auth: AuthContext, message: string, suggestion: string, challenge = `Bearer realm="api", ${INVALID_TOKEN}`): ApiError {
  const oauth = auth.oauth!;
  return new ApiError({
    status: 401,
    type: "authentication_error",
    code: "TOKEN_AUDIENCE_MISMATCH",
    message,
    suggestion,
    headers: { "WWW-Authenticate": challenge },
    subject: {
      keyId: auth.principal.id,
      businessId: auth.businessId,
      environment: auth.environment,
      actorType: "oauth_client",
      actorId: oauth.clientId,
    },
  });
}

/** The /v1 API: a token bound to a product's MCP server is refused. */
export function assertTokenNotBound(auth: AuthContext): void {
  const resource = auth.oauth?.resource;
  if (!resource) return;
  throw mismatch(
    auth,
    `This access token is bound to ${resource} and cannot be used on the API.`,
    "Use it only with that MCP server (and its product's gateway), or ask for a token without a resource parameter.",
  );
}

/** The gateway's /gw/{slug}/…: a bound token only for the product its resource names. */
export function assertTokenForProduct(auth: AuthContext, slug: string): void {
  const resource = auth.oauth?.resource;
  if (!resource || slugOfStoredResource(resource) === slug) return;
  throw mismatch(
    auth,
    `This access token is bound to ${resource} and cannot call the product '${slug.slice(0, 100)}'.`,
    "Authorize again with that product's MCP server as the resource.",
  );
}

/**
 * For an MCP server at `resourceUrl` (`{base}/mcp/{slug}`): throws a 401 TOKEN_AUDIENCE_MISMATCH unless the caller
 * is an API key, or an OAuth access token issued for exactly this resource (its WWW-Authenticate names the resource
 * metadata, as the MCP authorization spec asks of a 401). An OAuth token without a resource (one
 * made for the /v1 API) is refused too: an MCP server accepts only tokens whose audience it is.
 */
export function assertTokenResource(auth: AuthContext, resourceUrl: string): void {
  if (!auth.oauth) return;
  const wanted = canonicalResource(resourceUrl);
  const bound = auth.oauth.resource ? canonicalResource(auth.oauth.resource) : null;
  if (bound !== null && bound === wanted) return;
  throw mismatch(
    auth,
    bound
      ? `This access token is bound to ${bound}, not to ${wanted ?? resourceUrl}.`
      : `This access token was issued for the API, not for ${wanted ?? resourceUrl}.`,
    "Authorize again with this MCP server's URL as the resource parameter (RFC 8707).",
    // The MCP authorization spec: a 401 names the protected resource metadata, so the client can start over.
    `Bearer resource_metadata="${resourceMetadataUrlOf(wanted ?? resourceUrl)}", ${INVALID_TOKEN}`,
  );
}
