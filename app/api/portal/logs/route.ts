// GET /api/portal/logs?…: the request log with the API's collection parameters (portal refresh)
import { portalRead } from "@/lib/portal/portal-json";
import { parseCollectionQuery } from "@/lib/http/collection-query";
import { LOG_COLLECTION, listLogs } from "@/lib/usage/routes";

export const GET = portalRead((ctx, url) => listLogs(ctx.auth, parseCollectionQuery(url.searchParams, LOG_COLLECTION)));
