import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { toApiError, errorBody } from "@/lib/http/error-mapper";
import { newRequestId } from "@/lib/http/request-id";
import { ROUTES } from "./route-table";
import { RouteMatcher } from "./match-route";
import { runPipeline } from "./pipeline";
import { createRequestContext, type ApiRequest, type ApiResponse } from "./request-context";

/** Paths the API answers, every one in the JSON envelope: `/v1/…`, and `/v9/…` or `/v1x` with a JSON 404. */
export const API_PATH = /^\/v\d/;

let matcher: RouteMatcher | undefined;
const routeMatcher = () => (matcher ??= new RouteMatcher(ROUTES));

/** An answer made before the pipeline runs (no route, wrong method, malformed path). */
function errorResponse(request: ApiRequest, error: ApiError): ApiResponse {
  const requestId = newRequestId();
  return {
    status: error.status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", "X-Request-Id": requestId, ...(error.headers ?? {}) },
    body: JSON.stringify(errorBody(error, requestId, request.baseUrl)),
  };
}

function routeNotFound(method: string, path: string): ApiError {
  const version = /^\/(v\d+)(?:\/|$)/.exec(path)?.[1];
  const known = version !== undefined && ROUTES.some((r) => r.path.startsWith(`/${version}/`));
  return new ApiError({
    status: 404,
    type: "not_found_error",
    code: "ROUTE_NOT_FOUND",
    message: version && !known ? `API version ${version} does not exist.` : `No route matches ${method} ${path.slice(0, 200)}.`,
    suggestion: "See the API reference at /docs or the OpenAPI document at /v1/openapi.json.",
  });
}

/** One API request, from route matching to the answer. Never throws: every failure is an error envelope. */
export async function dispatchApi(request: ApiRequest): Promise<ApiResponse> {
  const { method } = request;
  const path = request.url.pathname;
  try {
    const match = routeMatcher().match(method, path);
    if (match.kind === "none") return errorResponse(request, routeNotFound(method, path));
    if (match.kind === "method") {
      const allow = match.allow.join(", ");
      if (method === "OPTIONS")
        return {
          status: 204,
          headers: { Allow: [...match.allow, ...(match.allow.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ") },
          body: null,
        };
      return errorResponse(
        request,
        new ApiError({
          status: 405,
          type: "validation_error",
          code: "METHOD_NOT_ALLOWED",
          message: `${method} is not allowed on ${match.path}.`,
          suggestion: `Use ${match.allow.join(", ")}.`,
          headers: { Allow: allow },
        }),
      );
    }
    request.routePattern = match.route.path;
    return await runPipeline(createRequestContext(request, match.route, match.params, now()));
  } catch (err) {
    return errorResponse(request, toApiError(err, newRequestId()));
  }
}
