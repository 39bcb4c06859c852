import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { db } from "@/lib/db/client";
import type { AuthContext } from "@/lib/http/auth-context";
import { PORTAL_BUSINESS_COOKIE, PORTAL_ENV_COOKIE } from "@/lib/http/platform-cookies";
import type { Environment } from "@/lib/keys/key-format";
import { authOptions } from "./auth-options";
import { scopesForRole, type Role } from "./roles";

// Who is using the portal, in which business, project and environment. The views call the same domain
// functions as the API with an AuthContext built from this, so there is no second implementation.

export { ROLES, scopesForRole, type Role } from "./roles";

export interface PortalContext {
  user: { id: string; email: string; name: string | null };
  business: { id: string; name: string; plan: string };
  project: { id: string; name: string; retentionDays: number; quotaNotifyAt: number[] | null };
  role: Role;
  environment: Environment;
  memberships: { businessId: string; businessName: string; role: string }[];
  /** For the domain functions: the portal user acting in this business and environment. */
  auth: AuthContext;
}

export async function getPortalContext(): Promise<PortalContext | null> {
  const session = await getServerSession(authOptions);
  const userId = (session?.user as { id?: string } | undefined)?.id;
  if (!userId) return null;
  const user = await db.user.findUnique({ where: { id: userId }, include: { memberships: true } });
  if (!user || user.memberships.length === 0) return null;
  const jar = await cookies();
  const wanted = jar.get(PORTAL_BUSINESS_COOKIE)?.value;
  const membership = user.memberships.find((m) => m.businessId === wanted) ?? user.memberships[0];
  const [business, project, businesses] = await Promise.all([
    db.business.findUniqueOrThrow({ where: { id: membership.businessId } }),
    db.project.findFirstOrThrow({ where: { businessId: membership.businessId }, orderBy: { createdAt: "asc" } }),
    db.business.findMany({ where: { id: { in: user.memberships.map((m) => m.businessId) } }, select: { id: true, name: true } }),
  ]);
  const environment: Environment = jar.get(PORTAL_ENV_COOKIE)?.value === "production" ? "production" : "test";
  return {
    user: { id: user.id, email: user.email, name: user.name },
    business: { id: business.id, name: business.name, plan: business.plan },
    project: {
      id: project.id,
      name: project.name,
      retentionDays: project.retentionDays,
      quotaNotifyAt: (project.quotaNotifyAt as number[] | null) ?? null,
    },
    role: membership.role as Role,
    environment,
    memberships: user.memberships.map((m) => ({
      businessId: m.businessId,
      businessName: businesses.find((b) => b.id === m.businessId)?.name ?? m.businessId,
      role: m.role,
    })),
    auth: {
      principal: { kind: "portal_user", id: user.id },
      businessId: business.id,
      projectId: project.id,
      environment,
      scopes: scopesForRole(membership.role),
      plan: business.plan,
      rateLimit: null,
      restrictions: null,
    },
  };
}

/** For pages and actions: the context, or off to sign-in. */
export async function requirePortalContext(): Promise<PortalContext> {
  const ctx = await getPortalContext();
  if (!ctx) redirect("/signin");
  return ctx;
}
