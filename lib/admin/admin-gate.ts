import { ApiError } from "@/lib/http/errors";
import { errorBody } from "@/lib/http/error-mapper";
import { newRequestId } from "@/lib/http/request-id";
import { publicBaseUrl } from "@/lib/http/public-base-url";
import { checkAdminToken } from "./admin-token";

// The gate of the operator's endpoints (the test clock, the platform's fee report): a route that is off answers 404 as
// if it did not exist, a request without the administrator's token 401, in the spec's error envelope.

export function refuseWith(req: Request, error: ApiError): Response {
  const requestId = newRequestId();
  return Response.json(errorBody(error, requestId, publicBaseUrl(req)), {
    status: error.status,
    headers: { "X-Request-Id": requestId, ...(error.headers ?? {}) },
  });
}

const notFound = (req: Request) =>
  refuseWith(req, new ApiError({ status: 404, type: "not_found_error", code: "ROUTE_NOT_FOUND", message: "No such route." }));

/** null when the administrator may proceed; otherwise the answer. `enabled`: whether the endpoint is on at all. */
export function adminGate(req: Request, enabled = true, onUnconfigured?: () => void): Response | null {
  if (!enabled) return notFound(req);
  const check = checkAdminToken(req.headers.get("authorization"));
  if (check === "unconfigured") {
    onUnconfigured?.();
    return notFound(req);
  }
  if (check === "refused")
    return refuseWith(
      req,
      new ApiError({
        status: 401,
        type: "authentication_error",
        code: "INVALID_ADMIN_TOKEN",
        message: "This endpoint needs the administrator's token.",
        suggestion: "Send `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`.",
        headers: { "WWW-Authenticate": 'Bearer realm="admin"' },
      }),
    );
  return null;
}
