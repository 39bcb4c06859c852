import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { invalidParameter } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { getWebhookOrThrow } from "./manage-webhooks";

// An endpoint's health as Svix's portal shows it: of the attempts made in a window, how many the receiver took
// (2xx) and how long it took to answer, per hour (24 h) or per day (7 days). Attempts come from the deliveries'
// attempt logs (every attempt is an entry); the (webhookId, createdAt) index bounds the read, and at most
// MAX_ROWS of the newest deliveries are read, which a portal chart does not need more than.

export const STATS_WINDOWS = { "24h": { span: 86_400_000, bucket: 3_600_000 }, "7d": { span: 7 * 86_400_000, bucket: 86_400_000 } };
export type StatsWindow = keyof typeof STATS_WINDOWS;
const MAX_ROWS = 5000;

interface Attempt {
  timestamp: string;
  status: number | null;
  durationMs: number;
}

interface Acc {
  attempts: number;
  succeeded: number;
  durationSum: number;
}

const summarize = (a: Acc) => ({
  attempts: a.attempts,
  succeeded: a.succeeded,
  failed: a.attempts - a.succeeded,
  successRate: a.attempts ? Math.round((a.succeeded / a.attempts) * 1000) / 10 : null,
  averageDuration: a.attempts ? Math.round(a.durationSum / a.attempts) : null,
});

/** Success rate and answer time of an endpoint's attempts, in total and per bucket, oldest bucket first. */
export async function endpointStats(auth: AuthContext, webhookId: string, window: string = "24h") {
  if (!Object.hasOwn(STATS_WINDOWS, window)) throw invalidParameter("window", "The window must be 24h or 7d.");
  const { span, bucket } = STATS_WINDOWS[window as StatsWindow];
  const w = await getWebhookOrThrow(auth, webhookId);
  const to = now();
  // Buckets on the bucket's grid (whole hours or days, UTC), the last one holding now.
  const first = Math.floor((to.getTime() - span) / bucket) * bucket + bucket;
  // A delivery made before the window may have been retried inside it (retries span up to ~2.5 hours).
  const rows = await db.webhookDelivery.findMany({
    where: { webhookId: w.id, ...tenantWhere(auth), createdAt: { gte: new Date(first - 3 * 3_600_000) } },
    select: { attemptLog: true },
    orderBy: { createdAt: "desc" },
    take: MAX_ROWS,
  });
  const total: Acc = { attempts: 0, succeeded: 0, durationSum: 0 };
  const buckets = new Map<number, Acc>();
  for (const r of rows) {
    for (const a of (r.attemptLog as Attempt[] | null) ?? []) {
      const at = Date.parse(a.timestamp);
      if (!(at >= first) || at > to.getTime()) continue;
      const start = Math.floor(at / bucket) * bucket;
      let b = buckets.get(start);
      if (!b) buckets.set(start, (b = { attempts: 0, succeeded: 0, durationSum: 0 }));
      const ok = a.status !== null && a.status >= 200 && a.status < 300;
      for (const acc of [total, b]) {
        acc.attempts++;
        if (ok) acc.succeeded++;
        acc.durationSum += a.durationMs ?? 0;
      }
    }
  }
  const series = [];
  for (let start = first; start <= to.getTime(); start += bucket) {
    series.push({
      start: new Date(start).toISOString(),
      end: new Date(start + bucket).toISOString(),
      ...summarize(buckets.get(start) ?? { attempts: 0, succeeded: 0, durationSum: 0 }),
    });
  }
  return { window, from: new Date(first).toISOString(), to: to.toISOString(), ...summarize(total), series };
}
