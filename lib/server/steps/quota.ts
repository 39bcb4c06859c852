import { consumeQuota } from "@/lib/usage/quota";
import { touchLastUsed } from "@/lib/auth/last-used";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Step 7: the project's monthly quota (free plan); an admitted call also marks the key as used. */
export async function checkQuota(ctx: RequestContext): Promise<void> {
  if (!ctx.auth) return;
  await consumeQuota(ctx.auth);
  touchLastUsed(ctx.auth);
}

export const checkQuotaDoc: StepDoc = {
  step: "quota",
  appliesTo: authenticated,
  statuses: { 429: "Too many requests (RATE_LIMIT_EXCEEDED) or the monthly quota is used up (QUOTA_EXCEEDED)" },
};
