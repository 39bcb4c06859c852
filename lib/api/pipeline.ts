import { z } from "zod";
import { now } from "@/lib/clock";
import { forbidden } from "./errors";
import { toApiError, errorBody } from "./error-mapper";
import { zodToApiError } from "./zod-errors";
import { meta, singleEnvelope, collectionEnvelope } from "./envelope";
import { newRequestId } from "./request-id";
import { readJsonBody } from "./read-body";
import { parseCollectionQuery } from "./collection-query";
import { beginIdempotent, completeIdempotent, abandonIdempotent, markCommitted, requestHash, validateIdempotencyKey, type IdempotencyClaim, type StoredResponse } from "./idempotency";
import { runWithCommitHook, type CommitScope } from "@/lib/db/commit-hook";
import { admit, type Admission } from "@/lib/limits/rate-limit";
import { consumeQuota } from "@/lib/usage/quota";
import { recordRequest } from "@/lib/usage/recorder";
import { rateRequest } from "@/lib/billing/rate-request";
import { nanosToNumber } from "@/lib/billing/money";
import { resolveVersion, type ResolvedVersion } from "@/lib/versions/resolve-version";
import { versionRegistry } from "@/lib/versions/registry";
import { extractCredential } from "@/lib/auth/credentials";
import { verifyCredential } from "@/lib/auth/verify-credential";
import { grants } from "@/lib/auth/scopes";
import { touchLastUsed } from "@/lib/auth/last-used";
import { clientIp } from "@/lib/auth/client-ip";
import { enforceRestrictions } from "@/lib/auth/restrictions";
import { listenForKeyChanges } from "@/lib/auth/key-invalidation";
import { recordAudit } from "@/lib/audit/record-audit";
import { ApiError } from "./errors";
import type { AuthContext } from "@/lib/auth/auth-context";
import type { AnyRoute, CollectionResult } from "./route";

// The request pipeline every /v1 route runs through, one small step after another:
// request id → version → authentication → restrictions → rate limit → scope → quota → input parsing →
// idempotency → handler → envelope → usage and log recording (queued, written off the request's path),
// with every thrown error mapped to the spec's error envelope in one place.

/** PUBLIC_BASE_URL when set (behind a proxy); otherwise the address the client used. */
export function publicBaseUrl(req: Request): string {
  if (process.env.PUBLIC_BASE_URL) return process.env.PUBLIC_BASE_URL.replace(/\/+$/, "");
  const url = new URL(req.url);
  const host = req.headers.get("host");
  return host && /^[A-Za-z0-9.:[\]-]{1,255}$/.test(host) ? `${url.protocol}//${host}` : url.origin;
}

export function authorize(auth: AuthContext, scope: string | undefined): void {
  if (scope && !grants(auth.scopes, scope)) {
    throw forbidden("INSUFFICIENT_SCOPE", `This ${auth.oauth ? "access token" : "API key"} lacks the '${scope}' scope.`, { requiredScope: scope }, subjectOf(auth));
  }
}

/** Who a refusal is recorded against: the key, or for an OAuth token the client acting under its grant. */
function subjectOf(auth: AuthContext): NonNullable<ApiError["subject"]> {
  const base = { keyId: auth.keyId, businessId: auth.businessId, environment: auth.environment };
  return auth.oauth ? { ...base, actorType: "oauth_client", actorId: auth.oauth.clientId } : base;
}

/** Every refused credential (401, or 403 from a scope or restriction) goes to the audit log. */
function auditDenial(error: ApiError, auth: AuthContext | null, req: Request, path: string, ip: string | null): void {
  if (error.status !== 401 && !(error.status === 403 && (error.subject || auth))) return;
  const subject = error.subject ?? (auth ? subjectOf(auth) : undefined);
  recordAudit({
    businessId: subject?.businessId ?? null, environment: subject?.environment ?? null,
    actorType: subject ? subject.actorType ?? "api_key" : "anonymous", actorId: subject ? subject.actorId ?? subject.keyId : null, action: "auth.denied",
    targetType: "route", targetId: null, ip, userAgent: req.headers.get("user-agent"), method: req.method, path,
    details: { code: error.code, status: error.status, ...(subject?.actorType === "oauth_client" ? { grantId: subject.keyId } : {}) },
  });
}

function parseWith<T>(schema: z.ZodType<T> | undefined, input: unknown, location: "body" | "query" | "params"): T {
  if (!schema) return undefined as T;
  // reportInput: the error mapper tells an absent field (MISSING_REQUIRED_FIELD) from a wrong one by the input.
  const result = schema.safeParse(input, { reportInput: true });
  if (!result.success) throw zodToApiError(result.error, location);
  return result.data;
}

/** The query object a non-collection route validates: everything but the pipeline's own parameters. */
function plainQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (k !== "api_key" && k !== "version" && k !== "api-version") out[k] = v;
  return out;
}

/** A response plus the text of its body, which the request log keeps. */
interface Outcome { status: number; body: string | null; headers: Record<string, string> }

function toResponse(o: Outcome): Response {
  return new Response(o.body, { status: o.status, headers: o.headers });
}

function envelopeFor(route: AnyRoute, result: unknown, m: ReturnType<typeof meta>): { status: number; body: string | null } {
  switch (route.response.kind) {
    case "single": return { status: route.response.status, body: JSON.stringify(singleEnvelope(result, m)) };
    case "collection": {
      const r = result as CollectionResult;
      return { status: 200, body: JSON.stringify(collectionEnvelope(r.data, r.pagination, m)) };
    }
    case "empty": return { status: 204, body: null };
    case "raw": return { status: 200, body: JSON.stringify(result) };
    case "text": return { status: 200, body: result as string };
  }
}

export async function runRoute(route: AnyRoute, req: Request, rawParams: Record<string, string>): Promise<Response> {
  const started = performance.now();
  const at = now();
  const requestId = newRequestId();
  const url = new URL(req.url);
  const baseUrl = publicBaseUrl(req);
  const headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store", "Content-Type": "application/json" };
  let version: ResolvedVersion | undefined;
  let idempotencyClaim: IdempotencyClaim | undefined;
  let commitScope: CommitScope | undefined;
  let auth: AuthContext | null = null;
  let admission: Admission | null = null;
  let rawBody = "";
  let computeMs = 0;
  const ip = clientIp(req.headers);
  let outcome: Outcome;
  let errorType: string | null = null;
  try {
    version = resolveVersion({ pathVersion: route.path.split("/")[1], headers: req.headers, query: url.searchParams, baseUrl }, versionRegistry(), at);
    Object.assign(headers, version.headers, { "Content-Type": version.contentType });

    if (route.auth !== "none") {
      listenForKeyChanges();
      auth = await verifyCredential(extractCredential(req.headers, url.searchParams));
      enforceRestrictions(auth, ip, req.headers);
      admission = await admit(auth);
      Object.assign(headers, admission.headers);
      authorize(auth, route.scope);
      await consumeQuota(auth);
      touchLastUsed(auth);
    }

    const params = parseWith(route.params, rawParams, "params");
    const query = route.collection ? parseCollectionQuery(url.searchParams, route.collection) : parseWith(route.query, plainQuery(url.searchParams), "query");
    const json = route.body ? await readJsonBody(req) : { raw: "", value: undefined };
    rawBody = json.raw;
    const body = parseWith(route.body, json.value, "body");

    const idempotencyKey = req.method === "POST" && auth ? req.headers.get("idempotency-key") : null;
    let replay: StoredResponse | null = null;
    if (idempotencyKey !== null && auth) {
      validateIdempotencyKey(idempotencyKey);
      const begun = await beginIdempotent(auth, idempotencyKey, req.method, url.pathname, requestHash(req.method, url.pathname, rawBody));
      if (begun.kind === "replay") replay = begun.response;
      else idempotencyClaim = begun.claim;
    }

    if (replay) {
      outcome = { status: replay.status >= 400 ? replay.status : replay.status === 204 ? 204 : 200, body: replay.body || null, headers: { ...headers, "Idempotent-Replayed": "true" } };
    } else {
      const client = { ip, userAgent: req.headers.get("user-agent") };
      const handlerStarted = performance.now();
      const input = { req, requestId, auth: auth as AuthContext, params, query, body, version, baseUrl, client };
      const run = () => route.handler(input);
      // With a claimed key, the handler's transactions mark the record as they commit (idempotency.ts).
      const claim = idempotencyClaim;
      const result = claim
        ? await runWithCommitHook((tx) => markCommitted(claim, tx), (scope) => { commitScope = scope; return run(); })
        : await run();
      computeMs = performance.now() - handlerStarted;
      const { status, body: text } = envelopeFor(route, result, meta(requestId, version.warning));
      if (route.response.kind === "text") headers["Content-Type"] = route.response.contentType;
      outcome = { status, body: text, headers: status === 204 ? { "X-Request-Id": requestId, ...version.headers, ...(admission?.headers ?? {}) } : headers };
      if (idempotencyClaim) await completeIdempotent(idempotencyClaim, { status, body: text ?? "" });
    }
  } catch (err) {
    const error = toApiError(err, requestId);
    errorType = error.type;
    auditDenial(error, auth, req, url.pathname, ip);
    const body = errorBody(error, requestId, baseUrl);
    if (version?.warning) Object.assign(body.meta, { warning: version.warning });
    outcome = { status: error.status, body: JSON.stringify(body), headers: { ...headers, ...(error.headers ?? {}) } };
    // A request that failed before committing anything frees its key; one that failed after a commit (a handler
    // with two transactions) is not run twice: its error is what the key replays.
    if (idempotencyClaim && commitScope?.committed) await completeIdempotent(idempotencyClaim, { status: error.status, body: outcome.body ?? "" }).catch(() => {});
    else if (idempotencyClaim) await abandonIdempotent(idempotencyClaim).catch(() => {});
  } finally {
    if (commitScope) commitScope.closed = true;
    admission?.release();
  }
  let cost: number | null = null;
  if (auth && outcome.status < 400) {
    // Rated from the in-memory subscription cache (lib/billing/rate-request.ts): no query on the request's path.
    const bytes = Number(req.headers.get("content-length") ?? Buffer.byteLength(rawBody)) + (outcome.body ? Buffer.byteLength(outcome.body) : 0);
    const rated = await rateRequest(auth, { at, statusCode: outcome.status, bytes, computeMs }).catch((e) => { console.error("[billing] rating failed", e); return null; });
    if (rated) { outcome.headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`; cost = nanosToNumber(rated.nanos); }
  }
  if (auth) {
    recordRequest({
      requestId, at, auth, method: req.method, endpoint: route.path, path: url.pathname + url.search, statusCode: outcome.status, errorType,
      latencyMs: performance.now() - started, computeMs, requestBytes: Number(req.headers.get("content-length") ?? Buffer.byteLength(rawBody)),
      responseBytes: outcome.body ? Buffer.byteLength(outcome.body) : 0, ip, userAgent: req.headers.get("user-agent"),
      requestHeaders: req.headers, requestBody: rawBody || null, responseHeaders: outcome.headers, responseBody: outcome.body, cost,
    });
  }
  return toResponse(outcome);
}
