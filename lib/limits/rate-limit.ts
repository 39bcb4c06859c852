import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { emitEventLater } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import { burstWindowSeconds, keyPolicy, type KeyPolicy } from "./plans";
import { limiterStore, platformOutageMode } from "./limiter";
import type { Decision, LimiterStore, LimitState } from "./store";

// The rate-limit step of the pipeline: a concurrency slot, then the bucket and windows. The headers say what a
// client can do (draft-ietf-httpapi-ratelimit-headers): RateLimit-Policy lists every policy the key runs under,
// the burst (the bucket's capacity, over the time it takes to refill), the sustained per-minute rate, the hour and
// day windows and the concurrency cap; RateLimit gives the binding policy's state. X-RateLimit-* describe that
// same policy, so X-RateLimit-Remaining is 0 exactly when the next request would be refused, and a 429's headers
// and body describe the policy that refused it.

/** The policy with the least room (on a tie, the one whose room comes back last); when refused, the one that refused. */
function binding(decision: Decision): LimitState {
  if (!decision.allowed) return decision.limits.find((l) => l.name === decision.refusedBy)!;
  return [...decision.limits].sort((a, b) => a.remaining - b.remaining || b.moreAtMs - a.moreAtMs)[0];
}

/** RateLimit-Policy: a Structured Fields list of the key's policies (the draft's q, w and qu parameters). */
export function policyField(policy: KeyPolicy): string {
  const items = [`"burst";q=${policy.capacity};w=${burstWindowSeconds(policy)}`, `"sustained";q=${policy.refillPerMinute};w=60`];
  if (policy.perHour !== null) items.push(`"hour";q=${policy.perHour};w=3600`);
  if (policy.perDay !== null) items.push(`"day";q=${policy.perDay};w=86400`);
  items.push(`"concurrent";q=${policy.concurrent};qu="concurrent-requests"`);
  return items.join(", ");
}

const secondsUntil = (ms: number) => Math.max(0, Math.ceil((ms - now().getTime()) / 1000));

export function rateLimitHeaders(decision: Decision, policy: KeyPolicy): Record<string, string> {
  const b = binding(decision);
  return {
    "X-RateLimit-Limit": String(b.limit),
    "X-RateLimit-Remaining": String(b.remaining),
    "X-RateLimit-Reset": String(Math.ceil(b.resetMs / 1000)),
    "X-RateLimit-Window": String(b.windowSeconds),
    "RateLimit-Policy": policyField(policy),
    // t: the effective window, until which `r` is all the client can use. For a refused request it equals
    // Retry-After, which the draft asks not to end before it.
    RateLimit: `"${b.name}";r=${b.remaining};t=${secondsUntil(b.moreAtMs)}`,
  };
}

/** A concurrency refusal has no bucket state to show: its headers describe the concurrency cap, which binds. */
function concurrencyHeaders(policy: KeyPolicy, retryAfter: number): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(policy.concurrent),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": String(Math.ceil(now().getTime() / 1000) + retryAfter),
    "X-RateLimit-Window": "0",
    "RateLimit-Policy": policyField(policy),
    RateLimit: `"concurrent";r=0;t=${retryAfter}`,
  };
}

function rateLimited(message: string, retryAfter: number, limit: number, window: number, policy: string, headers: Record<string, string>) {
  return new ApiError({
    status: 429,
    type: "rate_limit_error",
    code: "RATE_LIMIT_EXCEEDED",
    message,
    suggestion: `Retry after ${retryAfter} seconds.`,
    extra: { retryAfter, limit, window, policy },
    headers: { ...headers, "Retry-After": String(retryAfter) },
  });
}

/** At most one api.rate_limited event per key and limit window. */
async function reportRateLimited(auth: AuthContext, limit: LimitState | undefined, kind: string): Promise<void> {
  const windowMs = (limit?.windowSeconds ?? 60) * 1000;
  const windowStart = Math.floor(now().getTime() / windowMs);
  if (!(await limiterStore().setOnce(`rl-event:${auth.principal.id}:${kind}:${windowStart}`, windowMs))) return;
  emitEventLater({
    businessId: auth.businessId,
    environment: auth.environment,
    type: "api.rate_limited",
    data: {
      apiKey: auth.principal.id,
      projectId: auth.projectId,
      limit: kind,
      max: limit?.limit ?? null,
      windowSeconds: limit?.windowSeconds ?? null,
    },
  });
}

export interface Admission {
  headers: Record<string, string>;
  release: () => void;
}

/**
 * Takes a concurrency slot and a unit of the key's rate limits, or throws 429. With the memory store it answers at
 * once (no promise); with Redis, a promise.
 */
export function admit(auth: AuthContext): Admission | Promise<Admission> {
  const policy = keyPolicy(auth.plan, auth.rateLimit);
  const store = limiterStore(platformOutageMode());
  const acquired = store.acquire(auth.principal.id, policy.concurrent);
  return acquired instanceof Promise ? acquired.then((ok) => consume(auth, policy, store, ok)) : consume(auth, policy, store, acquired);
}

function consume(auth: AuthContext, policy: KeyPolicy, store: LimiterStore, acquired: boolean): Admission | Promise<Admission> {
  if (!acquired) {
    void reportRateLimited(auth, undefined, "concurrent");
    throw rateLimited(
      `Too many requests in flight for this key (at most ${policy.concurrent} at once).`,
      1,
      policy.concurrent,
      0,
      "concurrent",
      concurrencyHeaders(policy, 1),
    );
  }
  const release = () => {
    const done = store.release(auth.principal.id);
    if (done instanceof Promise) done.catch(() => {});
  };
  let decided: Decision | Promise<Decision>;
  try {
    decided = store.consume(auth.principal.id, policy, now().getTime());
  } catch (e) {
    release();
    throw e;
  }
  if (decided instanceof Promise)
    return decided.then(
      (d) => decide(auth, policy, d, release),
      (e) => {
        release();
        throw e;
      },
    );
  return decide(auth, policy, decided, release);
}

function decide(auth: AuthContext, policy: KeyPolicy, decision: Decision, release: () => void): Admission {
  const headers = rateLimitHeaders(decision, policy);
  if (!decision.allowed) {
    release();
    const refused = decision.limits.find((l) => l.name === decision.refusedBy)!;
    void reportRateLimited(auth, refused, refused.name);
    const message =
      refused.name === "burst"
        ? `Rate limit exceeded: bursts of at most ${policy.capacity} requests, refilled at ${policy.refillPerMinute} per minute.`
        : `Rate limit exceeded: ${refused.limit} requests per ${refused.name}.`;
    throw rateLimited(message, decision.retryAfterSeconds, refused.limit, refused.windowSeconds, refused.name, headers);
  }
  return { headers, release };
}
