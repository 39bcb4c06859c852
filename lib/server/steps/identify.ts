import { newRequestId } from "@/lib/http/request-id";
import { clientIp } from "@/lib/auth/client-ip";
import type { RequestContext } from "../request-context";

/** Step 1: a request id every answer and log line carries, the answer's base headers, and the caller's address. */
export function identifyRequest(ctx: RequestContext): void {
  ctx.requestId = newRequestId();
  ctx.headers["X-Request-Id"] = ctx.requestId;
  ctx.headers["Cache-Control"] = "no-store";
  ctx.headers["Content-Type"] = "application/json";
  ctx.ip = clientIp(ctx.request.headers);
}
