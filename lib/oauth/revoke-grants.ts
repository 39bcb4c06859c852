import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { coversAll } from "@/lib/auth/scopes";
import { announceKeyChange } from "@/lib/auth/key-invalidation";

// Ending a grant ends every token it issued, on the very next request: the grant and its tokens are marked
// revoked and every process drops its cached access tokens (the key invalidation channel carries grant ids).

export async function revokeGrants(grantIds: string[]): Promise<number> {
  if (!grantIds.length) return 0;
  const t = now();
  const { count } = await db.oAuthGrant.updateMany({ where: { id: { in: grantIds }, revokedAt: null }, data: { revokedAt: t } });
  await db.oAuthToken.updateMany({ where: { grantId: { in: grantIds }, revokedAt: null }, data: { revokedAt: t } });
  for (const id of grantIds) announceKeyChange(id);
  return count;
}

export const revokeGrant = (grantId: string) => revokeGrants([grantId]);

export async function revokeGrantsOfClient(clientId: string): Promise<number> {
  const grants = await db.oAuthGrant.findMany({ where: { clientId, revokedAt: null }, select: { id: true } });
  return revokeGrants(grants.map((g) => g.id));
}

/** After a client's allowed scopes shrink, its grants keep only what is still allowed (none left: revoked). */
export async function narrowGrantsOfClient(clientId: string, allowed: string[]): Promise<void> {
  const grants = await db.oAuthGrant.findMany({ where: { clientId, revokedAt: null } });
  const emptied: string[] = [];
  for (const g of grants) {
    const scopes = g.scopes as string[];
    const kept = scopes.filter((s) => coversAll(allowed, [s]) === null);
    if (kept.length === scopes.length) continue;
    if (!kept.length) {
      emptied.push(g.id);
      continue;
    }
    await db.oAuthGrant.update({ where: { id: g.id }, data: { scopes: kept } });
    announceKeyChange(g.id);
  }
  await revokeGrants(emptied);
}
