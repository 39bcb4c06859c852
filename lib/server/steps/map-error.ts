import { isDatabaseUnavailable, toApiError, errorBody } from "@/lib/http/error-mapper";
import { databaseFailed } from "@/lib/db/availability";
import type { ApiError } from "@/lib/http/errors";
import { recordAudit } from "@/lib/audit/record-audit";
import { subjectOf } from "./scope";
import { releaseIdempotencyKey } from "./idempotency";
import type { RequestContext } from "../request-context";

/** Every refused credential (401, or 403 from a scope or restriction) goes to the audit log. */
function auditDenial(ctx: RequestContext, error: ApiError): void {
  const { auth } = ctx;
  if (error.status !== 401 && !(error.status === 403 && (error.subject || auth))) return;
  const subject = error.subject ?? (auth ? subjectOf(auth) : undefined);
  recordAudit({
    businessId: subject?.businessId ?? null,
    environment: subject?.environment ?? null,
    actorType: subject ? (subject.actorType ?? "api_key") : "anonymous",
    actorId: subject ? (subject.actorId ?? subject.keyId) : null,
    action: "auth.denied",
    targetType: "route",
    targetId: null,
    ip: ctx.ip,
    userAgent: ctx.request.headers.get("user-agent"),
    method: ctx.request.method,
    path: ctx.request.url.pathname,
    details: { code: error.code, status: error.status, ...(subject?.actorType === "oauth_client" ? { grantId: subject.keyId } : {}) },
  });
}

/** Whatever a step threw becomes the spec's error envelope, here and nowhere else. */
export async function mapError(ctx: RequestContext, err: unknown): Promise<void> {
  if (isDatabaseUnavailable(err)) databaseFailed(err);
  const error = toApiError(err, ctx.requestId);
  ctx.error = error;
  auditDenial(ctx, error);
  const body = errorBody(error, ctx.requestId, ctx.request.baseUrl);
  if (ctx.version?.warning) Object.assign(body.meta, { warning: ctx.version.warning });
  ctx.response = { status: error.status, body: JSON.stringify(body), headers: { ...ctx.headers, ...(error.headers ?? {}) } };
  await releaseIdempotencyKey(ctx);
}
