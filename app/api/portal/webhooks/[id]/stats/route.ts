// GET /api/portal/webhooks/{id}/stats?window=24h|7d: an endpoint's success rate and answer time per bucket
import { portalRead } from "@/lib/portal/portal-json";
import { endpointStats } from "@/lib/webhooks/delivery-stats";

export const GET = portalRead((ctx, url) =>
  endpointStats(ctx.auth, url.pathname.split("/").at(-2) ?? "", url.searchParams.get("window") ?? "24h"),
);
