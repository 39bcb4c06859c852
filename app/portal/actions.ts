"use server";
// The portal's writes. Each validates with the API's own zod schema and calls the same domain function the
// API does, as the signed-in user. Server actions only accept same-origin POSTs (Next checks Origin against
// Host), which is the portal's CSRF protection; the /v1 API never reads the session cookie.
import { cookies, headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { now } from "@/lib/clock";
import { ApiError } from "@/lib/http/errors";
import { ApiKeyCreate } from "@/lib/schemas/api-key";
import { WebhookCreate } from "@/lib/schemas/webhook";
import { createKeyForCaller, revealApiKey, revokeApiKey, rotateApiKey } from "@/lib/keys/manage-api-keys";
import { TRY_IT_METADATA, TRY_IT_TTL_MS, tryItScopes } from "@/lib/keys/try-it-key";
import {
  createWebhook,
  deleteWebhook,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from "@/lib/webhooks/manage-webhooks";
import { addMember, updateBusinessSettings } from "@/lib/businesses/settings";
import { clientIp } from "@/lib/auth/client-ip";
import { runAction } from "@/lib/portal/run-action";
import { ROLES, requirePortalContext, type PortalContext } from "@/lib/portal/portal-context";
import { PORTAL_ENV_COOKIE } from "@/lib/http/platform-cookies";

export type { ActionResult } from "@/lib/portal/run-action";

async function caller(ctx: PortalContext) {
  const h = await headers();
  return { auth: ctx.auth, ip: clientIp(h), userAgent: h.get("user-agent"), actorType: "user" as const };
}

/** Every write below runs through the portal's one action runner (lib/portal/run-action.ts). */
const act = runAction;

export async function setEnvironmentAction(environment: "test" | "production") {
  await requirePortalContext();
  // Secure when served over https (X-Forwarded-Proto is written by the data plane, never taken from the client).
  const secure = (await headers()).get("x-forwarded-proto") === "https";
  (await cookies()).set(PORTAL_ENV_COOKIE, environment === "production" ? "production" : "test", {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
  });
  revalidatePath("/portal", "layout");
}

export async function createKeyAction(input: unknown) {
  return act("api_keys:write", async (ctx) => createKeyForCaller(await caller(ctx), ApiKeyCreate.parse(input)), ["/portal/keys"]);
}

export async function rotateKeyAction(id: string) {
  return act("api_keys:write", async (ctx) => rotateApiKey(await caller(ctx), id), ["/portal/keys"]);
}

export async function revealKeyAction(id: string) {
  return act("api_keys:write", async (ctx) => revealApiKey(await caller(ctx), id), ["/portal/keys"]);
}

export async function revokeKeyAction(id: string) {
  return act("api_keys:delete", async (ctx) => revokeApiKey(await caller(ctx), id), ["/portal/keys"]);
}

/**
 * A short-lived test key for the docs' try-it console: one hour, the user's own access without `*` and without
 * making keys (lib/keys/try-it-key.ts), and left out of every key list.
 */
export async function issueTryItKeyAction() {
  return act("api_keys:write", async (ctx) => {
    if (ctx.environment !== "test")
      throw new ApiError({
        status: 400,
        type: "validation_error",
        code: "INVALID_FIELD",
        message: "Switch to test mode to try the API from the docs.",
      });
    const key = await createKeyForCaller(
      await caller(ctx),
      {
        name: "Docs try-it (1 hour)",
        scopes: tryItScopes(ctx.auth.scopes),
        expiresInDays: undefined,
        expiresAt: new Date(now().getTime() + TRY_IT_TTL_MS).toISOString(),
        metadata: { ...TRY_IT_METADATA },
      },
      { tryIt: true },
    );
    return { key: key.key, expiresAt: key.expiresAt };
  });
}

export async function createWebhookAction(input: unknown) {
  return act("webhooks:write", async (ctx) => createWebhook(ctx.auth, WebhookCreate.parse(input)), ["/portal/webhooks"]);
}

export async function setWebhookActiveAction(id: string, isActive: boolean) {
  return act("webhooks:write", async (ctx) => updateWebhook(ctx.auth, id, { isActive }), ["/portal/webhooks"]);
}

export async function deleteWebhookAction(id: string) {
  return act("webhooks:delete", async (ctx) => deleteWebhook(ctx.auth, id), ["/portal/webhooks"]);
}

export async function sendTestAction(id: string) {
  return act("webhooks:write", async (ctx) => sendTestEvent(ctx.auth, id), ["/portal/webhooks"]);
}

export async function rotateWebhookSecretAction(id: string) {
  return act("webhooks:write", async (ctx) => rotateWebhookSecret(ctx.auth, id), ["/portal/webhooks"]);
}

export async function retryDeliveryAction(webhookId: string, deliveryId: string) {
  return act("webhooks:write", async (ctx) => retryDelivery(ctx.auth, webhookId, deliveryId), ["/portal/webhooks"]);
}

const Settings = z.strictObject({
  businessName: z.string().trim().min(1, "Name your business.").max(200),
  projectName: z.string().trim().min(1, "Name your project.").max(200),
  retentionDays: z.coerce.number().int("Use whole days.").min(1, "At least 1 day.").max(365, "At most 365 days."),
  quotaNotifyAt: z.string().transform((s, c) => {
    const list = s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean)
      .map(Number);
    if (!list.length || list.some((n) => !Number.isInteger(n) || n < 1 || n > 100)) {
      c.addIssue({ code: "custom", message: "List whole percentages from 1 to 100, such as 80, 95, 100." });
      return z.NEVER;
    }
    return [...new Set(list)].sort((a, b) => a - b);
  }),
});

export async function updateSettingsAction(input: unknown) {
  return act("*", async (ctx) => updateBusinessSettings(await caller(ctx), Settings.parse(input)), ["/portal", "/portal/settings"]);
}

const Member = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid e-mail address.")),
  role: z.enum(ROLES),
});

/** Adds a person by e-mail; someone new can then sign in with a magic link. */
export async function addMemberAction(input: unknown) {
  return act("*", async (ctx) => addMember(await caller(ctx), Member.parse(input)), ["/portal/settings"]);
}
