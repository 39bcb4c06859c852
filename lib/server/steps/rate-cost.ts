import { rateProductCall } from "@/lib/billing/rate-request";
import { nanosToNumber } from "@/lib/billing/money";
import type { RequestContext } from "../request-context";
import { authenticated, type StepDoc } from "../step-doc";

/** Bytes in and out, as billed: the declared request length (or the body read) plus the answer's body. */
export function requestBytes(ctx: RequestContext): number {
  return Number(ctx.request.headers.get("content-length") ?? Buffer.byteLength(ctx.rawBody));
}

/**
 * Outbound: what a product call cost under the consumer's subscription price (`X-Request-Cost`). Rated from the
 * in-memory subscription cache (lib/billing/rate-request.ts): no query on the call's path. Calls of /v1 carry no
 * subscription: the control plane is never billed as product usage.
 */
export async function rateCost(ctx: RequestContext): Promise<void> {
  const { subscription, response } = ctx;
  if (!subscription || !response) return;
  const bytes = requestBytes(ctx) + (response.body ? Buffer.byteLength(response.body) : 0);
  let rated;
  try {
    rated = await rateProductCall(subscription, { at: ctx.at, statusCode: response.status, bytes, computeMs: ctx.computeMs });
  } catch (e) {
    console.error("[billing] rating failed", e);
    return;
  }
  if (!rated) return;
  response.headers["X-Request-Cost"] = `${rated.decimal} ${rated.currency}`;
  ctx.cost = nanosToNumber(rated.nanos);
}

export const rateCostDoc: StepDoc = {
  step: "rate-cost",
  appliesTo: authenticated,
  headers: {
    "X-Request-Cost": {
      description: "What this product call cost under the subscription's price, e.g. `0.01 USD`",
      schema: { type: "string" },
      on: "success",
    },
  },
};
