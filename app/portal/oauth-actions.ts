"use server";
// The portal's OAuth writes: registering and deleting clients, and revoking authorized apps. Same-origin POSTs
// only (Next's server-action check), each validated with the API's zod schema and run through the API's domain
// functions as the signed-in user.
import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ApiError } from "@/lib/api/errors";
import { zodToApiError } from "@/lib/api/zod-errors";
import { grants } from "@/lib/auth/scopes";
import { clientIp } from "@/lib/auth/client-ip";
import { OAuthClientCreate } from "@/lib/schemas/oauth-client";
import { createOAuthClient, deleteOAuthClient } from "@/lib/oauth/manage-clients";
import { revokeAuthorizedApp } from "@/lib/oauth/authorized-apps";
import { requirePortalContext, type PortalContext } from "@/lib/portal/portal-context";
import type { ActionResult } from "./actions";

async function run<T>(scope: string | null, work: (ctx: PortalContext, client: { ip: string | null; userAgent: string | null }) => Promise<T>, paths: string[]): Promise<ActionResult<T>> {
  const ctx = await requirePortalContext();
  if (scope && !grants(ctx.auth.scopes, scope)) return { ok: false, error: { message: `Your role (${ctx.role}) cannot do this.`, code: "INSUFFICIENT_SCOPE" } };
  const h = await headers();
  try {
    const data = await work(ctx, { ip: clientIp(h), userAgent: h.get("user-agent") });
    for (const p of paths) revalidatePath(p);
    return { ok: true, data };
  } catch (e) {
    const err = e instanceof z.ZodError ? zodToApiError(e, "body") : e;
    if (err instanceof ApiError) return { ok: false, error: { message: err.message, field: err.field, code: err.code } };
    console.error("portal OAuth action failed", e);
    return { ok: false, error: { message: "Something went wrong. Try again." } };
  }
}

export async function createOAuthClientAction(input: unknown) {
  return run("oauth_clients:write", (ctx, client) => createOAuthClient({ auth: ctx.auth, ...client, actorType: "user" }, OAuthClientCreate.parse(input)), ["/portal/oauth-apps"]);
}

export async function deleteOAuthClientAction(id: string) {
  return run("oauth_clients:delete", (ctx, client) => deleteOAuthClient({ auth: ctx.auth, ...client, actorType: "user" }, String(id)), ["/portal/oauth-apps"]);
}

export async function revokeAuthorizedAppAction(clientId: string, userId: string) {
  return run(null, async (ctx, client) => {
    const isAdmin = ctx.role === "owner" || ctx.role === "admin";
    if (userId !== ctx.user.id && !isAdmin) throw new ApiError({ status: 403, type: "authorization_error", code: "INSUFFICIENT_SCOPE", message: "Only owners and admins can revoke another member's apps." });
    return revokeAuthorizedApp({ userId: ctx.user.id, businessId: ctx.business.id, isAdmin, ...client }, String(clientId), String(userId));
  }, ["/portal/settings"]);
}
