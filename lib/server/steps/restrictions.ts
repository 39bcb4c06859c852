import { enforceRestrictions } from "@/lib/auth/restrictions";
import type { RequestContext } from "../request-context";

/** Step 4: the key's IP and referrer allow-lists. */
export function checkRestrictions(ctx: RequestContext): void {
  if (ctx.auth) enforceRestrictions(ctx.auth, ctx.ip, ctx.request.headers);
}
