import { ApiError } from "@/lib/http/errors";
import { identifyRequest, identifyRequestDoc } from "./steps/identify";
import { resolveRequestVersion, resolveRequestVersionDoc } from "./steps/version";
import { authenticate, authenticateDoc } from "./steps/authenticate";
import { checkRestrictions, checkRestrictionsDoc } from "./steps/restrictions";
import { rateLimit, rateLimitDoc, releaseAdmission } from "./steps/rate-limit";
import { checkScope, checkScopeDoc } from "./steps/scope";
import { checkQuota, checkQuotaDoc } from "./steps/quota";
import { parseInput, parseInputDoc, readBodyDoc } from "./steps/parse-input";
import { claimIdempotencyKey, claimIdempotencyKeyDoc, storeIdempotentResponse } from "./steps/idempotency";
import { conflictDoc, runHandler, runHandlerDoc } from "./steps/handler";
import { writeEnvelope } from "./steps/envelope";
import { mapError } from "./steps/map-error";
import { recordCall } from "./steps/record";
import type { RequestContext, ApiResponse } from "./request-context";
import type { StepDoc } from "./step-doc";

// The request pipeline: a list of small steps over one RequestContext (lib/server/steps, each with its own unit
// test). Inbound steps run in order until one throws; whatever was thrown is mapped to the error envelope by
// `onError`; outbound steps (release the limiter's slot, record usage and the log; the gateway's also rate the call) always run
// and never change the status. Any front door (/v1 on node:http, Next's catch-all route, the gateway) runs it.

export type Step = (ctx: RequestContext) => void | Promise<void>;

export interface Pipeline {
  inbound: Step[];
  onError: (ctx: RequestContext, err: unknown) => void | Promise<void>;
  outbound: Step[];
}

export const API_PIPELINE: Pipeline = {
  inbound: [
    identifyRequest,
    resolveRequestVersion,
    authenticate,
    checkRestrictions,
    rateLimit,
    checkScope,
    checkQuota,
    parseInput,
    claimIdempotencyKey,
    runHandler,
    writeEnvelope,
    storeIdempotentResponse,
  ],
  onError: mapError,
  outbound: [releaseAdmission, recordCall],
};

/** What the steps add to answers (statuses, headers), for the OpenAPI document. */
export const API_PIPELINE_DOCS: StepDoc[] = [
  identifyRequestDoc,
  resolveRequestVersionDoc,
  authenticateDoc,
  checkRestrictionsDoc,
  rateLimitDoc,
  checkScopeDoc,
  checkQuotaDoc,
  parseInputDoc,
  readBodyDoc,
  claimIdempotencyKeyDoc,
  runHandlerDoc,
  conflictDoc,
];

export async function runPipeline(ctx: RequestContext, pipeline: Pipeline = API_PIPELINE): Promise<ApiResponse> {
  try {
    // Most steps are synchronous: awaiting only real promises keeps a cheap step free of a microtask hop.
    for (const step of pipeline.inbound) {
      const pending = step(ctx);
      if (pending) await pending;
    }
    if (!ctx.response) throw new Error(`the pipeline for ${ctx.route.method} ${ctx.route.path} produced no response`);
  } catch (err) {
    await pipeline.onError(ctx, err);
  }
  for (const step of pipeline.outbound) {
    try {
      const pending = step(ctx);
      if (pending) await pending;
    } catch (e) {
      console.error(`[${ctx.requestId}] ${step.name} failed`, e);
    }
  }
  if (!ctx.response) throw new ApiError({ status: 500, type: "server_error", code: "INTERNAL_ERROR", message: "No response." });
  return ctx.response;
}
