import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";

// The periodic job for OAuth rows (lib/jobs/scheduler.ts). Codes are kept a day past their 10-minute life (a
// replay within it still revokes what the code issued); tokens a day past expiry (a used refresh token is kept
// until then, so a replay of it is still recognised and revokes its grant). Grants themselves stay: they are
// the record of who authorized what. Self-registered clients (RFC 7591) that no user authorized within a week are
// deleted: anyone can make one, and one never used is only a row.

const GRACE_MS = 86_400_000;
const UNUSED_DYNAMIC_CLIENT_MS = 7 * GRACE_MS;

export async function purgeExpiredOAuth(): Promise<{ codes: number; tokens: number; clients: number }> {
  const t = now().getTime();
  const cutoff = new Date(t - GRACE_MS);
  const codes = await db.oAuthCode.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  const tokens = await db.oAuthToken.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  const stale = await db.oAuthClient.findMany({
    where: { registration: "dynamic", createdAt: { lt: new Date(t - UNUSED_DYNAMIC_CLIENT_MS) } },
    select: { id: true },
    take: 1000,
  });
  let clients = 0;
  if (stale.length) {
    const ids = stale.map((c) => c.id);
    const [granted, pending] = await Promise.all([
      db.oAuthGrant.findMany({ where: { clientId: { in: ids } }, select: { clientId: true } }),
      db.oAuthCode.findMany({ where: { clientId: { in: ids } }, select: { clientId: true } }),
    ]);
    const used = new Set([...granted, ...pending].map((r) => r.clientId));
    const unused = ids.filter((id) => !used.has(id));
    if (unused.length) clients = (await db.oAuthClient.deleteMany({ where: { id: { in: unused }, registration: "dynamic" } })).count;
  }
  return { codes: codes.count, tokens: tokens.count, clients };
}
