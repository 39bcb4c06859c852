// GET /api/portal/logs/{id}[?portal=slug]: one request for the drawer; with `portal`, only one of that portal's calls
import { portalRead } from "@/lib/portal/portal-json";
import { getLogDetail } from "@/lib/usage/log-detail";
import { portalLogScope } from "@/lib/apps/portal-scope";

export const GET = portalRead(async (ctx, url) =>
  getLogDetail(ctx.auth, url.pathname.split("/").pop() ?? "", await portalLogScope(url.searchParams.get("portal"), ctx.business.id)),
);
