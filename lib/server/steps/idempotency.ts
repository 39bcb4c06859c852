import { beginIdempotent, completeIdempotent, abandonIdempotent, requestHash, validateIdempotencyKey } from "../idempotency";
import type { RequestContext } from "../request-context";

/**
 * Step 9: an authenticated POST with `Idempotency-Key` claims the key; a finished earlier request with the same
 * key and body is answered from its stored response (`Idempotent-Replayed: true`) without running again.
 */
export async function claimIdempotencyKey(ctx: RequestContext): Promise<void> {
  const { request, auth } = ctx;
  const key = request.method === "POST" && auth ? request.headers.get("idempotency-key") : null;
  if (key === null || !auth) return;
  validateIdempotencyKey(key);
  const path = request.url.pathname;
  const begun = await beginIdempotent(auth, key, request.method, path, requestHash(request.method, path, ctx.rawBody));
  if (begun.kind === "run") {
    ctx.idempotencyRecordId = begun.recordId;
    return;
  }
  const { status, body } = begun.response;
  ctx.response = { status: status === 204 ? 204 : 200, body: body || null, headers: { ...ctx.headers, "Idempotent-Replayed": "true" } };
}

/** Step 12 (after the envelope): the answer is kept for replays. */
export async function storeIdempotentResponse(ctx: RequestContext): Promise<void> {
  if (!ctx.idempotencyRecordId || !ctx.response) return;
  await completeIdempotent(ctx.idempotencyRecordId, { status: ctx.response.status, body: ctx.response.body ?? "" });
}

/** On error: a failed request frees its key, so the client can fix the problem and retry with the same key. */
export async function releaseIdempotencyKey(ctx: RequestContext): Promise<void> {
  if (!ctx.idempotencyRecordId) return;
  const id = ctx.idempotencyRecordId;
  ctx.idempotencyRecordId = null;
  await abandonIdempotent(id).catch(() => {});
}
