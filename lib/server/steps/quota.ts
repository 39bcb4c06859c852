import { consumeQuota } from "@/lib/usage/quota";
import { touchLastUsed } from "@/lib/auth/last-used";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Step 7: the project's monthly quota (free plan); an admitted call also marks the key as used. */
export function checkQuota(ctx: RequestContext): void | Promise<void> {
  const auth = ctx.auth;
  if (!auth) return;
  const counted = consumeQuota(auth);
  if (counted instanceof Promise) return counted.then(() => touchLastUsed(auth));
  touchLastUsed(auth);
}

export const checkQuotaDoc: StepDoc = {
  step: "quota",
  appliesTo: authenticated,
  statuses: { 429: "Too many requests (RATE_LIMIT_EXCEEDED) or the monthly quota is used up (QUOTA_EXCEEDED)" },
};
