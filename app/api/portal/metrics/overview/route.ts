// GET /api/portal/metrics/overview?period=[&portal=slug]: the Usage view's charts: the period, the one before it and
// the month's quota; with `portal`, that product portal's calls against the visitor's plan (lib/billing/product-usage.ts)
import { portalRead } from "@/lib/portal/portal-json";
import { PERIODS, type Period } from "@/lib/usage/metrics";
import { usageOverview } from "@/lib/usage/usage-overview";
import { productUsageOverview } from "@/lib/billing/product-usage";
import { portalScope } from "@/lib/apps/portal-scope";
import { invalidParameter } from "@/lib/http/errors";

export const GET = portalRead(async (ctx, url) => {
  const period = url.searchParams.get("period") ?? "day";
  if (!Object.hasOwn(PERIODS, period)) throw invalidParameter("period", "Use hour, day, week or month.");
  const slug = url.searchParams.get("portal");
  if (!slug) return usageOverview(ctx.auth, period as Period);
  const { portal, productIds } = await portalScope(slug, ctx.business.id, "usage");
  if (!portal.app.views.usage.periods.includes(period as Period))
    throw invalidParameter("period", `This portal shows ${portal.app.views.usage.periods.join(", ")}.`);
  return productUsageOverview(ctx.auth, period as Period, productIds);
});
