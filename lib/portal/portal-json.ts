import "server-only";
import { ApiError } from "@/lib/http/errors";
import { toApiError } from "@/lib/http/error-mapper";
import { getPortalContext, type PortalContext } from "./portal-context";

/**
 * A read for the portal's client-side refresh (TanStack Query). Signed-in users only, same-origin only (the
 * browser sends the session cookie; a cross-site page cannot read the answer, and these routes never write).
 */
export function portalRead(read: (ctx: PortalContext, url: URL) => Promise<unknown>) {
  return async (req: Request) => {
    const ctx = await getPortalContext();
    if (!ctx) return Response.json({ error: { code: "UNAUTHENTICATED", message: "Sign in to the portal." } }, { status: 401 });
    try {
      return Response.json({ data: await read(ctx, new URL(req.url)) }, { headers: { "Cache-Control": "no-store" } });
    } catch (e) {
      const err = e instanceof ApiError ? e : toApiError(e, "portal");
      return Response.json({ error: { code: err.code, message: err.message, field: err.field } }, { status: err.status });
    }
  };
}
