import type { AnyRoute } from "@/lib/http/route";
import { beginIdempotent, completeIdempotent, abandonIdempotent, requestHash, validateIdempotencyKey } from "../idempotency";
import type { RequestContext } from "../request-context";
import type { StepDoc } from "../step-doc";

/**
 * Step 9: an authenticated POST with `Idempotency-Key` claims the key (for a lease: a claim left by a crashed
 * server is taken over once it runs out); a finished earlier request with the same key and body is answered from
 * its stored response (`Idempotent-Replayed: true`) without running again.
 */
export async function claimIdempotencyKey(ctx: RequestContext): Promise<void> {
  const { request, auth } = ctx;
  const key = request.method === "POST" && auth ? request.headers.get("idempotency-key") : null;
  if (key === null || !auth) return;
  validateIdempotencyKey(key);
  const path = request.url.pathname;
  const begun = await beginIdempotent(auth, key, request.method, path, requestHash(request.method, path, ctx.rawBody));
  if (begun.kind === "run") {
    ctx.idempotencyClaim = begun.claim;
    return;
  }
  const { status, body } = begun.response;
  // A stored error (a request that failed after committing part of its work) replays as it was.
  ctx.response = {
    status: status >= 400 ? status : status === 204 ? 204 : 200,
    body: body || null,
    headers: { ...ctx.headers, "Idempotent-Replayed": "true" },
  };
}

/** Fault injection for the crash tests only (never set in production): how long the answer waits between the
 * handler's commit and its final store, the window a kill -9 aims at (tests/api/idempotency-crash.test.ts). */
const faultPauseMs = () => Number(process.env.FAULT_PAUSE_BEFORE_IDEMPOTENT_STORE_MS ?? 0);

/** Step 12 (after the envelope): the answer is kept (sealed) for replays. */
export async function storeIdempotentResponse(ctx: RequestContext): Promise<void> {
  const claim = ctx.idempotencyClaim;
  if (!claim || !ctx.response) return;
  ctx.idempotencyClaim = null;
  try {
    const pause = faultPauseMs();
    if (pause) {
      // Said, so a test knows the request has done all its work and may be killed now.
      console.error(`fault: the answer to ${ctx.request.method} ${ctx.request.url.pathname} waits ${pause} ms before it is stored`);
      await new Promise((r) => setTimeout(r, pause));
    }
    await completeIdempotent(claim, { status: ctx.response.status, body: ctx.response.body ?? "" });
  } finally {
    if (ctx.commitScope) ctx.commitScope.closed = true;
  }
}

/**
 * On error, once the error's answer is made: a request that committed nothing frees its key, so the client can
 * fix the problem and retry with the same key; one that failed after a commit (a handler with two transactions)
 * is not run twice: its error is what the key replays.
 */
export async function releaseIdempotencyKey(ctx: RequestContext): Promise<void> {
  const claim = ctx.idempotencyClaim;
  if (!claim) return;
  ctx.idempotencyClaim = null;
  try {
    if (ctx.commitScope?.committed && ctx.response)
      await completeIdempotent(claim, { status: ctx.response.status, body: ctx.response.body ?? "" });
    else await abandonIdempotent(claim);
  } catch (e) {
    console.error(`[${ctx.requestId}] idempotency key not released`, e);
  } finally {
    if (ctx.commitScope) ctx.commitScope.closed = true;
  }
}

const idempotent = (route: AnyRoute) => route.method === "POST" && route.auth !== "none";
export const claimIdempotencyKeyDoc: StepDoc = {
  step: "idempotency",
  appliesTo: idempotent,
  statuses: {
    409: "A request with this Idempotency-Key is still running, or a state conflict",
    422: "The Idempotency-Key was used with another method, path or body (IDEMPOTENCY_KEY_REUSED)",
  },
  headers: {
    "Idempotent-Replayed": {
      description: "`true` when this answer is the stored result of an earlier request with the same Idempotency-Key",
      schema: { type: "string", enum: ["true"] },
      on: "success",
    },
  },
};
