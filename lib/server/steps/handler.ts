import type { AuthContext } from "@/lib/http/auth-context";
import { runWithCommitHook } from "@/lib/db/commit-hook";
import { markCommitted } from "../idempotency";
import { envelopeFor } from "./envelope";
import type { RequestContext } from "../request-context";
import type { StepDoc } from "../step-doc";

/** Step 10: the route's own work. Skipped when an earlier step already answered (an idempotent replay). */
export async function runHandler(ctx: RequestContext): Promise<void> {
  if (ctx.response) return;
  const { request } = ctx;
  const started = performance.now();
  const run = () =>
    ctx.route.handler({
      requestId: ctx.requestId,
      auth: ctx.auth as AuthContext,
      params: ctx.params,
      query: ctx.query,
      body: ctx.body,
      version: ctx.version!,
      baseUrl: request.baseUrl,
      client: { ip: ctx.ip, userAgent: request.headers.get("user-agent") },
    });
  // With a claimed Idempotency-Key, the handler's transactions mark the key's record as they commit, so after a
  // crash the record tells a request that committed from one that did not (lib/db/commit-hook.ts); a transaction
  // that declares the request's answer stores it too.
  const claim = ctx.idempotencyClaim;
  ctx.result = claim
    ? await runWithCommitHook(
        (tx, answer) => {
          // A write that declared its answer: stored sealed with the commit, so a crash before the pipeline stores
          // the final one still leaves a retry something to replay.
          const declared = answer ? envelopeFor(ctx, answer.value) : null;
          return markCommitted(claim, tx, declared ? { status: declared.status, body: declared.body ?? "" } : null);
        },
        (scope) => {
          ctx.commitScope = scope;
          return run();
        },
      )
    : await run();
  ctx.computeMs = performance.now() - started;
}

export const runHandlerDoc: StepDoc = {
  step: "handler",
  // A path id, an id in the body, or a resource the business has not set up yet (an upcoming invoice).
  appliesTo: (route) => route.auth !== "none" || !!route.params,
  statuses: { 404: "No such resource (or one of another business or environment)" },
};

/** A change can meet a state it cannot apply to, or a resource others still reference. */
export const conflictDoc: StepDoc = {
  step: "handler",
  appliesTo: (route) => route.auth !== "none" && route.method !== "GET",
  statuses: { 409: "A state conflict: the resource's state does not allow this, or others still reference it" },
};
