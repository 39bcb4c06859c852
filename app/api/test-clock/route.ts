// GET, POST /api/test-clock: read or move the server's clock. Exists only when PLATFORM_TEST_CLOCK=true
// (the test suite); otherwise every method answers 404 like any unknown path.
import { now, offsetClock, setClock } from "@/lib/clock";
import { wakeWorker } from "@/lib/webhooks/worker";
import { runJobsOnce } from "@/lib/jobs/scheduler";

const enabled = () => process.env.PLATFORM_TEST_CLOCK === "true";
const g = globalThis as unknown as { __testClockOffset?: number };

function notFound() {
  return Response.json({ error: { type: "not_found_error", code: "ROUTE_NOT_FOUND", message: "No such route." } }, { status: 404 });
}

export function GET() {
  if (!enabled()) return notFound();
  return Response.json({ now: now().toISOString(), offsetMs: g.__testClockOffset ?? 0 });
}

/** Body: {"advanceMs": n} to move forward, or {"offsetMs": n} to set the offset from real time (0 resets);
 * with "runJobs": true the scheduled jobs (invoice finalisation, payment retries, ...) run once at the new time. */
export async function POST(req: Request) {
  if (!enabled()) return notFound();
  const body = (await req.json().catch(() => ({}))) as { advanceMs?: number; offsetMs?: number; runJobs?: boolean };
  const offset = typeof body.offsetMs === "number" ? body.offsetMs : (g.__testClockOffset ?? 0) + (Number(body.advanceMs) || 0);
  g.__testClockOffset = offset;
  setClock(offsetClock(offset));
  wakeWorker();
  if (body.runJobs) await runJobsOnce(() => {});
  return Response.json({ now: now().toISOString(), offsetMs: offset });
}
