import { recordAudit } from "@/lib/audit/record-audit";
import { clientIp } from "@/lib/auth/client-ip";
import { authenticateClient, clientOfFailure } from "./authenticate-client";
import { exchangeCode } from "./exchange-code";
import { CORS, GrantRefusal, OAuthError, oauthErrorResponse, oauthJson } from "./oauth-error";
import { readTokenRequest } from "./read-token-request";
import { refreshGrant } from "./refresh-grant";
import { revokeToken } from "./revoke-token";

// POST /oauth/token and POST /oauth/revoke. Every refusal is an RFC 6749 §5.2 error body, issues nothing, and
// leaves an audit entry in the business it concerns (the grant's, else the client's owner's).

const GRANT_TYPES = ["authorization_code", "refresh_token"];

interface Refused {
  error: OAuthError;
  req: Request;
  path: string;
  grantType: string | null;
  clientId: string | null;
  fallback: { businessId: string; environment: string } | null;
}

function auditRefusal({ error, req, path, grantType, clientId, fallback }: Refused) {
  const subject = error instanceof GrantRefusal && error.subject ? error.subject : fallback;
  recordAudit({
    businessId: subject?.businessId ?? null,
    environment: subject?.environment ?? null,
    actorType: clientId ? "oauth_client" : "anonymous",
    actorId: clientId,
    action: "oauth.token_denied",
    targetType: "oauth_client",
    targetId: clientId,
    ip: clientIp(req.headers),
    userAgent: req.headers.get("user-agent"),
    method: "POST",
    path,
    details: {
      error: error.code,
      grantType,
      reason: error instanceof GrantRefusal ? error.reason : error.description.slice(0, 200),
      ...(error instanceof GrantRefusal && error.subject?.grantId ? { grantId: error.subject.grantId } : {}),
    },
  });
}

/** Which client a refusal concerns, filled in as soon as it is known (even when its authentication fails). */
interface Who {
  clientId: string | null;
  fallback: Refused["fallback"];
}

/** A hand-registered client's owner; a self-registered one has none (its refusals are audited without a business). */
const ownerOf = (c: { businessId: string | null; environment: string | null }) =>
  c.businessId && c.environment ? { businessId: c.businessId, environment: c.environment } : null;

async function identifyClient(req: Request, params: Record<string, string>, who: Who) {
  try {
    const { client } = await authenticateClient(req, params);
    Object.assign(who, { clientId: client.id, fallback: ownerOf(client) });
    return client;
  } catch (e) {
    const c = clientOfFailure(e);
    if (c) Object.assign(who, { clientId: c.id, fallback: ownerOf(c) });
    throw e;
  }
}

function unexpected(e: unknown): OAuthError {
  if (e instanceof OAuthError) return e;
  console.error("oauth endpoint failed", e);
  return new OAuthError("server_error", "Something failed on our side; try again.", 500);
}

export async function handleTokenRequest(req: Request): Promise<Response> {
  let params: Record<string, string> = {};
  const who: Who = { clientId: null, fallback: null };
  try {
    params = await readTokenRequest(req);
    const client = await identifyClient(req, params, who);
    const grantType = params.grant_type;
    if (!grantType) throw new OAuthError("invalid_request", "grant_type is required.");
    if (!GRANT_TYPES.includes(grantType))
      throw new OAuthError(
        "unsupported_grant_type",
        `grant_type '${grantType.slice(0, 60)}' is not supported; use authorization_code or refresh_token.`,
      );
    const tokens = grantType === "authorization_code" ? await exchangeCode(client, params) : await refreshGrant(client, params);
    return oauthJson(tokens);
  } catch (e) {
    const error = unexpected(e);
    if (error.status < 500) auditRefusal({ error, req, path: "/oauth/token", grantType: params.grant_type?.slice(0, 60) ?? null, ...who });
    return oauthErrorResponse(error);
  }
}

export async function handleRevokeRequest(req: Request): Promise<Response> {
  const who: Who = { clientId: null, fallback: null };
  try {
    const params = await readTokenRequest(req);
    const client = await identifyClient(req, params, who);
    if (!params.token) throw new OAuthError("invalid_request", "token is required.");
    const result = await revokeToken(client, params.token);
    if (result.revoked) {
      recordAudit({
        businessId: result.businessId!,
        environment: result.environment!,
        actorType: "oauth_client",
        actorId: client.id,
        action: result.revoked === "grant" ? "oauth.grant_revoked" : "oauth.token_revoked",
        targetType: "oauth_grant",
        targetId: result.grantId!,
        ip: clientIp(req.headers),
        userAgent: req.headers.get("user-agent"),
        method: "POST",
        path: "/oauth/revoke",
      });
    }
    return new Response(null, { status: 200, headers: { "Cache-Control": "no-store", ...CORS } });
  } catch (e) {
    const error = unexpected(e);
    if (error.status < 500) auditRefusal({ error, req, path: "/oauth/revoke", grantType: null, ...who });
    return oauthErrorResponse(error);
  }
}
