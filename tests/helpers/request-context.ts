// A RequestContext for the pipeline's step tests: a route, a request and an authenticated caller, no server.
import { z } from "zod";
import { defineRoute, type AnyRoute } from "@/lib/http/route";
import type { AuthContext } from "@/lib/http/auth-context";
import { createRequestContext, type RequestContext } from "@/lib/server/request-context";

export const testAuth = (over: Partial<AuthContext> = {}): AuthContext => ({
  principal: { kind: "api_key", id: "key_test" },
  businessId: "biz_test",
  projectId: "proj_test",
  environment: "test",
  scopes: ["products:read"],
  plan: "enterprise",
  rateLimit: null,
  restrictions: null,
  ...over,
});

export const testRoute = (over: Partial<AnyRoute> = {}): AnyRoute =>
  defineRoute({
    method: "GET",
    path: "/v1/widgets/{id}",
    summary: "A widget",
    tag: "Test",
    scope: "products:read",
    params: z.object({ id: z.string().min(3) }),
    response: { kind: "single", status: 200, schema: z.object({ id: z.string() }) },
    handler: async ({ params }) => ({ id: params.id }),
    ...over,
  } as AnyRoute);

export function testContext(
  opts: {
    route?: AnyRoute;
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    params?: Record<string, string>;
    auth?: AuthContext | null;
  } = {},
): RequestContext {
  const route = opts.route ?? testRoute();
  const url = new URL(opts.path ?? "/v1/widgets/wid_1", "http://api.test");
  const ctx = createRequestContext(
    {
      method: opts.method ?? route.method,
      url,
      headers: new Headers(opts.headers ?? {}),
      baseUrl: "http://api.test",
      readText: async () => opts.body ?? "",
    },
    route,
    opts.params ?? { id: "wid_1" },
    new Date("2026-11-25T12:00:00Z"),
  );
  ctx.requestId = "req_test";
  ctx.headers["X-Request-Id"] = "req_test";
  if (opts.auth !== undefined) ctx.auth = opts.auth;
  return ctx;
}
