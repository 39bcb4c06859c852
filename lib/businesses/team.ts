import { db } from "@/lib/db/client";

// A business's team: its members with their roles, oldest first. The settings page and the apps' team panels
// (lib/apps/panel-data.ts) read it here.

export interface TeamMember {
  id: string;
  email: string;
  name: string | null;
  role: string;
  since: Date;
}

export async function listTeamMembers(businessId: string): Promise<TeamMember[]> {
  const rows = await db.membership.findMany({
    where: { businessId },
    include: { user: { select: { email: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({ id: m.id, email: m.user.email, name: m.user.name, role: m.role, since: m.createdAt }));
}
