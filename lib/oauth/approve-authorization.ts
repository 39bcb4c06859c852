import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { coversAll } from "@/lib/auth/scopes";
import { recordAudit } from "@/lib/audit/record-audit";
import { scopesForRole } from "@/lib/portal/roles";
import { errorRedirectUrl } from "./oauth-error";
import { CODE_TTL_S, generateSecret, hashSecret } from "./token-format";
import type { AuthorizationRequest } from "./authorization-request";

// The user's decision on the consent page. Approving issues a single-use authorization code (10 minutes) bound
// to the client, the redirect URI, the PKCE challenge, the user and the business; denying sends access_denied.
// The grant covers what was asked and the user's role allows: a viewer cannot hand out write access.
// The code is for one project and environment: the business's first project and the client's environment, unless
// the consent form chose them (an MCP resource's consent picks the project whose subscription pays; a
// self-registered client has no environment of its own, so the user picks test or live there).

export interface ConsentTarget {
  projectId: string | null;
  environment: string | null;
}

export interface Decider {
  userId: string;
  businessId: string;
  role: string;
  ip: string | null;
  userAgent: string | null;
  /** The consent form's choice of project and environment (`target`), when it had one. */
  target?: ConsentTarget | null;
}

/** `projectId:environment` as the consent form's `target` field carries it. */
export function parseConsentTarget(value: string | null): ConsentTarget | null {
  const m = /^(proj_[0-9A-Za-z]{1,64}):(test|production)$/.exec(value ?? "");
  return m ? { projectId: m[1], environment: m[2] } : null;
}

/** The environments the user may choose for this client: its own, or both for a self-registered one. */
export const environmentsFor = (client: { environment: string | null }): ("test" | "production")[] =>
  client.environment === "test" || client.environment === "production" ? [client.environment] : ["test", "production"];

/** The requested scopes the user's role lets them grant, and those it does not. */
export function grantableScopes(requested: string[], role: string) {
  const held = scopesForRole(role);
  return {
    granted: requested.filter((s) => coversAll(held, [s]) === null),
    withheld: requested.filter((s) => coversAll(held, [s]) !== null),
  };
}

function audit(d: Decider, action: string, r: AuthorizationRequest, details: Record<string, unknown>, environment = r.client.environment) {
  recordAudit({
    businessId: d.businessId,
    environment,
    actorType: "user",
    actorId: d.userId,
    action,
    targetType: "oauth_client",
    targetId: r.client.id,
    ip: d.ip,
    userAgent: d.userAgent,
    method: "POST",
    path: "/oauth/authorize",
    details,
  });
}

export async function approveAuthorization(r: AuthorizationRequest, d: Decider, issuer: string): Promise<string> {
  const { granted, withheld } = grantableScopes(r.scopes, d.role);
  if (!granted.length) {
    audit(d, "oauth.consent_denied", r, { reason: "role", requested: r.scopes });
    return errorRedirectUrl(
      r.redirectUri,
      { code: "access_denied", description: "The user's role cannot grant any of the requested scopes." },
      r.state,
      issuer,
    );
  }
  const environments = environmentsFor(r.client);
  const wanted = d.target?.environment as "test" | "production" | undefined;
  const environment = wanted && environments.includes(wanted) ? wanted : environments[0];
  const chosen = d.target?.projectId
    ? await db.project.findFirst({ where: { id: d.target.projectId, businessId: d.businessId }, select: { id: true } })
    : null;
  const project =
    chosen ??
    (await db.project.findFirstOrThrow({
      where: { businessId: d.businessId },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    }));
  const code = generateSecret("code");
  const t = now();
  await db.oAuthCode.create({
    data: {
      id: newId("oauthCode"),
      codeHash: hashSecret(code),
      clientId: r.client.id,
      userId: d.userId,
      businessId: d.businessId,
      projectId: project.id,
      environment,
      scopes: granted,
      redirectUri: r.redirectUri,
      redirectUriGiven: r.redirectUriGiven,
      codeChallenge: r.codeChallenge,
      resource: r.resource?.url ?? null,
      expiresAt: new Date(t.getTime() + CODE_TTL_S * 1000),
      createdAt: t,
    },
  });
  audit(
    d,
    "oauth.authorized",
    r,
    {
      scopes: granted,
      withheld,
      clientName: r.client.name,
      ...(r.resource ? { resource: r.resource.url, productId: r.resource.product.id, projectId: project.id } : {}),
    },
    environment,
  );
  const url = new URL(r.redirectUri);
  url.searchParams.set("code", code);
  if (r.state !== null) url.searchParams.set("state", r.state);
  url.searchParams.set("iss", issuer);
  return url.toString();
}

export function denyAuthorization(r: AuthorizationRequest, d: Decider, issuer: string): string {
  audit(d, "oauth.consent_denied", r, { reason: "user", requested: r.scopes });
  return errorRedirectUrl(r.redirectUri, { code: "access_denied", description: "The user denied the request." }, r.state, issuer);
}
