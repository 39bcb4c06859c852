// GET /api/portal/logs?status=&method=&path=&key=&range=|from=&to=&q=&cursor=: the portal's log search (lib/usage/log-search.ts)
import { portalRead } from "@/lib/portal/portal-json";
import { searchLogs } from "@/lib/usage/log-search";

export const GET = portalRead((ctx, url) => searchLogs(ctx.auth, url.searchParams));
