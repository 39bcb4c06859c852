// GET /api/portal/logs/{id}: one request log with headers and bodies (portal)
import { portalRead } from "@/lib/portal/portal-json";
import { getLogOrThrow } from "@/lib/usage/routes";

export const GET = portalRead((ctx, url) => getLogOrThrow(ctx.auth, url.pathname.split("/").pop() ?? ""));
