import { processSingleton } from "@/lib/process-state";
import { NativeDate } from "@/lib/native-date";

// A per-product circuit breaker (per process): after GATEWAY_BREAKER_FAILURES consecutive upstream failures
// (connection refused or reset, timeouts, 5xx answers) the circuit opens and calls are answered 502 at once
// without reaching the upstream, for GATEWAY_BREAKER_OPEN_MS; then one call is let through (half-open): its
// success closes the circuit, its failure opens it again. A failing upstream then costs its subscribers a fast
// error instead of a timeout each, and gets room to recover. GATEWAY_BREAKER_FAILURES=0 turns it off.

export type CircuitState = "closed" | "open" | "half_open";

interface Circuit {
  state: CircuitState;
  failures: number;
  openedAt: number;
  probing: boolean;
}

// Read once (a process.env read is a call into the C++ environment, and these are asked on every call).
const FAILURES_TO_OPEN = Number(process.env.GATEWAY_BREAKER_FAILURES ?? 5);
const OPEN_MS = Number(process.env.GATEWAY_BREAKER_OPEN_MS ?? 30_000);
const circuits = processSingleton("gateway-circuits", () => new Map<string, Circuit>());

function circuitOf(productId: string): Circuit {
  let c = circuits.get(productId);
  if (!c) circuits.set(productId, (c = { state: "closed", failures: 0, openedAt: 0, probing: false }));
  return c;
}

/** Whether a call may go to the upstream now. */
export function admitCall(productId: string, nowMs = NativeDate.now()): boolean {
  if (FAILURES_TO_OPEN <= 0) return true;
  const c = circuitOf(productId);
  if (c.state === "closed") return true;
  if (c.state === "open" && nowMs - c.openedAt >= OPEN_MS) c.state = "half_open";
  if (c.state === "half_open" && !c.probing) {
    c.probing = true;
    return true;
  }
  return false;
}

export function recordOutcome(productId: string, ok: boolean, nowMs = NativeDate.now()): void {
  if (FAILURES_TO_OPEN <= 0) return;
  const c = circuitOf(productId);
  c.probing = false;
  if (ok) {
    c.state = "closed";
    c.failures = 0;
    return;
  }
  c.failures++;
  if (c.state === "half_open" || c.failures >= FAILURES_TO_OPEN) {
    c.state = "open";
    c.openedAt = nowMs;
  }
}

/** What the provider's view shows of a product's circuit in this process. */
export function circuitState(productId: string): { state: CircuitState; consecutiveFailures: number } {
  const c = circuits.get(productId);
  return { state: c?.state ?? "closed", consecutiveFailures: c?.failures ?? 0 };
}
