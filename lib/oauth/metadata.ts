import { publicBaseUrl } from "@/lib/http/public-base-url";
import { SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { CORS } from "./oauth-error";

// RFC 8414 authorization server metadata, served at /.well-known/oauth-authorization-server. The issuer is this
// server's public base URL (PUBLIC_BASE_URL, else the address the client used), without a trailing slash.
// The same document is also served under that path with anything after it (/.well-known/oauth-authorization-server/
// mcp/{slug}): MCP clients that find no protected resource metadata, or older SDKs, take the MCP server's URL
// as the issuer and look there (RFC 8414 §3.1's path-inserted form).

const AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"];

export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    // RFC 7591: public clients (MCP clients) register themselves; see lib/oauth/register-client.ts.
    registration_endpoint: `${issuer}/oauth/register`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: AUTH_METHODS,
    scopes_supported: ["*", ...SCOPE_RESOURCES.flatMap((r) => [`${r}:read`, `${r}:write`, `${r}:delete`, `${r}:*`])],
    // RFC 9207: the authorization response names its issuer, so a client talking to several servers cannot be mixed up.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${issuer}/docs/oauth`,
  };
}

export const AUTHORIZATION_SERVER_METADATA_PATH = "/.well-known/oauth-authorization-server";

/** GET /.well-known/oauth-authorization-server (and under it), served by the node:http front door and by Next's route alike. */
export function handleMetadataRequest(req: Request): Response {
  return Response.json(authorizationServerMetadata(publicBaseUrl(req)), { headers: { "Cache-Control": "public, max-age=300", ...CORS } });
}
