// Direct database access for the API tests: what no API call can do, such as moving a key's expiry into the
// past or reading the stored row. The test process has the server's DATABASE_URL, so both see one database.
//
// The server caches verified keys in memory (lib/auth/verify-api-key.ts), so a change written here reaches the
// server only for a key it has not used yet: change a key before its first request.
import { db } from "@/lib/db/client";
import "./close-connections";

export { db };

/** Sets a key's expiresAt (default: one minute ago). */
export async function setKeyExpiry(keyId: string, expiresAt: Date = new Date(Date.now() - 60_000)) {
  await db.apiKey.update({ where: { id: keyId }, data: { expiresAt } });
}

/** The stored row of a key, every column. */
export function apiKeyRow(keyId: string) {
  return db.apiKey.findUnique({ where: { id: keyId } });
}

/** The audit entries of a business, newest first, straight from the table (whatever the API would show). */
export function auditRows(where: { businessId?: string | null; action?: string; actorId?: string; targetId?: string }) {
  return db.auditLog.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/**
 * Polls `probe` until it returns a truthy value or `timeoutMs` passes; returns the last value. The default is
 * generous: a passing test returns at its first truthy value, and the suite runs two files at once, some of which
 * start or kill whole servers, so a flush that takes 300 ms when the machine is quiet can take seconds then.
 */
export async function poll<T>(probe: () => Promise<T>, timeoutMs = 10_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value || Date.now() >= deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
