import { enforceRestrictions } from "@/lib/auth/restrictions";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Step 4: the key's IP and referrer allow-lists. */
export function checkRestrictions(ctx: RequestContext): void {
  if (ctx.auth) enforceRestrictions(ctx.auth, ctx.ip, ctx.request.headers);
}

export const checkRestrictionsDoc: StepDoc = {
  step: "restrictions",
  appliesTo: authenticated,
  statuses: { 403: "The key lacks a scope, or its IP or referrer allow-list refused the caller" },
};
