// GET /api/portal/metrics/overview?period=: the Usage view's charts: the period, the one before it and the month's quota
import { portalRead } from "@/lib/portal/portal-json";
import { PERIODS, type Period } from "@/lib/usage/metrics";
import { usageOverview } from "@/lib/usage/usage-overview";
import { invalidParameter } from "@/lib/http/errors";

export const GET = portalRead(async (ctx, url) => {
  const period = url.searchParams.get("period") ?? "day";
  if (!Object.hasOwn(PERIODS, period)) throw invalidParameter("period", "Use hour, day, week or month.");
  return usageOverview(ctx.auth, period as Period);
});
