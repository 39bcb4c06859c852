import { forbidden, type ApiError } from "@/lib/http/errors";
import type { AuthContext } from "@/lib/http/auth-context";
import { grants } from "@/lib/auth/scopes";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Who a refusal is recorded against: the key, or for an OAuth token the client acting under its grant. */
export function subjectOf(auth: AuthContext): NonNullable<ApiError["subject"]> {
  const base = { keyId: auth.principal.id, businessId: auth.businessId, environment: auth.environment };
  return auth.oauth ? { ...base, actorType: "oauth_client", actorId: auth.oauth.clientId } : base;
}

export function authorize(auth: AuthContext, scope: string | undefined): void {
  if (scope && !grants(auth.scopes, scope)) {
    throw forbidden(
      "INSUFFICIENT_SCOPE",
      `This ${auth.oauth ? "access token" : "API key"} lacks the '${scope}' scope.`,
      { requiredScope: scope },
      subjectOf(auth),
    );
  }
}

/** Step 6: the route's scope must be among the credential's. */
export function checkScope(ctx: RequestContext): void {
  if (ctx.auth) authorize(ctx.auth, ctx.route.scope);
}

export const checkScopeDoc: StepDoc = {
  step: "scope",
  appliesTo: authenticated,
  statuses: { 403: "The key lacks a scope, or its IP or referrer allow-list refused the caller" },
};
