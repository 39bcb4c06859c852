import { z } from "zod";
import { now } from "@/lib/clock";
import { forbidden } from "./errors";
import { toApiError, errorBody } from "./error-mapper";
import { zodToApiError } from "./zod-errors";
import { meta, singleEnvelope, collectionEnvelope } from "./envelope";
import { newRequestId } from "./request-id";
import { readJsonBody } from "./read-body";
import { parseCollectionQuery } from "./collection-query";
import { beginIdempotent, completeIdempotent, abandonIdempotent, requestHash, validateIdempotencyKey } from "./idempotency";
import { resolveVersion, type ResolvedVersion } from "@/lib/versions/resolve-version";
import { versionRegistry } from "@/lib/versions/registry";
import { extractCredential } from "@/lib/auth/credentials";
import { verifyApiKey } from "@/lib/auth/verify-api-key";
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
// request id → version → authentication → scope → input parsing → idempotency → handler → envelope,
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
    throw forbidden("INSUFFICIENT_SCOPE", `This API key lacks the '${scope}' scope.`, { requiredScope: scope },
      { keyId: auth.keyId, businessId: auth.businessId, environment: auth.environment });
  }
}

/** Every refused credential (401, or 403 from a scope or restriction) goes to the audit log. */
function auditDenial(error: ApiError, auth: AuthContext | null, req: Request, path: string, ip: string | null): void {
  if (error.status !== 401 && !(error.status === 403 && (error.subject || auth))) return;
  const subject = error.subject ?? (auth ? { keyId: auth.keyId, businessId: auth.businessId, environment: auth.environment } : undefined);
  recordAudit({
    businessId: subject?.businessId ?? null, environment: subject?.environment ?? null,
    actorType: subject ? "api_key" : "anonymous", actorId: subject?.keyId ?? null, action: "auth.denied",
    targetType: "route", targetId: null, ip, userAgent: req.headers.get("user-agent"), method: req.method, path,
    details: { code: error.code, status: error.status },
  });
}

function parseWith<T>(schema: z.ZodType<T> | undefined, input: unknown, location: "body" | "query" | "params"): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(input);
  if (!result.success) throw zodToApiError(result.error, location);
  return result.data;
}

/** The query object a non-collection route validates: everything but the pipeline's own parameters. */
function plainQuery(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) if (k !== "api_key" && k !== "version" && k !== "api-version") out[k] = v;
  return out;
}

function json(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers });
}

export async function runRoute(route: AnyRoute, req: Request, rawParams: Record<string, string>): Promise<Response> {
  const requestId = newRequestId();
  const url = new URL(req.url);
  const baseUrl = publicBaseUrl(req);
  const headers: Record<string, string> = { "X-Request-Id": requestId, "Cache-Control": "no-store", "Content-Type": "application/json" };
  let version: ResolvedVersion | undefined;
  let idempotencyRecord: string | undefined;
  let auth: AuthContext | null = null;
  const ip = clientIp(req.headers);
  try {
    version = resolveVersion({ pathVersion: route.path.split("/")[1], headers: req.headers, query: url.searchParams, baseUrl }, versionRegistry(), now());
    Object.assign(headers, version.headers, { "Content-Type": version.contentType });

    if (route.auth !== "none") {
      listenForKeyChanges();
      auth = await verifyApiKey(extractCredential(req.headers, url.searchParams));
      enforceRestrictions(auth, ip, req.headers);
      authorize(auth, route.scope);
      touchLastUsed(auth.keyId);
    }

    const params = parseWith(route.params, rawParams, "params");
    const query = route.collection ? parseCollectionQuery(url.searchParams, route.collection) : parseWith(route.query, plainQuery(url.searchParams), "query");
    const rawBody = route.body ? await readJsonBody(req) : { raw: "", value: undefined };
    const body = parseWith(route.body, rawBody.value, "body");

    const idempotencyKey = req.method === "POST" && auth ? req.headers.get("idempotency-key") : null;
    if (idempotencyKey !== null && auth) {
      validateIdempotencyKey(idempotencyKey);
      const outcome = await beginIdempotent(auth, idempotencyKey, req.method, url.pathname, requestHash(req.method, url.pathname, rawBody.raw));
      if (outcome.kind === "replay") {
        return new Response(outcome.response.body || null, { status: outcome.response.status === 204 ? 204 : 200, headers: { ...headers, "Idempotent-Replayed": "true" } });
      }
      idempotencyRecord = outcome.recordId;
    }

    const client = { ip, userAgent: req.headers.get("user-agent") };
    const result = await route.handler({ req, requestId, auth: auth as AuthContext, params, query, body, version, baseUrl, client });
    const m = meta(requestId, version.warning);
    let response: Response;
    switch (route.response.kind) {
      case "single": response = json(route.response.status, singleEnvelope(result, m), headers); break;
      case "collection": {
        const r = result as CollectionResult;
        response = json(200, collectionEnvelope(r.data, r.pagination, m), headers);
        break;
      }
      case "empty": response = new Response(null, { status: 204, headers: { "X-Request-Id": requestId, ...version.headers } }); break;
      case "raw": response = json(200, result, headers); break;
    }
    if (idempotencyRecord) {
      await completeIdempotent(idempotencyRecord, { status: response.status, body: response.status === 204 ? "" : await response.clone().text() });
    }
    return response;
  } catch (err) {
    if (idempotencyRecord) await abandonIdempotent(idempotencyRecord).catch(() => {});
    const error = toApiError(err, requestId);
    auditDenial(error, auth, req, url.pathname, ip);
    const body = errorBody(error, requestId, baseUrl);
    if (version?.warning) Object.assign(body.meta, { warning: version.warning });
    return json(error.status, body, { ...headers, ...(error.headers ?? {}) });
  }
}
