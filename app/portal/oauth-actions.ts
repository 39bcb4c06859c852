"use server";
// The portal's OAuth writes: registering and deleting clients, and revoking authorized apps. Same-origin POSTs
// only (Next's server-action check), each validated with the API's zod schema and run through the API's domain
// functions as the signed-in user.
import { ApiError } from "@/lib/http/errors";
import { OAuthClientCreate } from "@/lib/schemas/oauth-client";
import { createOAuthClient, deleteOAuthClient } from "@/lib/oauth/manage-clients";
import { revokeAuthorizedApp } from "@/lib/oauth/authorized-apps";
import { runAction } from "@/lib/portal/run-action";

const run = runAction;

export async function createOAuthClientAction(input: unknown) {
  return run(
    "oauth_clients:write",
    (ctx, client) => createOAuthClient({ auth: ctx.auth, ...client, actorType: "user" }, OAuthClientCreate.parse(input)),
    ["/portal/oauth-apps"],
  );
}

export async function deleteOAuthClientAction(id: string) {
  return run("oauth_clients:delete", (ctx, client) => deleteOAuthClient({ auth: ctx.auth, ...client, actorType: "user" }, String(id)), [
    "/portal/oauth-apps",
  ]);
}

export async function revokeAuthorizedAppAction(clientId: string, userId: string) {
  return run(
    null,
    async (ctx, client) => {
      const isAdmin = ctx.role === "owner" || ctx.role === "admin";
      if (userId !== ctx.user.id && !isAdmin)
        throw new ApiError({
          status: 403,
          type: "authorization_error",
          code: "INSUFFICIENT_SCOPE",
          message: "Only owners and admins can revoke another member's apps.",
        });
      return revokeAuthorizedApp(
        { userId: ctx.user.id, businessId: ctx.business.id, isAdmin, ...client },
        String(clientId),
        String(userId),
      );
    },
    ["/portal/settings"],
  );
}
