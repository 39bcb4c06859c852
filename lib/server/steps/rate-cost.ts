import { rateRequest } from "@/lib/billing/rate-request";
import { nanosToNumber } from "@/lib/billing/money";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Bytes in and out, as billed: the declared request length (or the body read) plus the answer's body. */
export function requestBytes(ctx: RequestContext): number {
  return Number(ctx.request.headers.get("content-length") ?? Buffer.byteLength(ctx.rawBody));
}

/**
 * Outbound: what a successful call cost under the business's prices (`X-Request-Cost`). Rated from the in-memory
 * subscription cache (lib/billing/rate-request.ts): no query on the request's path.
 */
export async function rateCost(ctx: RequestContext): Promise<void> {
  const { auth, response } = ctx;
  if (!auth || !response || response.status >= 400) return;
  const bytes = requestBytes(ctx) + (response.body ? Buffer.byteLength(response.body) : 0);
  const rated = await rateRequest(auth, { at: ctx.at, statusCode: response.status, bytes, computeMs: ctx.computeMs }).catch((e) => {
    console.error("[billing] rating failed", e);
    return null;
  });
  if (!rated) return;
  response.headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`;
  ctx.cost = nanosToNumber(rated.nanos);
}

export const rateCostDoc: StepDoc = {
  step: "rate-cost",
  appliesTo: authenticated,
  headers: {
    "X-Request-Cost": {
      description: "What this call cost under the business's prices, e.g. `0.01 USD` (when the project has a subscription)",
      schema: { type: "string" },
      on: "success",
    },
  },
};
