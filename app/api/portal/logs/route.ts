// GET /api/portal/logs?status=&method=&path=&key=&range=|from=&to=&q=&cursor=[&portal=slug]: the portal's log search
// (lib/usage/log-search.ts); with `portal`, only that product portal's calls within its retention (lib/apps/portal-scope.ts)
import { portalRead } from "@/lib/portal/portal-json";
import { searchLogs } from "@/lib/usage/log-search";
import { portalLogScope } from "@/lib/apps/portal-scope";

export const GET = portalRead(async (ctx, url) =>
  searchLogs(ctx.auth, url.searchParams, await portalLogScope(url.searchParams.get("portal"), ctx.business.id)),
);
