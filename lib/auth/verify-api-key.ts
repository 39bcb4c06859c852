import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { cacheTtl, onBusReconnect } from "@/lib/redis/bus";
import { unauthenticated } from "@/lib/http/errors";
import { hashKey, hasKeyShape, type Environment } from "@/lib/keys/key-format";
import type { AuthContext, KeyRestrictions } from "@/lib/http/auth-context";
import { processSingleton } from "@/lib/process-state";
import { NativeDate } from "@/lib/native-date";

// Verified keys are cached in memory by hash, so a cache hit costs one HMAC and no query. Revocation and
// updates in this process call invalidateKey(); the TTL bounds how long another process's change can take.

interface CachedKey {
  keyHash: string;
  context: AuthContext;
  expiresAt: number | null;
  revokedAt: number | null;
  loadedAt: number;
}

const CACHE_TTL_MS = Number(process.env.KEY_CACHE_TTL_MS ?? 30_000);
const MAX_ENTRIES = 50_000;
const cache = processSingleton("key-cache", () => new Map<string, CachedKey>());
const idToHash = processSingleton("key-cache-ids", () => new Map<string, string>());
/** Lookups answered from the cache and those that read the database, for GET /metrics. */
export const keyCacheStats = processSingleton("key-cache-stats", () => ({ hits: 0, misses: 0 }));

async function load(keyHash: string): Promise<CachedKey | null> {
  const row = await db.apiKey.findUnique({ where: { keyHash }, include: { business: { select: { plan: true } } } });
  if (!row) return null;
  return {
    keyHash: row.keyHash,
    expiresAt: row.expiresAt?.getTime() ?? null,
    revokedAt: row.revokedAt?.getTime() ?? null,
    loadedAt: NativeDate.now(),
    context: {
      principal: { kind: "api_key", id: row.id },
      businessId: row.businessId,
      projectId: row.projectId,
      environment: row.environment as Environment,
      scopes: (row.scopes as string[]) ?? [],
      plan: row.business.plan,
      rateLimit: row.rateLimit ?? null,
      restrictions: (row.restrictions as KeyRestrictions | null) ?? null,
    },
  };
}

function remember(entry: CachedKey): void {
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(entry.keyHash, entry);
  idToHash.set(entry.context.principal.id, entry.keyHash);
}

/**
 * The key's context. A cache hit answers at once (no promise: each one also paid the async-context hooks of the
 * process), a miss after one query; a refusal is thrown either way (synchronously on a hit).
 */
export function verifyApiKey(value: string): AuthContext | Promise<AuthContext> {
  if (!hasKeyShape(value)) throw unauthenticated("INVALID_API_KEY", "Invalid API key provided.");
  const keyHash = hashKey(value);
  const entry = cache.get(keyHash);
  if (!entry || NativeDate.now() - entry.loadedAt > cacheTtl(CACHE_TTL_MS)) {
    keyCacheStats.misses++;
    return loadAndCheck(keyHash, entry);
  }
  keyCacheStats.hits++;
  return check(entry);
}

async function loadAndCheck(keyHash: string, stale: CachedKey | undefined): Promise<AuthContext> {
  const loaded = await load(keyHash);
  if (!loaded) {
    if (stale) cache.delete(keyHash);
    throw unauthenticated("INVALID_API_KEY", "Invalid API key provided.");
  }
  remember(loaded);
  return check(loaded);
}

// The entry was found by the presented key's hash (the cache's key, or the row's unique keyHash), so the hashes are
// equal already: comparing them again (timing-safe or not) could never refuse. What an attacker could time is the
// lookup of an HMAC under the server secret, which tells nothing about any stored key.
function check(entry: CachedKey): AuthContext {
  const t = now().getTime();
  const { businessId, environment } = entry.context;
  const keyId = entry.context.principal.id;
  if (entry.revokedAt !== null && entry.revokedAt <= t)
    throw unauthenticated("API_KEY_REVOKED", "This API key has been revoked.", { keyId, businessId, environment });
  if (entry.expiresAt !== null && entry.expiresAt <= t)
    throw unauthenticated("API_KEY_EXPIRED", "This API key has expired.", { keyId, businessId, environment });
  return entry.context;
}

/** Drops a key from this process's cache; the next request reads it again. */
export function invalidateKey(keyId: string): void {
  const keyHash = idToHash.get(keyId);
  if (keyHash) cache.delete(keyHash);
  idToHash.delete(keyId);
}

onBusReconnect(() => clearKeyCache());

export function clearKeyCache(): void {
  cache.clear();
  idToHash.clear();
}
