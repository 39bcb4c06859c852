import { admit } from "@/lib/limits/rate-limit";
import type { RequestContext } from "../request-context";

/** Step 5: the key's rate and concurrency limits; their headers go on every answer, refusals included. */
export async function rateLimit(ctx: RequestContext): Promise<void> {
  if (!ctx.auth) return;
  ctx.admission = await admit(ctx.auth);
  Object.assign(ctx.headers, ctx.admission.headers);
}

/** Outbound: the request no longer counts against the key's concurrency limit. */
export function releaseAdmission(ctx: RequestContext): void {
  ctx.admission?.release();
  ctx.admission = null;
}
