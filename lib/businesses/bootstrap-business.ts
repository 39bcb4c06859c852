import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { createApiKey } from "@/lib/keys/create-api-key";

export const PLANS = ["free", "starter", "pro", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];

/** A business with its default project and two full-access keys (test and live), as the operator CLI prints. */
export async function bootstrapBusiness(name: string, plan: Plan = "free", ownerEmail?: string) {
  const t = now();
  const business = await db.business.create({ data: { id: newId("business"), name, plan, createdAt: t, updatedAt: t } });
  if (ownerEmail) {
    // Its owner, who signs in to the portal by an e-mail link (or sets a password there) and gets its billing mail.
    const email = ownerEmail.trim().toLowerCase();
    const user = await db.user.upsert({ where: { email }, create: { id: newId("user"), email }, update: {} });
    await db.membership.create({ data: { id: newId("membership"), userId: user.id, businessId: business.id, role: "owner" } });
  }
  const project = await db.project.create({
    data: { id: newId("project"), businessId: business.id, name: "Default project", createdAt: t, updatedAt: t },
  });
  const test = await createApiKey({
    businessId: business.id,
    projectId: project.id,
    type: "test",
    name: "Bootstrap test key",
    scopes: ["*"],
    createdBy: "cli",
  });
  const live = await createApiKey({
    businessId: business.id,
    projectId: project.id,
    type: "live",
    name: "Bootstrap live key",
    scopes: ["*"],
    createdBy: "cli",
  });
  return { businessId: business.id, projectId: project.id, testKey: test.key, liveKey: live.key };
}
