import { newRequestId } from "@/lib/http/request-id";
import { clientIp } from "@/lib/auth/client-ip";
import type { RequestContext } from "../request-context";
import { always, type StepDoc } from "../step-doc";

/** Step 1: a request id every answer and log line carries, the answer's base headers, and the caller's address. */
export function identifyRequest(ctx: RequestContext): void {
  ctx.requestId = newRequestId();
  ctx.headers["X-Request-Id"] = ctx.requestId;
  ctx.headers["Cache-Control"] = "no-store";
  ctx.headers["Content-Type"] = "application/json";
  ctx.ip = clientIp(ctx.request.headers);
}

export const identifyRequestDoc: StepDoc = {
  step: "identify",
  appliesTo: always,
  statuses: { 500: "Server error; quote the request id" },
  headers: {
    "X-Request-Id": {
      description: "This request's id (req_...), also in meta.requestId; quote it to support",
      schema: { type: "string" },
      on: "all",
    },
  },
};
