import type { ApiKey as ApiKeyRow } from "@/generated/prisma-sqlite";
import { now } from "@/lib/clock";
import type { KeyRestrictions } from "@/lib/http/auth-context";
import { keyTypeOf, maskKey, type Environment } from "./key-format";

export function keyStatus(row: Pick<ApiKeyRow, "revokedAt" | "expiresAt">, at = now()): "active" | "expired" | "revoked" {
  if (row.revokedAt && row.revokedAt <= at) return "revoked";
  if (row.expiresAt && row.expiresAt <= at) return "expired";
  return "active";
}

/** The object form of the scopes: which resources, which actions (the spec's `permissions`). */
export function permissionsOf(scopes: string[], restrictions: KeyRestrictions | null) {
  const resources = new Set<string>();
  const actions = new Set<string>();
  for (const s of scopes) {
    if (s === "*") {
      resources.add("*");
      ["read", "write", "delete"].forEach((a) => actions.add(a));
      continue;
    }
    const [r, a] = s.split(":");
    resources.add(r);
    if (a === "*") ["read", "write", "delete"].forEach((x) => actions.add(x));
    else actions.add(a);
  }
  return { resources: [...resources], actions: [...actions], restrictions };
}

/** The wire form; `fullKey` only right after creation or rotation, otherwise the masked key. */
export function serializeApiKey(row: ApiKeyRow, fullKey?: string) {
  const scopes = (row.scopes as string[]) ?? [];
  const restrictions = (row.restrictions as KeyRestrictions | null) ?? null;
  const environment = row.environment as Environment;
  return {
    id: row.id,
    name: row.name,
    key: fullKey ?? maskKey(row.prefix, row.lastFour),
    type: keyTypeOf(environment),
    prefix: row.prefix,
    environment,
    status: keyStatus(row),
    projectId: row.projectId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    lastUsed: row.lastUsed?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    scopes,
    permissions: permissionsOf(scopes, restrictions),
    rateLimit: row.rateLimit,
    restrictions,
    metadata: (row.metadata as Record<string, string> | null) ?? null,
    rotation: (row.rotation as Record<string, unknown> | null) ?? null,
    rotatedFromId: row.rotatedFromId,
    rotatedAt: row.rotatedAt?.toISOString() ?? null,
    // A key made by automatic rotation whose value nobody has seen yet: POST /v1/api-keys/{id}/reveal shows it once.
    secretPending: row.pendingSecret !== null,
  };
}
