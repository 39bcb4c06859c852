import { db } from "@/lib/db/client";
import { tenantResource } from "@/lib/db/tenant-resource";
import { now } from "@/lib/clock";
import { newId } from "@/lib/ids";
import { forbidden } from "@/lib/http/errors";

import type { CollectionQuery, CollectionSpec } from "@/lib/http/collection-query";
import { coversAll } from "@/lib/auth/scopes";
import { recordAudit } from "@/lib/audit/record-audit";
import { emitEvent, withEvents, type Tx } from "@/lib/events/emit-event";
import type { AuthContext } from "@/lib/http/auth-context";
import type { OAuthClient as ClientRow } from "@/generated/prisma-sqlite";
import type { OAuthClientCreate, OAuthClientUpdate } from "@/lib/schemas/oauth-client";
import { generateSecret, hashSecret } from "./token-format";
import { narrowGrantsOfClient, revokeGrantsOfClient } from "./revoke-grants";

// OAuth clients of a business, through /v1/oauth-clients and the portal. The secret is shown once, at creation;
// only its HMAC is kept. Deleting a client revokes every grant it holds; narrowing its scopes narrows them.

/** Who acts: an API key (the API) or a portal user. */
export interface ClientCaller {
  auth: AuthContext;
  ip: string | null;
  userAgent: string | null;
  actorType?: "api_key" | "user" | "oauth_client";
}

export const OAUTH_CLIENT_COLLECTION: CollectionSpec = {
  filters: {
    id: { type: "string" },
    name: { type: "string" },
    clientType: { type: "enum", values: ["confidential", "public"] },
    createdAt: { type: "date" },
  },
  sortable: ["createdAt", "name", "id"],
  fields: ["name", "clientType", "clientSecret", "redirectUris", "scopes", "environment", "createdAt", "updatedAt"],
  search: (terms) => ({ AND: terms.map((t) => ({ name: { contains: t } })) }),
};

export function serializeOAuthClient(row: ClientRow, fullSecret?: string) {
  return {
    id: row.id,
    name: row.name,
    clientType: row.clientType as "confidential" | "public",
    clientSecret: fullSecret ?? (row.secretLastFour ? `ocs_${"*".repeat(8)}${row.secretLastFour}` : null),
    redirectUris: row.redirectUris as string[],
    scopes: row.scopes as string[],
    environment: row.environment as "test" | "production",
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function audit(caller: ClientCaller, action: string, clientId: string, details?: Record<string, unknown>) {
  recordAudit({
    businessId: caller.auth.businessId,
    environment: caller.auth.environment,
    actorType: caller.actorType ?? (caller.auth.oauth ? "oauth_client" : "api_key"),
    actorId: caller.auth.oauth?.clientId ?? caller.auth.principal.id,
    action,
    targetType: "oauth_client",
    targetId: clientId,
    ip: caller.ip,
    userAgent: caller.userAgent,
    details,
  });
}

function clientEvent(caller: ClientCaller, type: string, row: ClientRow, previousAttributes?: Record<string, unknown>, tx?: Tx) {
  return emitEvent(
    {
      businessId: caller.auth.businessId,
      environment: caller.auth.environment,
      type,
      data: { object: "oauth_client", ...serializeOAuthClient(row) },
      previousAttributes,
    },
    tx,
  );
}

/** A client may be allowed only what its registrant holds: the same rule as creating a key. */
function assertGrantable(auth: AuthContext, scopes: string[]) {
  const missing = coversAll(auth.scopes, scopes);
  if (missing)
    throw forbidden("INSUFFICIENT_SCOPE", `You cannot allow '${missing}' to a client because you do not hold it.`, {
      requiredScope: missing,
    });
}

const oauthClients = tenantResource<ClientRow>({
  model: () => db.oAuthClient,
  idKind: "oauthClient",
  label: "OAuth client",
  collection: OAUTH_CLIENT_COLLECTION,
  serialize: serializeOAuthClient,
});

export const listOAuthClients = (auth: AuthContext, query: CollectionQuery) => oauthClients.list(auth, query);

export const getOAuthClientOrThrow = (auth: AuthContext, id: string) => oauthClients.getOrThrow(auth, id);

export async function createOAuthClient(caller: ClientCaller, input: OAuthClientCreate) {
  const scopes = [...new Set(input.scopes)];
  assertGrantable(caller.auth, scopes);
  const clientType = input.clientType ?? "confidential";
  const secret = clientType === "confidential" ? generateSecret("clientSecret") : null;
  const t = now();
  // The client and its event commit together (and with an Idempotency-Key's record, lib/db/commit-hook.ts).
  const row = await withEvents(
    async (tx) => {
      const created = await tx.oAuthClient.create({
        data: {
          id: newId("oauthClient"),
          businessId: caller.auth.businessId,
          environment: caller.auth.environment,
          name: input.name,
          redirectUris: [...new Set(input.redirectUris)],
          scopes,
          clientType,
          secretHash: secret ? hashSecret(secret) : null,
          secretLastFour: secret ? secret.slice(-4) : null,
          createdBy: caller.auth.oauth?.clientId ?? caller.auth.principal.id,
          createdAt: t,
          updatedAt: t,
        },
      });
      await clientEvent(caller, "resource.created", created, undefined, tx);
      return created;
    },
    { answer: (created) => serializeOAuthClient(created, secret ?? undefined) },
  );
  audit(caller, "oauth_client.created", row.id, { name: row.name, clientType, scopes });
  return serializeOAuthClient(row, secret ?? undefined);
}

export async function updateOAuthClient(caller: ClientCaller, id: string, patch: OAuthClientUpdate) {
  const current = await getOAuthClientOrThrow(caller.auth, id);
  const scopes = patch.scopes ? [...new Set(patch.scopes)] : undefined;
  if (scopes) assertGrantable(caller.auth, scopes);
  const row = await db.oAuthClient.update({
    where: { id: current.id },
    data: {
      updatedAt: now(),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.redirectUris ? { redirectUris: [...new Set(patch.redirectUris)] } : {}),
      ...(scopes ? { scopes } : {}),
    },
  });
  if (scopes) await narrowGrantsOfClient(row.id, scopes);
  audit(caller, "oauth_client.updated", row.id, { fields: Object.keys(patch) });
  const before = serializeOAuthClient(current) as Record<string, unknown>;
  await clientEvent(caller, "resource.updated", row, Object.fromEntries(Object.keys(patch).map((k) => [k, before[k]])));
  return serializeOAuthClient(row);
}

export async function deleteOAuthClient(caller: ClientCaller, id: string) {
  const current = await getOAuthClientOrThrow(caller.auth, id);
  await revokeGrantsOfClient(current.id);
  await db.oAuthClient.delete({ where: { id: current.id } });
  audit(caller, "oauth_client.deleted", current.id, { name: current.name });
  await clientEvent(caller, "resource.deleted", current);
}
