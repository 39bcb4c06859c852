// GET /api/portal/logs/{id}: one request with headers, bodies, timing and the usage it caused (the logs drawer)
import { portalRead } from "@/lib/portal/portal-json";
import { getLogDetail } from "@/lib/usage/log-detail";

export const GET = portalRead((ctx, url) => getLogDetail(ctx.auth, url.pathname.split("/").pop() ?? ""));
