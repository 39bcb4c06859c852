import { db } from "@/lib/db/client";
import { now } from "@/lib/clock";
import { cacheTtl, onBusReconnect } from "@/lib/redis/bus";
import { ApiError } from "@/lib/http/errors";
import { hashesEqual, type Environment } from "@/lib/keys/key-format";
import { hashSecret, hasSecretShape } from "@/lib/oauth/token-format";
import { processSingleton } from "@/lib/process-state";
import type { AuthContext } from "@/lib/http/auth-context";
import { NativeDate } from "@/lib/native-date";
import { coversAll } from "./scopes";

// OAuth access tokens (`oat_…`) verified like API keys: cached in memory by hash, so a cache hit costs one HMAC
// and no query. Revoking a token or its grant calls invalidateAccessTokens() here and, through the key
// invalidation channel (lib/auth/key-invalidation.ts), in every other process; the TTL bounds the rest.

interface CachedToken {
  tokenHash: string;
  tokenId: string;
  context: AuthContext;
  expiresAt: number;
  revokedAt: number | null;
  loadedAt: number;
}

const CACHE_TTL_MS = Number(process.env.KEY_CACHE_TTL_MS ?? 30_000);
const MAX_ENTRIES = 50_000;
const S = processSingleton("access-token-cache", () => ({
  byHash: new Map<string, CachedToken>(),
  /** Grant id or token id → the hashes cached under it, for invalidation by either. */
  byId: new Map<string, Set<string>>(),
  /** Database loads (cache misses) and cache hits, for the benchmark (scripts/bench-oauth.mjs). */
  stats: { loads: 0, hits: 0 },
}));
export const accessTokenCacheStats = S.stats;

const invalid = (
  code: "INVALID_ACCESS_TOKEN" | "ACCESS_TOKEN_EXPIRED" | "ACCESS_TOKEN_REVOKED",
  message: string,
  subject?: ApiError["subject"],
) =>
  new ApiError({
    status: 401,
    type: "authentication_error",
    code,
    message,
    subject,
    headers: { "WWW-Authenticate": 'Bearer realm="api", error="invalid_token"' },
  });

/** A token asked for with a narrower scope keeps only what its grant still allows. */
function tokenScopes(own: string[] | null, grant: string[]): string[] {
  return own ? own.filter((s) => coversAll(grant, [s]) === null) : grant;
}

async function load(tokenHash: string): Promise<CachedToken | null> {
  const token = await db.oAuthToken.findUnique({ where: { tokenHash } });
  if (!token || token.kind !== "access") return null;
  const grant = await db.oAuthGrant.findUnique({ where: { id: token.grantId } });
  if (!grant) return null;
  const business = await db.business.findUnique({ where: { id: grant.businessId }, select: { plan: true } });
  if (!business) return null;
  const revoked = [token.revokedAt, grant.revokedAt].filter((d): d is Date => d !== null).map((d) => d.getTime());
  return {
    tokenHash,
    tokenId: token.id,
    expiresAt: token.expiresAt.getTime(),
    revokedAt: revoked.length ? Math.min(...revoked) : null,
    loadedAt: NativeDate.now(),
    context: {
      principal: { kind: "oauth_grant", id: grant.id },
      businessId: grant.businessId,
      projectId: grant.projectId,
      environment: grant.environment as Environment,
      scopes: tokenScopes(token.scopes as string[] | null, grant.scopes as string[]),
      plan: business.plan,
      rateLimit: null,
      restrictions: null,
      oauth: { clientId: grant.clientId, grantId: grant.id, userId: grant.userId, resource: token.resource ?? grant.resource ?? null },
    },
  };
}

function index(id: string, hash: string): void {
  let set = S.byId.get(id);
  if (!set) S.byId.set(id, (set = new Set()));
  set.add(hash);
}

function remember(entry: CachedToken): void {
  if (S.byHash.size >= MAX_ENTRIES) S.byHash.delete(S.byHash.keys().next().value!);
  S.byHash.set(entry.tokenHash, entry);
  index(entry.context.principal.id, entry.tokenHash);
  index(entry.tokenId, entry.tokenHash);
}

export async function verifyAccessToken(value: string): Promise<AuthContext> {
  if (!hasSecretShape("access", value)) throw invalid("INVALID_ACCESS_TOKEN", "Invalid access token provided.");
  const tokenHash = hashSecret(value);
  let entry = S.byHash.get(tokenHash);
  if (!entry || NativeDate.now() - entry.loadedAt > cacheTtl(CACHE_TTL_MS)) {
    S.stats.loads++;
    const loaded = await load(tokenHash);
    if (!loaded) {
      if (entry) S.byHash.delete(tokenHash);
      throw invalid("INVALID_ACCESS_TOKEN", "Invalid access token provided.");
    }
    remember((entry = loaded));
  } else S.stats.hits++;
  if (!hashesEqual(entry.tokenHash, tokenHash)) throw invalid("INVALID_ACCESS_TOKEN", "Invalid access token provided.");
  const t = now().getTime();
  const { businessId, environment, oauth } = entry.context;
  const keyId = entry.context.principal.id;
  const subject = { keyId, businessId, environment, actorType: "oauth_client" as const, actorId: oauth!.clientId };
  if (entry.revokedAt !== null && entry.revokedAt <= t)
    throw invalid("ACCESS_TOKEN_REVOKED", "This access token has been revoked.", subject);
  if (entry.expiresAt <= t)
    throw invalid("ACCESS_TOKEN_EXPIRED", "This access token has expired; use the refresh token for a new one.", subject);
  return entry.context;
}

/** Drops every cached token of a grant (by grant id) or one token (by token id) from this process. */
export function invalidateAccessTokens(id: string): void {
  const hashes = S.byId.get(id);
  if (!hashes) return;
  for (const h of hashes) S.byHash.delete(h);
  S.byId.delete(id);
}

onBusReconnect(() => clearAccessTokenCache());

export function clearAccessTokenCache(): void {
  S.byHash.clear();
  S.byId.clear();
}
