import { consumeQuota } from "@/lib/usage/quota";
import { touchLastUsed } from "@/lib/auth/last-used";
import type { RequestContext } from "../request-context";

/** Step 7: the project's monthly quota (free plan); an admitted call also marks the key as used. */
export async function checkQuota(ctx: RequestContext): Promise<void> {
  if (!ctx.auth) return;
  await consumeQuota(ctx.auth);
  touchLastUsed(ctx.auth);
}
