// GET, POST /api/test-clock: read or move the server's clock. An operator endpoint: it exists only when both
// PLATFORM_TEST_CLOCK=true and PLATFORM_ADMIN_TOKEN are set (otherwise every method answers 404 like any unknown
// path), and every call must carry `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>` (401 otherwise), because moving
// the clock moves it for every user of the server: in every process, through the bus. The data plane answers it
// (lib/server/node-front-door.ts), because the jobs it can run once live there; app/api/test-clock serves it under
// `next dev`.
import { now, offsetClock, setClock } from "@/lib/clock";
import { publish, subscribe } from "@/lib/redis/bus";
import { wakeWorker } from "@/lib/webhooks/worker";
import { runJobsOnce } from "@/lib/jobs/scheduler";
import { adminGate } from "@/lib/admin/admin-gate";

const g = globalThis as unknown as { __testClockOffset?: number; __testClockWarned?: boolean };

/** null when the call may proceed; otherwise the answer. */
const gate = (req: Request): Response | null =>
  adminGate(req, process.env.PLATFORM_TEST_CLOCK === "true", () => {
    if (!g.__testClockWarned)
      console.warn("[test-clock] PLATFORM_TEST_CLOCK=true is ignored: set PLATFORM_ADMIN_TOKEN to enable the endpoint");
    g.__testClockWarned = true;
  });

/** GET: the server's time and offset. */
export function getTestClock(req: Request): Response {
  const refused = gate(req);
  if (refused) return refused;
  return Response.json({ now: now().toISOString(), offsetMs: g.__testClockOffset ?? 0 });
}

/** Body: {"advanceMs": n} to move forward, or {"offsetMs": n} to set the offset from real time (0 resets);
 * with "runJobs": true the scheduled jobs (invoice finalisation, payment retries, ...) run once at the new time. */
export async function moveTestClock(req: Request): Promise<Response> {
  const refused = gate(req);
  if (refused) return refused;
  const body = (await req.json().catch(() => ({}))) as { advanceMs?: number; offsetMs?: number; runJobs?: boolean };
  const offset = typeof body.offsetMs === "number" ? body.offsetMs : (g.__testClockOffset ?? 0) + (Number(body.advanceMs) || 0);
  applyOffset(offset);
  // Every other process (Next, the data plane's other workers) moves too, before this call returns.
  publish(TOPIC, String(offset));
  if (body.runJobs) await runJobsOnce(() => {}, { waitForLeases: true });
  return Response.json({ now: now().toISOString(), offsetMs: offset });
}

const TOPIC = "test-clock";

function applyOffset(offset: number): void {
  g.__testClockOffset = offset;
  setClock(offsetClock(offset));
  wakeWorker();
}

/** In every server process when the endpoint is on: the clock follows the one the endpoint moved. */
export function listenForTestClock(): void {
  if (process.env.PLATFORM_TEST_CLOCK !== "true") return;
  subscribe(TOPIC, (message) => {
    const offset = Number(message);
    if (Number.isFinite(offset)) applyOffset(offset);
  });
}
