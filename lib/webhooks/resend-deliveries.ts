import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { ApiError, invalidParameter, stateConflict } from "@/lib/http/errors";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import { getDeliveryOrThrow, getWebhookOrThrow, serializeDelivery } from "./manage-webhooks";
import { wakeWorker } from "./worker";

// Svix's "Resend" and "Recover failed messages since": a message is sent again as a new attempt on the same
// delivery (same id, so receivers that dedupe on webhook-id see a repeat, not a new message), its earlier
// attempts kept in its attempt log. Each is one conditional update that only takes rows no worker holds.

/** Sends one delivery again now, whatever became of it (success too), with a fresh attempt budget. */
export async function resendDelivery(auth: AuthContext, webhookId: string, deliveryId: string) {
  const d = await getDeliveryOrThrow(auth, webhookId, deliveryId);
  if (d.status === "pending")
    throw stateConflict("This message has not been sent yet; it goes out within a second.", {
      currentState: d.status,
      allowed: ["success", "failed", "retrying"],
    });
  const t = now();
  const claimed = await db.webhookDelivery.updateMany({
    where: { id: d.id, status: { not: "pending" }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: t } }] },
    data: { status: "retrying", nextRetry: t, attempts: d.status === "retrying" ? d.attempts : 0, updatedAt: t },
  });
  if (claimed.count === 0)
    throw new ApiError({
      status: 409,
      type: "conflict_error",
      code: "STATE_CONFLICT",
      message: "The message is being sent right now; look again in a moment.",
    });
  wakeWorker();
  return serializeDelivery(await db.webhookDelivery.findUniqueOrThrow({ where: { id: d.id } }));
}

/** Every failed delivery of an endpoint created at or after `since` is sent again now. Returns how many. */
export async function replayFailedSince(auth: AuthContext, webhookId: string, since: Date) {
  if (Number.isNaN(since.getTime())) throw invalidParameter("since", "'since' must be a date and time.");
  const w = await getWebhookOrThrow(auth, webhookId);
  const t = now();
  if (since > t) throw invalidParameter("since", "'since' is in the future: nothing has failed since then.");
  const { count } = await db.webhookDelivery.updateMany({
    where: {
      webhookId: w.id,
      ...tenantWhere(auth),
      status: "failed",
      createdAt: { gte: since },
      OR: [{ lockedUntil: null }, { lockedUntil: { lt: t } }],
    },
    data: { status: "retrying", nextRetry: t, attempts: 0, updatedAt: t },
  });
  if (count) wakeWorker();
  return { replayed: count, since: since.toISOString() };
}
