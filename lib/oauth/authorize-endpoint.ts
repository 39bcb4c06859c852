import { getServerSession } from "next-auth";
import { db } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/http/public-base-url";
import { recordAudit } from "@/lib/audit/record-audit";
import { clientIp } from "@/lib/auth/client-ip";
import { authOptions } from "@/lib/portal/auth-options";
import { approveAuthorization, denyAuthorization, parseConsentTarget } from "./approve-authorization";
import { AUTHORIZE_PARAMS, authorizeParams, parseAuthorizationRequest, type ParsedAuthorization } from "./authorization-request";
import { checkConsentToken } from "./consent-token";
import { oauthErrorPage } from "./error-page";
import { errorRedirectUrl } from "./oauth-error";

// GET /oauth/authorize checks the request and sends the browser to the consent page (/oauth/consent, which
// requires a signed-in portal user); the consent form POSTs the decision back here, with its CSRF token.

function redirect(location: string, status = 302): Response {
  return new Response(null, { status, headers: { Location: location, "Cache-Control": "no-store" } });
}

/** Refused authorization requests go to the audit log of the client's owner (no user business is known yet). */
async function auditRefusal(req: Request, params: URLSearchParams, parsed: Exclude<ParsedAuthorization, { kind: "ok" }>) {
  const clientId = params.get("client_id");
  const client =
    clientId && /^oac_[0-9A-Z]{26}$/.test(clientId)
      ? await db.oAuthClient.findUnique({ where: { id: clientId }, select: { id: true, businessId: true, environment: true } })
      : null;
  recordAudit({
    businessId: client?.businessId ?? null,
    environment: client?.environment ?? null,
    actorType: "anonymous",
    actorId: null,
    action: "oauth.authorize_denied",
    targetType: "oauth_client",
    targetId: client?.id ?? null,
    ip: clientIp(req.headers),
    userAgent: req.headers.get("user-agent"),
    method: req.method,
    path: "/oauth/authorize",
    details:
      parsed.kind === "fatal"
        ? { error: "invalid_request", reason: parsed.message, redirected: false }
        : { error: parsed.code, reason: parsed.description, redirected: true },
  });
}

export async function handleAuthorizeGet(req: Request): Promise<Response> {
  const issuer = publicBaseUrl(req);
  const params = new URL(req.url).searchParams;
  const parsed = await parseAuthorizationRequest(params, issuer);
  if (parsed.kind !== "ok") await auditRefusal(req, params, parsed);
  if (parsed.kind === "fatal") return oauthErrorPage(400, parsed.message);
  if (parsed.kind === "redirect") return redirect(errorRedirectUrl(parsed.redirectUri, parsed, parsed.state, issuer));
  const consent = new URL("/oauth/consent", issuer);
  for (const [k, v] of authorizeParams(params)) consent.searchParams.set(k, v);
  return redirect(consent.toString());
}

export async function handleAuthorizePost(req: Request): Promise<Response> {
  const issuer = publicBaseUrl(req);
  // A form post from another origin is refused before anything else (the CSRF token would refuse it too).
  // Hosts are compared, not schemes: behind a TLS proxy without PUBLIC_BASE_URL this server sees http.
  const origin = req.headers.get("origin");
  const originHost = (() => {
    try {
      return origin === null ? null : new URL(origin).host;
    } catch {
      return "";
    }
  })();
  if (originHost !== null && originHost !== new URL(issuer).host)
    return oauthErrorPage(403, "This approval did not come from this site's consent page.");
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded" && type !== "multipart/form-data")
    return oauthErrorPage(400, "The consent form was not sent as a form.");
  const form = await req.formData();
  const field = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : null;
  };
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return oauthErrorPage(401, "Sign in to the portal first, then start again from the application.");

  const params = new URLSearchParams();
  for (const name of AUTHORIZE_PARAMS) for (const v of form.getAll(name)) if (typeof v === "string") params.append(name, v);
  const parsed = await parseAuthorizationRequest(params, issuer);
  if (parsed.kind !== "ok") await auditRefusal(req, params, parsed);
  if (parsed.kind === "fatal") return oauthErrorPage(400, parsed.message);
  if (parsed.kind === "redirect") return redirect(errorRedirectUrl(parsed.redirectUri, parsed, parsed.state, issuer), 303);
  if (!checkConsentToken(field("csrf_token"), userId, authorizeParams(params))) {
    return oauthErrorPage(403, "The consent form has expired or was not issued to you. Start again from the application.");
  }
  const businessId = field("business_id") ?? "";
  const membership = await db.membership.findUnique({ where: { userId_businessId: { userId, businessId } } });
  if (!membership) return oauthErrorPage(403, "You are not a member of that business.");
  const decider = {
    userId,
    businessId,
    role: membership.role,
    ip: clientIp(req.headers),
    userAgent: req.headers.get("user-agent"),
    target: parseConsentTarget(field("target")),
  };
  const decision = field("decision");
  const location =
    decision === "approve"
      ? await approveAuthorization(parsed.request, decider, issuer)
      : denyAuthorization(parsed.request, decider, issuer);
  return redirect(location, 303);
}
