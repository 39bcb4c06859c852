import "server-only";
import { db } from "@/lib/db/client";

// Corrected usage (issue 40) as the portal lists it: the correction events (amend, void) of some subscriptions,
// each with the quantity it changed, why, and when it was made (the audit entry of the correction in the viewing
// business's own log, when it is there yet). Callers pass subscriptions the viewer may see (its own, or its customer's).

export interface UsageCorrection {
  id: string;
  originalId: string;
  subscriptionId: string | null;
  /** The units the correction adds (negative: removes). */
  difference: number;
  from: number | null;
  to: number | null;
  reason: string | null;
  action: "amended" | "voided";
  /** When the usage happened (the original event's time). */
  usageAt: string;
  /** When it was corrected (the audit entry), or null when not found. */
  correctedAt: string | null;
}

export async function usageCorrections(businessId: string, subscriptionIds: string[], limit = 50): Promise<UsageCorrection[]> {
  if (!subscriptionIds.length) return [];
  const events = await db.usageEvent.findMany({
    where: { subscriptionId: { in: subscriptionIds }, correctionOf: { not: null } },
    orderBy: [{ timestamp: "desc" }, { id: "desc" }],
    take: limit,
  });
  if (!events.length) return [];
  // From and to, from the events themselves (the audit entry may be written a moment later): the original's
  // quantity plus every correction of it up to this one (ids are time-ordered).
  const originalIds = [...new Set(events.map((e) => e.correctionOf!))];
  const [originals, siblings] = await Promise.all([
    db.usageEvent.findMany({ where: { id: { in: originalIds } }, select: { id: true, quantity: true } }),
    db.usageEvent.findMany({ where: { correctionOf: { in: originalIds } }, select: { id: true, correctionOf: true, quantity: true } }),
  ]);
  const originalQuantity = new Map(originals.map((o) => [o.id, o.quantity]));
  const fromOf = (e: (typeof events)[number]) => {
    const base = originalQuantity.get(e.correctionOf!);
    if (base === undefined) return null;
    return siblings.filter((c) => c.correctionOf === e.correctionOf && c.id < e.id).reduce((n, c) => n + c.quantity, base);
  };
  const audits = await db.auditLog.findMany({
    where: { businessId, action: { in: ["usage.amended", "usage.voided"] }, targetId: { in: events.map((e) => e.correctionOf!) } },
  });
  const byCorrection = new Map<string, (typeof audits)[number]>();
  for (const a of audits) {
    const correction = (a.details as { correction?: unknown } | null)?.correction;
    if (typeof correction === "string") byCorrection.set(correction, a);
  }
  return events
    .map((e) => {
      const audit = byCorrection.get(e.id);
      const from = fromOf(e);
      const to = from === null ? null : from + e.quantity;
      return {
        id: e.id,
        originalId: e.correctionOf!,
        subscriptionId: e.subscriptionId,
        difference: e.quantity,
        from,
        to,
        reason: e.correctionReason,
        action: audit?.action === "usage.voided" || to === 0 ? ("voided" as const) : ("amended" as const),
        usageAt: e.timestamp.toISOString(),
        correctedAt: audit ? audit.createdAt.toISOString() : null,
      };
    })
    .sort((a, b) => (b.correctedAt ?? b.usageAt).localeCompare(a.correctedAt ?? a.usageAt));
}
