// GET /api/portal/metrics?period=: the signed-in user's usage metrics (portal refresh)
import { portalRead } from "@/lib/portal/portal-json";
import { usageMetrics, type Period } from "@/lib/usage/metrics";
import { invalidParameter } from "@/lib/http/errors";

export const GET = portalRead(async (ctx, url) => {
  const period = url.searchParams.get("period") ?? "day";
  if (!["hour", "day", "week", "month"].includes(period)) throw invalidParameter("period", "Use hour, day, week or month.");
  return usageMetrics(ctx.auth, period as Period);
});
