import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { processSingleton } from "@/lib/process-state";
import { limiterStore } from "@/lib/limits/limiter";
import type { AuthContext } from "@/lib/http/auth-context";

// `lastUsed` is written at most once a minute per key, off the request's path: an exact timestamp is not
// worth a database write on every call. With Redis the minute is shared by every process (the data plane's workers,
// other servers) through a set-once flag, so several processes do not each write it.
const WRITE_INTERVAL_MS = 60_000;
const lastWritten = processSingleton("last-used", () => new Map<string, number>());

/** The key's lastUsed, or for an OAuth access token its grant's (a portal user has none). */
export function touchLastUsed(auth: Pick<AuthContext, "principal">): void {
  const { kind, id: keyId } = auth.principal;
  if (kind === "portal_user") return;
  const t = now();
  const previous = lastWritten.get(keyId);
  if (previous !== undefined && t.getTime() - previous < WRITE_INTERVAL_MS) return;
  lastWritten.set(keyId, t.getTime());
  const store = limiterStore();
  const first =
    store.kind === "redis" ? store.setOnce(`${process.env.REDIS_PREFIX ?? "platform:"}last-used:${keyId}`, WRITE_INTERVAL_MS) : null;
  const write = async (): Promise<void> => {
    if (kind === "oauth_grant") await db.oAuthGrant.update({ where: { id: keyId }, data: { lastUsed: t } });
    else await db.apiKey.update({ where: { id: keyId }, data: { lastUsed: t } });
  };
  (first ? first.then((yes) => (yes ? write() : undefined)) : write()).catch(() => lastWritten.delete(keyId));
}
