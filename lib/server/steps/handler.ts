import type { AuthContext } from "@/lib/http/auth-context";
import type { RequestContext } from "../request-context";

/** Step 10: the route's own work. Skipped when an earlier step already answered (an idempotent replay). */
export async function runHandler(ctx: RequestContext): Promise<void> {
  if (ctx.response) return;
  const { request } = ctx;
  const started = performance.now();
  ctx.result = await ctx.route.handler({
    requestId: ctx.requestId, auth: ctx.auth as AuthContext, params: ctx.params, query: ctx.query, body: ctx.body,
    version: ctx.version!, baseUrl: request.baseUrl, client: { ip: ctx.ip, userAgent: request.headers.get("user-agent") },
  });
  ctx.computeMs = performance.now() - started;
}
