import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { ApiError } from "@/lib/http/errors";
import { recordAudit } from "@/lib/audit/record-audit";
import { forgetNotifyAt } from "@/lib/usage/quota";
import type { AuthContext } from "@/lib/http/auth-context";

// A business's own settings and team, written the one way whoever asks (today the portal's settings page): each
// change is validated by the caller's schema, written in one transaction, and leaves an audit entry.

export interface SettingsCaller {
  auth: AuthContext;
  ip: string | null;
  userAgent: string | null;
  actorType: "user" | "api_key" | "cli";
}

export interface BusinessSettings {
  businessName: string;
  projectName: string;
  retentionDays: number;
  quotaNotifyAt: number[];
}

function audit(caller: SettingsCaller, action: string, targetType: string, targetId: string, details: Record<string, unknown>) {
  recordAudit({
    businessId: caller.auth.businessId,
    environment: caller.auth.environment,
    actorType: caller.actorType,
    actorId: caller.auth.principal.id,
    action,
    targetType,
    targetId,
    ip: caller.ip,
    userAgent: caller.userAgent,
    details,
  });
}

/** The business's and its project's names, log retention and quota alert thresholds. */
export async function updateBusinessSettings(caller: SettingsCaller, s: BusinessSettings): Promise<BusinessSettings> {
  const { businessId, projectId } = caller.auth;
  const t = now();
  await db.$transaction([
    db.business.update({ where: { id: businessId }, data: { name: s.businessName, updatedAt: t } }),
    db.project.update({
      where: { id: projectId },
      data: { name: s.projectName, retentionDays: s.retentionDays, quotaNotifyAt: s.quotaNotifyAt, updatedAt: t },
    }),
  ]);
  forgetNotifyAt(projectId);
  audit(caller, "business.settings_updated", "business", businessId, { ...s, projectId });
  return s;
}

/** Adds a person by e-mail with a role; someone new can then sign in with a magic link. */
export async function addMember(caller: SettingsCaller, m: { email: string; role: string }): Promise<{ email: string; role: string }> {
  const businessId = caller.auth.businessId;
  const t = now();
  const membershipId = await db.$transaction(async (tx) => {
    const user = await tx.user.upsert({
      where: { email: m.email },
      update: {},
      create: { id: newId("user"), email: m.email, createdAt: t, updatedAt: t },
    });
    const existing = await tx.membership.findUnique({ where: { userId_businessId: { userId: user.id, businessId } } });
    if (existing) {
      throw new ApiError({
        status: 409,
        type: "conflict_error",
        code: "ALREADY_EXISTS",
        field: "email",
        message: `${m.email} is already a member.`,
      });
    }
    const id = newId("membership");
    await tx.membership.create({ data: { id, userId: user.id, businessId, role: m.role, createdAt: t } });
    return id;
  });
  audit(caller, "member.added", "membership", membershipId, { email: m.email, role: m.role });
  return m;
}
