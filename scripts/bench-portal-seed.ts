// A portal user for scripts/bench-portal.mjs: createUserWithBusiness (its own business, default project, owner
// role) and one test key for the project. Run with DATABASE_URL and KEY_HASH_SECRET set, BENCH_EMAIL and
// BENCH_PASSWORD; prints one JSON line { userId, businessId, projectId, key }.
import { createUserWithBusiness } from "@/lib/portal/sign-up";
import { createApiKey } from "@/lib/keys/create-api-key";
import { db } from "@/lib/db/client";

async function main() {
  const user = await createUserWithBusiness({
    email: process.env.BENCH_EMAIL!,
    password: process.env.BENCH_PASSWORD!,
    name: "Bench User",
    businessName: "Bench portal",
    emailVerified: new Date(),
  });
  const membership = await db.membership.findFirstOrThrow({ where: { userId: user.id } });
  const project = await db.project.findFirstOrThrow({ where: { businessId: membership.businessId } });
  const { key } = await createApiKey({
    businessId: membership.businessId,
    projectId: project.id,
    type: "test",
    name: "bench-portal",
    scopes: ["*"],
  });
  await db.$disconnect().catch(() => {});
  process.stdout.write(JSON.stringify({ userId: user.id, businessId: membership.businessId, projectId: project.id, key }) + "\n");
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e?.stack ?? e);
    process.exit(1);
  },
);
