"use server";
// The portal's webhook message actions (Svix's app portal): resend one message, replay every failed one since a
// time, and reveal an endpoint's signing secret. Same-origin POSTs only (Next's server-action check), run as the
// signed-in user through the portal's one action runner, calling the same domain functions as the API would.
import { runAction } from "@/lib/portal/run-action";
import { replayFailedSince, resendDelivery } from "@/lib/webhooks/resend-deliveries";
import { revealWebhookSecret } from "@/lib/webhooks/endpoint-secrets";

export async function resendDeliveryAction(webhookId: string, deliveryId: string) {
  return runAction("webhooks:write", (ctx) => resendDelivery(ctx.auth, String(webhookId), String(deliveryId)));
}

export async function replayFailedSinceAction(webhookId: string, since: string) {
  return runAction("webhooks:write", (ctx) => replayFailedSince(ctx.auth, String(webhookId), new Date(String(since))));
}

/** The full secret is a credential: only roles that may change the endpoint may read it. */
export async function revealWebhookSecretAction(webhookId: string) {
  return runAction("webhooks:write", (ctx) => revealWebhookSecret(ctx.auth, String(webhookId)));
}
