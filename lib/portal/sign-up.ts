import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { hashPassword } from "./password";

/** A new user with a business of their own, its default project, and the owner role in it. */
export async function createUserWithBusiness(input: {
  email: string;
  name?: string | null;
  password?: string | null;
  businessName?: string | null;
  emailVerified?: Date | null;
  image?: string | null;
}) {
  const t = now();
  const email = input.email.trim().toLowerCase();
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  return db.$transaction(async (tx) => {
    const user = await tx.user.create({
      data: {
        id: newId("user"),
        email,
        name: input.name ?? null,
        image: input.image ?? null,
        passwordHash,
        emailVerified: input.emailVerified ?? null,
        createdAt: t,
        updatedAt: t,
      },
    });
    const business = await tx.business.create({
      data: {
        id: newId("business"),
        name: input.businessName?.trim() || `${input.name?.trim() || email.split("@")[0]}'s business`,
        plan: "free",
        createdAt: t,
        updatedAt: t,
      },
    });
    await tx.project.create({
      data: { id: newId("project"), businessId: business.id, name: "Default project", createdAt: t, updatedAt: t },
    });
    await tx.membership.create({
      data: { id: newId("membership"), userId: user.id, businessId: business.id, role: "owner", createdAt: t },
    });
    return user;
  });
}
