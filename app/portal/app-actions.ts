"use server";
// The console's app writes (/portal/apps): the same domain functions as POST, PATCH and DELETE /v1/apps, as the
// signed-in user, so `app.*` events and audit entries happen as they do for the API. A refusal names the field's
// full path (`config.periods[2]`, `theme.custom.accent`) in `error.path`, which the editor shows beside that field.
import { AppCreate, AppUpdate } from "@/lib/schemas/app";
import { createApp, deleteApp, updateApp, type AppCaller } from "@/lib/apps/manage-apps";
import { runAction, type RequestClient } from "@/lib/portal/run-action";
import type { PortalContext } from "@/lib/portal/portal-context";

const caller = (ctx: PortalContext, client: RequestClient): AppCaller => ({ auth: ctx.auth, ...client, actorType: "user" });

export async function createAppAction(input: unknown) {
  return runAction(
    "apps:write",
    async (ctx, client) => {
      const app = await createApp(caller(ctx, client), AppCreate.parse(input));
      return { id: app.id };
    },
    ["/portal/apps"],
  );
}

export async function updateAppAction(id: string, input: unknown) {
  return runAction("apps:write", async (ctx, client) => updateApp(caller(ctx, client), String(id), AppUpdate.parse(input)), [
    "/portal/apps",
    `/portal/apps/${id}`,
  ]);
}

export async function deleteAppAction(id: string) {
  return runAction("apps:delete", async (ctx, client) => deleteApp(caller(ctx, client), String(id)), ["/portal/apps"]);
}
