import { db } from "@/lib/db/client";
import { isIdOf } from "@/lib/ids";
import { coversAll, isValidScope } from "@/lib/auth/scopes";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import type { OAuthErrorCode } from "./oauth-error";
import { resolveMcpResource, resourceScopes, type McpResource } from "./mcp-resource";

// Validating GET /oauth/authorize's parameters, in RFC 6749 §4.1.2.1's order: a missing or unknown client_id,
// or a redirect_uri that is not registered exactly, is shown to the user and never redirected to (an open
// redirect otherwise); every other problem is redirected back to the client as error=… with the state.
// The consent page and the approval POST both run this again: nothing the browser carries is trusted.
// RFC 8707: a `resource` naming a product's MCP server ({base}/mcp/{slug}) binds the authorization to that product;
// its scope is then `call:<product id>` whatever `scope` asked (the token response says so). An unknown resource is
// invalid_target. A self-registered client (RFC 7591) must name one: it exists only to call a product's MCP server.

export interface AuthorizationRequest {
  client: ClientRow;
  redirectUri: string;
  redirectUriGiven: boolean;
  scopes: string[];
  state: string | null;
  codeChallenge: string | null;
  /** The MCP server (and product) the authorization is bound to, or null for the /v1 API. */
  resource: McpResource | null;
}

export type ParsedAuthorization =
  | { kind: "ok"; request: AuthorizationRequest }
  | { kind: "fatal"; message: string }
  | { kind: "redirect"; redirectUri: string; state: string | null; code: OAuthErrorCode; description: string };

/** The parameters the flow carries from /oauth/authorize through the consent page to the approval. */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
] as const;

const CHALLENGE = /^[A-Za-z0-9._~-]{43,128}$/;

/** A self-registered client: no owner, and only for MCP resources. */
export const isDynamicClient = (client: Pick<ClientRow, "registration">) => client.registration === "dynamic";

/** `baseUrl` is this server's public base URL: a resource must be one of its own MCP servers. */
export async function parseAuthorizationRequest(params: URLSearchParams, baseUrl: string): Promise<ParsedAuthorization> {
  const one = (name: string) => params.get(name);
  const clientId = one("client_id");
  if (!clientId) return { kind: "fatal", message: "The request names no client (client_id is missing)." };
  if (params.getAll("client_id").length > 1) return { kind: "fatal", message: "client_id is repeated." };
  const client = isIdOf("oauthClient", clientId) ? await db.oAuthClient.findUnique({ where: { id: clientId } }) : null;
  if (!client) return { kind: "fatal", message: "The application that sent you here is not registered (unknown client_id)." };

  const registered = client.redirectUris as string[];
  const given = params.getAll("redirect_uri");
  if (given.length > 1) return { kind: "fatal", message: "redirect_uri is repeated." };
  if (given.length === 0 && registered.length !== 1)
    return { kind: "fatal", message: "redirect_uri is required: this application has several registered." };
  const redirectUri = given[0] ?? registered[0];
  if (!registered.includes(redirectUri))
    return { kind: "fatal", message: "The redirect_uri is not one this application registered, so you are not sent back to it." };

  const state = one("state");
  const back = (code: OAuthErrorCode, description: string): ParsedAuthorization => ({
    kind: "redirect",
    redirectUri,
    state,
    code,
    description,
  });
  if (params.getAll("resource").length > 1)
    return back("invalid_target", "Name one resource: this server binds a token to one MCP server.");
  for (const name of AUTHORIZE_PARAMS)
    if (params.getAll(name).length > 1) return back("invalid_request", `The parameter '${name}' is repeated.`);
  if (state !== null && state.length > 1000) return back("invalid_request", "state is longer than 1000 characters.");

  const responseType = one("response_type");
  if (!responseType) return back("invalid_request", "response_type is required (use 'code').");
  if (responseType !== "code") return back("unsupported_response_type", "Only response_type=code is supported.");

  const allowed = client.scopes as string[];
  const resourceParam = one("resource");
  let resource: McpResource | null = null;
  let scopes: string[];
  if (resourceParam !== null) {
    resource = await resolveMcpResource(resourceParam, baseUrl);
    if (!resource)
      return back("invalid_target", `The resource '${resourceParam.slice(0, 200)}' is not the MCP server of a published API product here.`);
    scopes = resourceScopes(resource.product);
    if (coversAll(allowed, scopes))
      return back("invalid_scope", "This application may not call products, so it cannot be given this resource.");
  } else {
    if (isDynamicClient(client))
      return back(
        "invalid_request",
        "resource is required: a self-registered client can only be authorized for one product's MCP server (RFC 8707).",
      );
    const scopeParam = one("scope");
    scopes = scopeParam === null || scopeParam.trim() === "" ? allowed : [...new Set(scopeParam.trim().split(/ +/))];
    const malformed = scopes.find((s) => !isValidScope(s));
    if (malformed !== undefined)
      return back("invalid_scope", `'${malformed.slice(0, 100)}' is not a scope (use resource:action, e.g. products:read).`);
    const beyond = coversAll(allowed, scopes);
    if (beyond) return back("invalid_scope", `The scope '${beyond}' is wider than this application may ask for.`);
  }

  const challenge = one("code_challenge");
  const method = one("code_challenge_method");
  if (method !== null && method !== "S256") return back("invalid_request", "code_challenge_method must be S256.");
  if (challenge === null) {
    if (method !== null) return back("invalid_request", "code_challenge_method was sent without code_challenge.");
    if (client.clientType === "public")
      return back("invalid_request", "PKCE is required for public clients: send code_challenge and code_challenge_method=S256.");
  } else {
    if (method === null) return back("invalid_request", "Send code_challenge_method=S256 (the plain method is not supported).");
    if (!CHALLENGE.test(challenge))
      return back("invalid_request", "code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, '-', '.', '_', '~'.");
  }
  return {
    kind: "ok",
    request: { client, redirectUri, redirectUriGiven: given.length === 1, scopes, state, codeChallenge: challenge, resource },
  };
}

/** The request's own parameters, in a fixed order: what the consent page forwards and the CSRF token covers. */
export function authorizeParams(params: URLSearchParams): [string, string][] {
  return AUTHORIZE_PARAMS.flatMap((name) => (params.has(name) ? [[name, params.get(name)!] as [string, string]] : []));
}
