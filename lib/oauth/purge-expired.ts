import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";

// The periodic job for OAuth rows (lib/jobs/scheduler.ts). Codes are kept a day past their 10-minute life (a
// replay within it still revokes what the code issued); tokens a day past expiry (a used refresh token is kept
// until then, so a replay of it is still recognised and revokes its grant). Grants themselves stay: they are
// the record of who authorized what.

const GRACE_MS = 86_400_000;

export async function purgeExpiredOAuth(): Promise<{ codes: number; tokens: number }> {
  const cutoff = new Date(now().getTime() - GRACE_MS);
  const codes = await db.oAuthCode.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  const tokens = await db.oAuthToken.deleteMany({ where: { expiresAt: { lt: cutoff } } });
  return { codes: codes.count, tokens: tokens.count };
}
