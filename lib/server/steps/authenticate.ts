import { extractCredential } from "@/lib/auth/credentials";
import { verifyCredential } from "@/lib/auth/verify-credential";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import type { AuthContext } from "@/lib/http/auth-context";
import { andThen } from "@/lib/limits/store";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Step 3: who is calling (an API key or an OAuth access token). Public routes (`auth: "none"`) skip it. */
export function authenticate(ctx: RequestContext): void | Promise<void> {
  if (ctx.route.auth === "none") return;
  // Revocations made by another process (or the portal) reach this process's key cache through the bus.
  listenForKeyChanges();
  return setAuth(ctx, verifyCredential(extractCredential(ctx.request.headers, ctx.request.url.searchParams)));
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
  statuses: { 401: "Missing, invalid, expired or revoked API key or access token" },
  headers: { "WWW-Authenticate": { description: "The authentication scheme to use", schema: { type: "string" }, on: [401] } },
};
