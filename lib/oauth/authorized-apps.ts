import { db } from "@/lib/db/client";
import { recordAudit } from "@/lib/audit/record-audit";
import { revokeGrants } from "./revoke-grants";

// The portal's "Authorized apps": the applications users of a business have let act for it, one row per
// application and user (re-authorizing makes a new grant; the row shows them together). Revoking ends them all.

export interface AuthorizedApp {
  clientId: string;
  clientName: string;
  userId: string;
  userEmail: string;
  scopes: string[];
  environment: string;
  authorizedAt: string;
  lastUsed: string | null;
  grantIds: string[];
}

export async function listAuthorizedApps(businessId: string): Promise<AuthorizedApp[]> {
  const grants = await db.oAuthGrant.findMany({ where: { businessId, revokedAt: null }, orderBy: { createdAt: "desc" }, take: 500 });
  if (!grants.length) return [];
  const [clients, users] = await Promise.all([
    db.oAuthClient.findMany({ where: { id: { in: [...new Set(grants.map((g) => g.clientId))] } }, select: { id: true, name: true } }),
    db.user.findMany({ where: { id: { in: [...new Set(grants.map((g) => g.userId))] } }, select: { id: true, email: true } }),
  ]);
  const rows = new Map<string, AuthorizedApp>();
  for (const g of grants) {
    const key = `${g.clientId}|${g.userId}`;
    const row = rows.get(key) ?? {
      clientId: g.clientId,
      clientName: clients.find((c) => c.id === g.clientId)?.name ?? g.clientId,
      userId: g.userId,
      userEmail: users.find((u) => u.id === g.userId)?.email ?? "a former member",
      scopes: [],
      environment: g.environment,
      authorizedAt: g.createdAt.toISOString(),
      lastUsed: null,
      grantIds: [],
    };
    row.grantIds.push(g.id);
    row.scopes = [...new Set([...row.scopes, ...(g.scopes as string[])])];
    const used = g.lastUsed?.toISOString() ?? null;
    if (used && (!row.lastUsed || used > row.lastUsed)) row.lastUsed = used;
    rows.set(key, row);
  }
  return [...rows.values()];
}

/** Revokes an app for one user in a business. Owners and admins may revoke anyone's; others only their own. */
export async function revokeAuthorizedApp(
  actor: { userId: string; businessId: string; isAdmin: boolean; ip: string | null; userAgent: string | null },
  clientId: string,
  userId: string,
): Promise<number> {
  if (userId !== actor.userId && !actor.isAdmin) throw new Error("forbidden");
  const grants = await db.oAuthGrant.findMany({
    where: { businessId: actor.businessId, clientId, userId, revokedAt: null },
    select: { id: true, environment: true },
  });
  const count = await revokeGrants(grants.map((g) => g.id));
  if (grants.length) {
    recordAudit({
      businessId: actor.businessId,
      environment: grants[0].environment,
      actorType: "user",
      actorId: actor.userId,
      action: "oauth.grant_revoked",
      targetType: "oauth_client",
      targetId: clientId,
      ip: actor.ip,
      userAgent: actor.userAgent,
      details: { grantIds: grants.map((g) => g.id), userId },
    });
  }
  return count;
}
