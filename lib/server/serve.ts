import { ApiError } from "@/lib/http/errors";
import { errorBody } from "@/lib/http/error-mapper";
import { newRequestId } from "@/lib/http/request-id";
import { runRoute, publicBaseUrl } from "./pipeline";
import { routesForPath } from "./route-table";
import { HTTP_METHODS, type HttpMethod } from "@/lib/http/route";

type NextHandler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

function errorResponse(req: Request, error: ApiError): Response {
  const requestId = newRequestId();
  return new Response(JSON.stringify(errorBody(error, requestId, publicBaseUrl(req))), {
    status: error.status,
    headers: { "Content-Type": "application/json", "X-Request-Id": requestId, ...(error.headers ?? {}) },
  });
}

/**
 * The handlers a route file exports for one path of the route table. Methods the path does not serve answer
 * 405 with an `Allow` header, in the error envelope.
 */
export function serve(path: string): Record<HttpMethod, NextHandler> {
  const routes = routesForPath(path);
  if (routes.length === 0) throw new Error(`No route in the route table for ${path}`);
  const allow = routes.map((r) => r.method).join(", ");
  const out = {} as Record<HttpMethod, NextHandler>;
  for (const method of HTTP_METHODS) {
    const route = routes.find((r) => r.method === method);
    out[method] = route
      ? async (req, ctx) => {
          const raw = await ctx.params;
          const params: Record<string, string> = {};
          for (const [k, v] of Object.entries(raw ?? {})) params[k] = Array.isArray(v) ? v.join("/") : v;
          return runRoute(route, req, params);
        }
      : async (req) => errorResponse(req, new ApiError({
          status: 405, type: "validation_error", code: "METHOD_NOT_ALLOWED",
          message: `${method} is not allowed on ${path}.`, suggestion: `Use ${allow}.`, headers: { Allow: allow },
        }));
  }
  return out;
}

/** Every method on a path no route serves: 404 ROUTE_NOT_FOUND in the error envelope. */
export function serveNotFound(): Record<HttpMethod, NextHandler> {
  const handler: NextHandler = async (req) => errorResponse(req, new ApiError({
    status: 404, type: "not_found_error", code: "ROUTE_NOT_FOUND",
    message: `No route matches ${req.method} ${new URL(req.url).pathname.slice(0, 200)}.`,
    suggestion: "See the API reference at /docs or the OpenAPI document at /v1/openapi.json.",
  }));
  return Object.fromEntries(HTTP_METHODS.map((m) => [m, handler])) as Record<HttpMethod, NextHandler>;
}
