import { extractCredential } from "@/lib/auth/credentials";
import { verifyCredential } from "@/lib/auth/verify-credential";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import type { AuthContext } from "@/lib/http/auth-context";
import { andThen } from "@/lib/limits/store";
import { assertTokenNotBound } from "@/lib/oauth/resource-binding";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/**
 * Step 3: who is calling (an API key or an OAuth access token). Public routes (`auth: "none"`) skip it. A token
 * bound to a product's MCP server (RFC 8707) is refused here: the /v1 API is not its audience.
 */
export function authenticate(ctx: RequestContext): void | Promise<void> {
  if (ctx.route.auth === "none") return;
  // Revocations made by another process (or the portal) reach this process's key cache through the bus.
  listenForKeyChanges();
  return andThen(verifyCredential(extractCredential(ctx.request.headers, ctx.request.url.searchParams)), (auth) => {
    assertTokenNotBound(auth);
    ctx.auth = auth;
  });
}

/** The caller, at once when the key cache knows it (the pipeline then makes no promise), else when loaded. */
export function setAuth(ctx: RequestContext, auth: AuthContext | Promise<AuthContext>): void | Promise<void> {
  return andThen(auth, (a) => {
    ctx.auth = a;
  });
}

export const authenticateDoc: StepDoc = {
  step: "authenticate",
  appliesTo: authenticated,
  statuses: { 401: "Missing, invalid, expired or revoked API key or access token, or an access token bound to another resource" },
  headers: { "WWW-Authenticate": { description: "The authentication scheme to use", schema: { type: "string" }, on: [401] } },
};
