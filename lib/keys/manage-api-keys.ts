import { db, dbNull } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";

import { ApiError, forbidden, invalidField, stateConflict } from "@/lib/http/errors";

import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { coversAll, SCOPE_RESOURCES } from "@/lib/auth/scopes";
import { announceKeyChange } from "@/lib/auth/key-invalidation";
import { recordAudit } from "@/lib/audit/record-audit";
import type { AuthContext, KeyRestrictions } from "@/lib/http/auth-context";
import type { Prisma } from "@/generated/prisma-sqlite";
import type { ApiKeyCreate, ApiKeyUpdate } from "@/lib/schemas/api-key";
import { withEvents } from "@/lib/events/emit-event";
import { createApiKey } from "./create-api-key";
import { keyTypeOf } from "./key-format";
import { serializeApiKey } from "./serialize-api-key";
import { keyEvent } from "./key-events";
import { rotateKeyRow, type Rotation } from "./rotate-api-key";
import { open } from "./secret-box";
import { TRY_IT_PURPOSE, claimsTryItPurpose, notTryItKey } from "./try-it-key";

/** Who acts: an API key (the API) or a portal user (the portal passes actorType "user"). */
export interface Caller {
  auth: AuthContext;
  ip: string | null;
  userAgent: string | null;
  actorType?: "api_key" | "user";
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const API_KEY_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    name: { type: "string" },
    projectId: { type: "string" },
    createdAt: { type: "date" },
    expiresAt: { type: "date" },
    lastUsed: { type: "date" },
    status: {
      type: "enum",
      values: ["active", "expired", "revoked"],
      // Status is derived from the dates, so the filter is too.
      where: (op, values) => {
        const t = now();
        const one = (v: unknown) =>
          v === "revoked"
            ? { revokedAt: { not: null } }
            : v === "expired"
              ? { revokedAt: null, expiresAt: { lte: t } }
              : { revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: t } }] };
        const any = { OR: values.map(one) };
        return op === "ne" ? { NOT: any } : any;
      },
    },
  },
  sortable: ["createdAt", "name", "id"],
  fields: [
    "name",
    "key",
    "type",
    "prefix",
    "environment",
    "status",
    "projectId",
    "createdBy",
    "createdAt",
    "lastUsed",
    "expiresAt",
    "revokedAt",
    "scopes",
    "permissions",
    "rateLimit",
    "restrictions",
    "metadata",
    "rotation",
    "rotatedFromId",
    "rotatedAt",
    "secretPending",
  ],
  search: (terms) => ({ AND: terms.map((t) => ({ name: { contains: t } })) }),
};

function audit(caller: Caller, action: string, keyId: string, details?: Record<string, unknown>) {
  recordAudit({
    businessId: caller.auth.businessId,
    environment: caller.auth.environment,
    actorType: caller.actorType ?? "api_key",
    actorId: caller.auth.principal.id,
    action,
    targetType: "api_key",
    targetId: keyId,
    ip: caller.ip,
    userAgent: caller.userAgent,
    details,
  });
}

/** scopes or permissions (array or object form) → the scope list, and restrictions from the object form. */
function requestedScopes(input: { scopes?: string[]; permissions?: ApiKeyCreate["permissions"] }) {
  if (input.scopes && input.permissions) throw invalidField("permissions", "Send either 'scopes' or 'permissions', not both.");
  if (input.scopes) return { scopes: [...new Set(input.scopes)], restrictions: undefined };
  const p = input.permissions;
  if (!p) return { scopes: undefined, restrictions: undefined };
  if (Array.isArray(p)) return { scopes: [...new Set(p)], restrictions: undefined };
  // "*" among the resources means every resource: all three actions make "*", fewer make each resource's scopes.
  const everyResource = p.resources.includes("*");
  const resources: readonly string[] = everyResource ? SCOPE_RESOURCES : p.resources;
  const scopes = everyResource && new Set(p.actions).size === 3 ? ["*"] : resources.flatMap((r) => p.actions.map((a) => `${r}:${a}`));
  return { scopes: [...new Set(scopes)], restrictions: p.restrictions };
}

const reservedPurpose = () =>
  invalidField("metadata", `The metadata purpose '${TRY_IT_PURPOSE}' is reserved for the docs' try-it keys.`, "Use another value.");

function assertGrantable(auth: AuthContext, scopes: string[]) {
  const missing = coversAll(auth.scopes, scopes);
  if (missing)
    throw forbidden("INSUFFICIENT_SCOPE", `This API key cannot grant '${missing}' because it does not hold it.`, {
      requiredScope: missing,
    });
}

function parseExpiry(expiresAt: string | null | undefined, expiresInDays: number | undefined): Date | null | undefined {
  if (expiresAt !== undefined && expiresInDays !== undefined)
    throw invalidField("expiresInDays", "Send either 'expiresAt' or 'expiresInDays', not both.");
  if (expiresInDays !== undefined) return new Date(now().getTime() + expiresInDays * DAY_MS);
  if (expiresAt === undefined || expiresAt === null) return expiresAt;
  const d = new Date(expiresAt);
  if (d.getTime() <= now().getTime()) throw invalidField("expiresAt", "'expiresAt' must be in the future.");
  return d;
}

const apiKeys = tenantResource<Parameters<typeof serializeApiKey>[0]>({
  model: () => db.apiKey,
  idKind: "apiKey",
  label: "API key",
  collection: API_KEY_COLLECTION,
  serialize: serializeApiKey,
});

/** The caller's keys, without the docs' try-it keys (lib/keys/try-it-key.ts), which are nobody's to manage. */
export const listApiKeys = (auth: AuthContext, query: CollectionQuery) => apiKeys.list(auth, query, notTryItKey);

export const getApiKeyOrThrow = (auth: AuthContext, id: string) => apiKeys.getOrThrow(auth, id);

export async function createKeyForCaller(caller: Caller, input: ApiKeyCreate, options: { tryIt?: boolean } = {}) {
  const { auth } = caller;
  if (claimsTryItPurpose(input.metadata) && !options.tryIt) throw reservedPurpose();
  const ownType = keyTypeOf(auth.environment);
  const type = input.type ?? (input.environment ? keyTypeOf(input.environment) : ownType);
  if (type !== ownType || (input.environment && input.environment !== auth.environment)) {
    throw invalidField(
      input.type ? "type" : "environment",
      `A ${ownType} key can create ${ownType} keys only.`,
      "Create live keys with a live key, in the portal, or with the operator CLI.",
    );
  }
  const { scopes, restrictions: fromPermissions } = requestedScopes(input);
  if (!scopes)
    throw new ApiError({
      status: 400,
      type: "validation_error",
      code: "MISSING_REQUIRED_FIELD",
      field: "scopes",
      message: "The field 'scopes' (or 'permissions') is required.",
      suggestion: 'For example ["products:read"].',
    });
  assertGrantable(auth, scopes);
  const projectId = input.projectId ?? auth.projectId;
  if (projectId !== auth.projectId) {
    const project = await db.project.findFirst({ where: { id: projectId, businessId: auth.businessId } });
    if (!project) throw invalidField("projectId", "No such project in this business.");
  }
  const restrictions: KeyRestrictions | null = fromPermissions || input.restrictions ? { ...fromPermissions, ...input.restrictions } : null;
  const expiresAt = parseExpiry(input.expiresAt, input.expiresInDays) ?? null;
  // The key and its event commit together (and with an Idempotency-Key's record, lib/db/commit-hook.ts).
  const { row, key } = await withEvents(
    async (tx) => {
      const made = await createApiKey(
        {
          businessId: auth.businessId,
          projectId,
          type,
          name: input.name,
          scopes,
          expiresAt,
          rateLimit: input.rateLimit ?? restrictions?.rateLimit ?? null,
          restrictions,
          metadata: input.metadata ?? null,
          rotation: input.rotation ?? null,
          createdBy: auth.principal.id,
        },
        tx,
      );
      await keyEvent(tx, made.row, "resource.created");
      return made;
    },
    { answer: ({ row, key }) => serializeApiKey(row, key) },
  );
  audit(caller, "api_key.created", row.id, { name: row.name, scopes, environment: row.environment });
  return serializeApiKey(row, key);
}

export async function updateApiKey(caller: Caller, id: string, patch: ApiKeyUpdate) {
  const current = await getApiKeyOrThrow(caller.auth, id);
  if (current.revokedAt) throw stateConflict("A revoked key cannot be changed.", { currentState: "revoked" });
  if (claimsTryItPurpose(patch.metadata)) throw reservedPurpose();
  const { scopes, restrictions: fromPermissions } = requestedScopes(patch);
  if (scopes) assertGrantable(caller.auth, scopes);
  const data: Prisma.ApiKeyUpdateInput = { updatedAt: now() };
  if (patch.name !== undefined) data.name = patch.name;
  if (scopes) data.scopes = scopes;
  const expiry = parseExpiry(patch.expiresAt, undefined);
  if (expiry !== undefined) data.expiresAt = expiry;
  if (patch.rateLimit !== undefined) data.rateLimit = patch.rateLimit;
  if (patch.restrictions !== undefined || fromPermissions) {
    const next = patch.restrictions === null ? null : { ...fromPermissions, ...(patch.restrictions ?? {}) };
    data.restrictions = next === null ? dbNull : next;
  }
  if (patch.metadata !== undefined) data.metadata = patch.metadata === null ? dbNull : patch.metadata;
  if (patch.rotation !== undefined) data.rotation = patch.rotation === null ? dbNull : patch.rotation;
  const row = await db.apiKey.update({ where: { id: current.id }, data });
  announceKeyChange(row.id);
  audit(caller, "api_key.updated", row.id, { fields: Object.keys(patch) });
  const before = serializeApiKey(current) as Record<string, unknown>;
  await keyEvent(
    null,
    row,
    "resource.updated",
    undefined,
    Object.fromEntries(
      Object.keys(patch)
        .filter((k) => k in before)
        .map((k) => [k, before[k]]),
    ),
  );
  return serializeApiKey(row);
}

/** Revocation takes effect on the very next request (cache invalidated here and, with Redis, everywhere). */
export async function revokeApiKey(caller: Caller, id: string) {
  const current = await getApiKeyOrThrow(caller.auth, id);
  if (current.revokedAt) return;
  const revoked = await db.apiKey.update({ where: { id: current.id }, data: { revokedAt: now(), updatedAt: now() } });
  announceKeyChange(current.id);
  audit(caller, "api_key.revoked", current.id, { name: current.name });
  await keyEvent(null, revoked, "resource.deleted");
}

/** POST /v1/api-keys/{id}/rotate: rotation by hand (see rotate-api-key.ts). */
export async function rotateApiKey(caller: Caller, id: string, gracePeriodDays?: number) {
  const current = await getApiKeyOrThrow(caller.auth, id);
  // Rotation hands the caller a new key with the old one's scopes: the same rule as creating one.
  assertGrantable(caller.auth, current.scopes as string[]);
  if (current.revokedAt) throw stateConflict("A revoked key cannot be rotated.", { currentState: "revoked" });
  if (current.expiresAt && current.expiresAt <= now())
    throw stateConflict("An expired key cannot be rotated.", { currentState: "expired" });
  const view = (r: Rotation) => ({ ...serializeApiKey(r.row, r.key), rotatedFrom: r.rotatedFrom });
  const rotated = await rotateKeyRow(current, { graceDays: gracePeriodDays, createdBy: caller.auth.principal.id }, view);
  if (!rotated) throw stateConflict("This key is being rotated already.");
  audit(caller, "api_key.rotated", current.id, {
    newKeyId: rotated.row.id,
    oldKeyExpiresAt: rotated.rotatedFrom.expiresAt,
    gracePeriodDays: rotated.graceDays,
  });
  return view(rotated);
}

/**
 * POST /v1/api-keys/{id}/reveal: the value of a key made by automatic rotation, shown once and then erased
 * (a conditional update, so two callers racing get it once between them).
 */
export async function revealApiKey(caller: Caller, id: string) {
  const current = await getApiKeyOrThrow(caller.auth, id);
  assertGrantable(caller.auth, current.scopes as string[]);
  const value = current.pendingSecret ? open(current.pendingSecret) : null;
  const taken = value
    ? await withEvents(
        (tx) =>
          tx.apiKey.updateMany({
            where: { id: current.id, pendingSecret: current.pendingSecret },
            data: { pendingSecret: null, updatedAt: now() },
          }),
        // Shown once: a retry after a crash replays it (sealed in the idempotency record) rather than losing it.
        { answer: (done) => (done.count === 1 ? serializeApiKey({ ...current, pendingSecret: null }, value) : undefined) },
      )
    : { count: 0 };
  if (!value || taken.count === 0) {
    throw stateConflict("This key's value cannot be shown: it was shown once already, or the key was not made by automatic rotation.", {
      currentState: "secret_not_pending",
    });
  }
  audit(caller, "api_key.revealed", current.id, { name: current.name });
  return serializeApiKey({ ...current, pendingSecret: null }, value);
}
