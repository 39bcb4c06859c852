import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { processSingleton } from "@/lib/process-state";

// `lastUsed` is written at most once a minute per key, off the request's path: an exact timestamp is not
// worth a database write on every call.
const WRITE_INTERVAL_MS = 60_000;
const lastWritten = processSingleton("last-used", () => new Map<string, number>());

export function touchLastUsed(keyId: string): void {
  const t = now();
  const previous = lastWritten.get(keyId);
  if (previous !== undefined && t.getTime() - previous < WRITE_INTERVAL_MS) return;
  lastWritten.set(keyId, t.getTime());
  db.apiKey.update({ where: { id: keyId }, data: { lastUsed: t } }).catch(() => lastWritten.delete(keyId));
}
