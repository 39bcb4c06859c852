import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { emitEventLater } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import { keyPolicy } from "./plans";
import { limiterStore } from "./limiter";
import type { Decision, LimitState } from "./store";

// The rate-limit step of the pipeline: a concurrency slot, then the bucket and windows. The headers describe
// the binding limit (the one with the least room), so X-RateLimit-Remaining is 0 exactly when the next
// request would be refused.

function binding(limits: LimitState[]): LimitState {
  return [...limits].sort((a, b) => a.remaining - b.remaining || a.windowSeconds - b.windowSeconds)[0];
}

export function rateLimitHeaders(decision: Decision): Record<string, string> {
  const b = binding(decision.limits);
  const resetSeconds = Math.max(0, Math.ceil((b.resetMs - now().getTime()) / 1000));
  return {
    "X-RateLimit-Limit": String(b.limit),
    "X-RateLimit-Remaining": String(b.remaining),
    "X-RateLimit-Reset": String(Math.ceil(b.resetMs / 1000)),
    "X-RateLimit-Window": String(b.windowSeconds),
    // draft-ietf-httpapi-ratelimit-headers: every policy, and the binding one's state.
    "RateLimit-Policy": decision.limits.map((l) => `"${l.name}";q=${l.limit};w=${l.windowSeconds}`).join(", "),
    "RateLimit": `"${b.name}";r=${b.remaining};t=${resetSeconds}`,
  };
}

/** A concurrency refusal has no bucket state to show: its headers describe the concurrency cap, which binds. */
function concurrencyHeaders(limit: number, retryAfter: number): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": String(Math.ceil(now().getTime() / 1000) + retryAfter),
    "X-RateLimit-Window": "0",
    "RateLimit-Policy": `"concurrent";q=${limit}`,
    "RateLimit": `"concurrent";r=0;t=${retryAfter}`,
  };
}

function rateLimited(message: string, retryAfter: number, limit: number, window: number, headers: Record<string, string>) {
  return new ApiError({
    status: 429, type: "rate_limit_error", code: "RATE_LIMIT_EXCEEDED", message,
    suggestion: `Retry after ${retryAfter} seconds.`, extra: { retryAfter, limit, window },
    headers: { ...headers, "Retry-After": String(retryAfter) },
  });
}

/** At most one api.rate_limited event per key and limit window. */
async function reportRateLimited(auth: AuthContext, limit: LimitState | undefined, kind: string): Promise<void> {
  const windowMs = (limit?.windowSeconds ?? 60) * 1000;
  const windowStart = Math.floor(now().getTime() / windowMs);
  if (!(await limiterStore().setOnce(`rl-event:${auth.keyId}:${kind}:${windowStart}`, windowMs))) return;
  emitEventLater({
    businessId: auth.businessId, environment: auth.environment, type: "api.rate_limited",
    data: { apiKey: auth.keyId, projectId: auth.projectId, limit: kind, max: limit?.limit ?? null, windowSeconds: limit?.windowSeconds ?? null },
  });
}

export interface Admission {
  headers: Record<string, string>;
  release: () => void;
}

export async function admit(auth: AuthContext): Promise<Admission> {
  const policy = keyPolicy(auth.plan, auth.rateLimit);
  const store = limiterStore();
  if (!(await store.acquire(auth.keyId, policy.concurrent))) {
    void reportRateLimited(auth, undefined, "concurrent");
    throw rateLimited(`Too many requests in flight for this key (at most ${policy.concurrent} at once).`, 1, policy.concurrent, 0,
      concurrencyHeaders(policy.concurrent, 1));
  }
  const release = () => { void store.release(auth.keyId).catch(() => {}); };
  let decision: Decision;
  try {
    decision = await store.consume(auth.keyId, policy, now().getTime());
  } catch (e) {
    release();
    throw e;
  }
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    release();
    const refused = decision.limits.find((l) => l.name === decision.refusedBy)!;
    void reportRateLimited(auth, refused, refused.name);
    throw rateLimited(`Rate limit exceeded: ${refused.limit} requests per ${refused.name}${refused.name === "minute" ? " (burst)" : ""}.`,
      decision.retryAfterSeconds, refused.limit, refused.windowSeconds, headers);
  }
  return { headers, release };
}
