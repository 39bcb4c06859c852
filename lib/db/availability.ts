import { processSingleton } from "@/lib/process-state";

// Whether this process's database is answering, for the operator's log (issue 41): one `platform.degraded` line when
// a request or a usage batch first finds it unreachable, one `platform.recovered` line (with how long) when a write
// next succeeds, however many requests failed in between.

const state = processSingleton("database-availability", () => ({ since: 0 }));

export function databaseFailed(cause: unknown): void {
  if (state.since !== 0) return;
  state.since = Date.now();
  const message = String((cause as { message?: unknown })?.message ?? cause)
    .trim()
    .split("\n")
    .filter(Boolean)
    .pop();
  console.warn(JSON.stringify({ event: "platform.degraded", component: "database", cause: message }));
}

export function databaseAnswered(): void {
  if (state.since === 0) return;
  const seconds = Math.round((Date.now() - state.since) / 100) / 10;
  state.since = 0;
  console.warn(JSON.stringify({ event: "platform.recovered", component: "database", degradedSeconds: seconds }));
}
