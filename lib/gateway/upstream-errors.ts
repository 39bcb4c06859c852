import { ApiError } from "@/lib/http/errors";
import type { UpstreamFault } from "./proxy";

// The refusals a call to a product's upstream ends in, the same for a /gw pass-through and an MCP tool call.

/** The status a fault answers with: 504 when the upstream did not answer in time, 502 otherwise. */
export const faultStatus = (fault: UpstreamFault) => (fault === "UPSTREAM_TIMEOUT" ? 504 : 502);

/** The product's circuit is open (lib/gateway/circuit-breaker.ts): the call is not sent. */
export const circuitOpen = () =>
  new ApiError({
    status: 502,
    type: "server_error",
    code: "UPSTREAM_UNAVAILABLE",
    message: "The product's upstream is failing; calls are paused for a moment (circuit open).",
    suggestion: "Retry in a little while.",
  });

/** The upstream failed before answering. */
export const upstreamFailed = (fault: UpstreamFault, message: string | null) =>
  new ApiError({
    status: faultStatus(fault),
    type: "server_error",
    code: fault,
    message: message ?? "The upstream failed.",
    suggestion: "Retry later; if it persists, the product's provider is the one to tell.",
  });
