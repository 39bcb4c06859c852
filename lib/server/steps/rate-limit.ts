import { admit, type Admission } from "@/lib/limits/rate-limit";
import { limiterDegraded } from "@/lib/limits/limiter";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Step 5: the key's rate and concurrency limits; their headers go on every answer, refusals included. */
export function rateLimit(ctx: RequestContext): void | Promise<void> {
  if (!ctx.auth) return;
  const admission = admit(ctx.auth);
  if (admission instanceof Promise) return admission.then((a) => applyAdmission(ctx, a));
  applyAdmission(ctx, admission);
}

function applyAdmission(ctx: RequestContext, admission: Admission): void {
  ctx.admission = admission;
  Object.assign(ctx.headers, admission.headers);
  markDegraded(ctx);
}

/** An answer given while this process's limits run on their per-process fallback says so (and so does its log,
 * which keeps the answer's headers). */
export function markDegraded(ctx: RequestContext): void {
  if (limiterDegraded()) ctx.headers["X-Platform-Degraded"] = "limiter";
}

/** Outbound: the request no longer counts against the key's concurrency limit. */
export function releaseAdmission(ctx: RequestContext): void {
  ctx.admission?.release();
  ctx.admission = null;
}

const intHeader = { type: "string", pattern: "^[0-9]+$" };
export const rateLimitDoc: StepDoc = {
  step: "rate-limit",
  appliesTo: authenticated,
  statuses: {
    429: "Too many requests (RATE_LIMIT_EXCEEDED) or the monthly quota is used up (QUOTA_EXCEEDED)",
    503: "The limiter's store is unreachable and the deployment's limits are declared closed (LIMITER_UNAVAILABLE)",
  },
  headers: {
    "X-RateLimit-Limit": { description: "Requests allowed in the binding window", schema: intHeader, on: "all" },
    "X-RateLimit-Remaining": { description: "Requests left in the binding window", schema: intHeader, on: "all" },
    "X-RateLimit-Reset": { description: "Unix time (seconds) at which the window resets", schema: intHeader, on: "all" },
    "X-RateLimit-Window": { description: "The binding window, in seconds", schema: intHeader, on: "all" },
    RateLimit: { description: "The binding policy's state (draft-ietf-httpapi-ratelimit-headers)", schema: { type: "string" }, on: "all" },
    "RateLimit-Policy": {
      description: "Every policy the key runs under (draft-ietf-httpapi-ratelimit-headers)",
      schema: { type: "string" },
      on: "all",
    },
    "Retry-After": {
      description: "Seconds to wait before retrying (a rate limit, an Idempotency-Key still in use, the limiter unavailable)",
      schema: intHeader,
      on: [429, 409, 503],
    },
    "X-Platform-Degraded": {
      description:
        "`limiter` when this answer's limits were counted per process because Redis was unreachable (their share of each limit; docs/operations.md)",
      schema: { type: "string", enum: ["limiter"] },
      on: "all",
    },
  },
};
