import type { ApiKey as ApiKeyRow } from "@/generated/prisma-sqlite";
import { now } from "@/lib/clock";
import { withEvents } from "@/lib/events/emit-event";
import { announceKeyChange } from "@/lib/auth/key-invalidation";
import type { KeyRestrictions } from "@/lib/http/auth-context";
import type { Db } from "@/lib/db/client";
import { createApiKey } from "./create-api-key";
import { keyTypeOf } from "./key-format";
import { keyEvent } from "./key-events";

// The spec's rotation, shared by POST /v1/api-keys/{id}/rotate and the automatic strategy: a new key named
// after the old one plus a rotated marker, with the same environment and permissions; the old key keeps
// working for the grace period (default 7 days) and then expires. The new key, the old key's new expiry and
// the events saying so commit together.

export const DAY_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_ROTATION_GRACE_DAYS = 7;

export interface RotationSettings {
  strategy?: "manual" | "automatic";
  maxAge?: number;
  gracePeriod?: number;
  notificationDays?: number[];
}

export function rotationOf(row: Pick<ApiKeyRow, "rotation">): RotationSettings {
  return (row.rotation as RotationSettings | null) ?? {};
}

export interface RotateOptions {
  graceDays?: number;
  /** Who rotates: the key or user acting, or null for the scheduled job. */
  createdBy: string | null;
  /** The job's rotation: nobody is there to receive the new value, so it is sealed until revealed once. */
  automatic?: boolean;
}

export type Rotation = { row: ApiKeyRow; key: string; rotatedFrom: { id: string; expiresAt: string }; graceDays: number };

/** `answer` is the request's answer made from the rotation, stored with its commit (withEvents). */
export async function rotateKeyRow(
  current: ApiKeyRow,
  options: RotateOptions,
  answer?: (done: Rotation) => unknown,
): Promise<Rotation | null> {
  const t = now();
  const graceDays = options.graceDays ?? rotationOf(current).gracePeriod ?? DEFAULT_ROTATION_GRACE_DAYS;
  const graceEnd = new Date(t.getTime() + graceDays * DAY_MS);
  const oldExpiry = current.expiresAt && current.expiresAt < graceEnd ? current.expiresAt : graceEnd;
  // The new key lives as long as the old one was meant to.
  const lifetime = current.expiresAt ? current.expiresAt.getTime() - current.createdAt.getTime() : null;
  const result = await withEvents(
    async (tx): Promise<Rotation | null> => {
      // Claim the rotation first: of two job runs (or processes) racing for one key, one rotates it.
      if (options.automatic) {
        const claimed = await tx.apiKey.updateMany({ where: { id: current.id, rotatedAt: null, revokedAt: null }, data: { rotatedAt: t } });
        if (claimed.count === 0) return null;
      }
      const { row, key } = await createApiKey(
        {
          businessId: current.businessId,
          projectId: current.projectId,
          type: keyTypeOf(current.environment as "test" | "production"),
          name: `${current.name.replace(/ \(rotated\)$/, "")} (rotated)`.slice(0, 100),
          scopes: current.scopes as string[],
          expiresAt: lifetime ? new Date(t.getTime() + lifetime) : null,
          rateLimit: current.rateLimit,
          restrictions: (current.restrictions as KeyRestrictions | null) ?? null,
          metadata: (current.metadata as Record<string, string> | null) ?? null,
          rotation: (current.rotation as Record<string, unknown> | null) ?? null,
          createdBy: options.createdBy,
          rotatedFromId: current.id,
          sealValue: options.automatic,
        },
        tx as unknown as Pick<Db, "apiKey">,
      );
      const old = await tx.apiKey.update({ where: { id: current.id }, data: { expiresAt: oldExpiry, rotatedAt: t, updatedAt: t } });
      const rotatedFrom = { id: current.id, expiresAt: oldExpiry.toISOString() };
      await keyEvent(tx, row, "resource.created");
      await keyEvent(tx, old, "resource.updated", undefined, { expiresAt: current.expiresAt?.toISOString() ?? null, rotatedAt: null });
      await keyEvent(tx, row, "api_key.rotated", { rotatedFrom, automatic: options.automatic ?? false, gracePeriodDays: graceDays });
      return { row, key, rotatedFrom, graceDays };
    },
    { answer: (done) => (done && answer ? answer(done) : undefined) },
  );
  if (result) announceKeyChange(current.id);
  return result;
}
