import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { tenantWhere } from "@/lib/http/tenant";
import type { AuthContext } from "@/lib/http/auth-context";
import type { Webhook as WebhookRow } from "@/generated/prisma-sqlite";
import { getWebhookOrThrow } from "./manage-webhooks";

// An endpoint's signing secret as the portal shows it: hidden until asked for (Svix's "reveal"), and after a
// rotation, until when the previous secret still signs beside the new one (the grace period of
// rotateWebhookSecret), so the receiver's owner knows how long they have to switch.

/** The time the previous secret stops signing, while that is still ahead; otherwise null. */
export function secretGraceUntil(w: Pick<WebhookRow, "previousSecret" | "previousSecretExpiresAt">, at: Date = now()): string | null {
  return w.previousSecret && w.previousSecretExpiresAt && w.previousSecretExpiresAt > at ? w.previousSecretExpiresAt.toISOString() : null;
}

/** The full secret of an endpoint, and the grace period of the previous one if it still signs. */
export async function revealWebhookSecret(auth: AuthContext, id: string) {
  const w = await getWebhookOrThrow(auth, id);
  return { id: w.id, secret: w.secret, previousSecretExpiresAt: secretGraceUntil(w) };
}

/** For each endpoint, when its previous secret stops signing (null when there is none any more). */
export async function secretGraces(auth: AuthContext, ids: string[]): Promise<Record<string, string | null>> {
  const rows = await db.webhook.findMany({
    where: { id: { in: ids }, ...tenantWhere(auth) },
    select: { id: true, previousSecret: true, previousSecretExpiresAt: true },
  });
  return Object.fromEntries(rows.map((w) => [w.id, secretGraceUntil(w)]));
}
